# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float32[:], complex64)" 2>&1 | FileCheck --strict-whitespace %s
# Warp shuffles move 32- and 64-bit integers and floats, not complex values.

from numba import cuda


@cuda.jit
def kernel(a, z):
    w = cuda.shfl_sync(0xffffffff, z, 0)
    a[0] = w.real

# CHECK:      {{^}}{{.*}}shfl-complex.py:9:9: error: cuda.shfl_sync() shuffles int32, int64, float32 or float64 values, not complex64{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}shfl-complex.py", line 9{{$}}
# CHECK-NEXT: {{^}}    w = cuda.shfl_sync(0xffffffff, z, 0){{$}}
# CHECK-NEXT: {{^}}        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
