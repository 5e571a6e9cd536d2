# RUN: not %kjitc --emit=ir %s:f --sig="(float64[:], int64)" 2>&1 | FileCheck --strict-whitespace %s
# Independent errors in one function are all reported, in source order.


def f(a, n):
    x = a[1.5]
    y = nothere
    return n

# CHECK:      {{^}}{{.*}}several-errors.py:6:11: error: array indices must be integers, not float64{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}several-errors.py", line 6{{$}}
# CHECK-NEXT: {{^}}    x = a[1.5]{{$}}
# CHECK-NEXT: {{^}}          ^^^{{$}}
# CHECK-NEXT: {{^}}{{.*}}several-errors.py:7:9: error: NameError: name 'nothere' is not defined{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}several-errors.py", line 7{{$}}
# CHECK-NEXT: {{^}}    y = nothere{{$}}
# CHECK-NEXT: {{^}}        ^^^^^^^{{$}}
# CHECK-NOT: {{.}}
