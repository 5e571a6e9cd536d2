# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float32[:],)" 2>&1 | FileCheck --strict-whitespace %s
# A local array has positive dimensions (only a shared array may have the
# dynamic shape 0).

from numba import cuda, float32


@cuda.jit
def kernel(a):
    tmp = cuda.local.array(0, float32)
    a[0] = tmp[0]

# CHECK:      {{^}}{{.*}}local-array-zero.py:10:28: error: the dimensions of cuda.local.array() must be positive{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}local-array-zero.py", line 10{{$}}
# CHECK-NEXT: {{^}}    tmp = cuda.local.array(0, float32){{$}}
# CHECK-NEXT: {{^}}                           ^{{$}}
# CHECK-NOT: {{.}}
