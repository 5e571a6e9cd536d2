# RUN: not %kjitc --emit=ir %s:f --sig="(float64[:], float64[:])" 2>&1 | FileCheck --strict-whitespace %s
# Whole-array arithmetic is not supported in kernels.


def f(a, b):
    return a + b

# CHECK:      {{^}}{{.*}}array-plus-array.py:6:12: error: array expressions (array(float64, 1d, A) + array(float64, 1d, A)) are not supported in kernels yet; write the loop{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}array-plus-array.py", line 6{{$}}
# CHECK-NEXT: {{^}}    return a + b{{$}}
# CHECK-NEXT: {{^}}           ^^^^^{{$}}
# CHECK-NOT: {{.}}
