# RUN: not %kjitc --emit=ir %s:f --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# Item assignment needs an array.


def f(x):
    x[0] = 1

# CHECK:      {{^}}{{.*}}store-into-scalar.py:6:5: error: cannot assign to an item of int64; only arrays support item assignment{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}store-into-scalar.py", line 6{{$}}
# CHECK-NEXT: {{^}}    x[0] = 1{{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
# CHECK-NOT: {{.}}
