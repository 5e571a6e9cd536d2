# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float64[:], float64[:], float64[:])" 2>&1 | FileCheck --strict-whitespace %s
# Whole-array arithmetic allocates its result, which kernels cannot do (as
# in numba-cuda); @jit functions on the CPU have it.

from numba import cuda


@cuda.jit
def kernel(a, b, out):
    c = a + b
    out[0] = c[0]

# CHECK:      {{^}}{{.*}}array-expression.py:10:9: error: array expressions (array(float64, 1d, A) + array(float64, 1d, A)) are not supported in kernels yet; write the loop{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}array-expression.py", line 10{{$}}
# CHECK-NEXT: {{^}}    c = a + b{{$}}
# CHECK-NEXT: {{^}}        ^^^^^{{$}}
# CHECK-NOT: {{.}}
