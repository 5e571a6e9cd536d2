# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float32[:],)" 2>&1 | FileCheck --strict-whitespace %s
# Dynamic shared memory is 1-d: the shape 0 cannot be one of several
# dimensions.

from numba import cuda, float32


@cuda.jit
def kernel(a):
    buf = cuda.shared.array((0, 4), float32)
    a[0] = buf[0, 0]

# CHECK:      {{^}}{{.*}}dynamic-shared-2d.py:10:29: error: the shape of a dynamic shared array is the single constant 0{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}dynamic-shared-2d.py", line 10{{$}}
# CHECK-NEXT: {{^}}    buf = cuda.shared.array((0, 4), float32){{$}}
# CHECK-NEXT: {{^}}                            ^^^^^^{{$}}
# CHECK-NOT: {{.}}
