# RUN: not %kjitc --emit=ir %s:f --sig="(float64[:], float64)" 2>&1 | FileCheck --strict-whitespace %s
# An array element holds a number, not a tuple.


def f(a, x):
    a[0] = (x, x)

# CHECK:      {{^}}{{.*}}store-tuple.py:6:5: error: cannot store a value of type UniTuple(float64 x 2) into an element of array(float64, 1d, A){{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}store-tuple.py", line 6{{$}}
# CHECK-NEXT: {{^}}    a[0] = (x, x){{$}}
# CHECK-NEXT: {{^}}    ^^^^{{$}}
# CHECK-NOT: {{.}}
