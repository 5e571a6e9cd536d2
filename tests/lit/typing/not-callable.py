# RUN: not %kjitc --emit=ir %s:f --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# Calling a number.


def f(x):
    return x(1)

# CHECK:      {{^}}{{.*}}not-callable.py:6:12: error: 'int64' object is not callable{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}not-callable.py", line 6{{$}}
# CHECK-NEXT: {{^}}    return x(1){{$}}
# CHECK-NEXT: {{^}}           ^^^^{{$}}
# CHECK-NOT: {{.}}
