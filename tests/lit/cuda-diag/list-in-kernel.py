# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float64[:],)" 2>&1 | FileCheck --strict-whitespace %s
# Lists allocate and grow: kernels refuse them where they are written (a
# comprehension included), as Numba's CUDA target does.

from numba import cuda


@cuda.jit
def kernel(out):
    xs = [v * 2.0 for v in range(4)]
    out[0] = xs[0]

# CHECK:      {{^}}{{.*}}list-in-kernel.py:10:10: error: a list comprehension is not supported in kernels; write a loop{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}list-in-kernel.py", line 10
# CHECK-NEXT: {{^}}    xs = [v * 2.0 for v in range(4)]
# CHECK-NEXT: {{^}}         ^^^^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
