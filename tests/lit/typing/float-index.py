# RUN: not %kjitc --emit=ir %s:f --sig="(float64[:], float64)" 2>&1 | FileCheck --strict-whitespace %s
# Array indices must be integers.


def f(a, x):
    return a[x]

# CHECK:      {{^}}{{.*}}float-index.py:6:14: error: array indices must be integers, not float64{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}float-index.py", line 6{{$}}
# CHECK-NEXT: {{^}}    return a[x]{{$}}
# CHECK-NEXT: {{^}}             ^{{$}}
# CHECK-NOT: {{.}}
