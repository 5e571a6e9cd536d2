# RUN: not %kjitc --emit=ir %s:f --sig="(float64[:, :],)" 2>&1 | FileCheck --strict-whitespace %s
# Three indices on a 2d array.


def f(a):
    return a[0, 1, 2]

# CHECK:      {{^}}{{.*}}too-many-indices.py:6:12: error: too many indices for an array of 2 dimensions: 3{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}too-many-indices.py", line 6{{$}}
# CHECK-NEXT: {{^}}    return a[0, 1, 2]{{$}}
# CHECK-NEXT: {{^}}           ^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
