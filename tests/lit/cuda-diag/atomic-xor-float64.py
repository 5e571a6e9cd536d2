# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float64[:],)" 2>&1 | FileCheck --strict-whitespace %s
# cuda.atomic.xor works on integer arrays only (Numba 0.56).

from numba import cuda


@cuda.jit
def kernel(a):
    cuda.atomic.xor(a, 0, 1)

# CHECK:      {{^}}{{.*}}atomic-xor-float64.py:9:5: error: cuda.atomic.xor() does not support float64 arrays; it supports int32, uint32, int64 and uint64{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}atomic-xor-float64.py", line 9{{$}}
# CHECK-NEXT: {{^}}    cuda.atomic.xor(a, 0, 1){{$}}
# CHECK-NEXT: {{^}}    ^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
