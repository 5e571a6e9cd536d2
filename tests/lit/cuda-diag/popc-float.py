# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float32[:], int32[:])" 2>&1 | FileCheck --strict-whitespace %s
# The bit operations take integers.

from numba import cuda


@cuda.jit
def kernel(a, out):
    out[0] = cuda.popc(a[0])

# CHECK:      {{^}}{{.*}}popc-float.py:9:14: error: cuda.popc() takes an integer, not float32{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}popc-float.py", line 9{{$}}
# CHECK-NEXT: {{^}}    out[0] = cuda.popc(a[0]){{$}}
# CHECK-NEXT: {{^}}             ^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
