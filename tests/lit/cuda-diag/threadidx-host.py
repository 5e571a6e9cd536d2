# RUN: not %kjitc --target=host --emit=ir %s:host --sig="(int32[:],)" 2>&1 | FileCheck --strict-whitespace %s
# cuda.threadIdx in a function compiled for the host (@njit, --target=host)
# is an error that says where it can be used.

from numba import cuda


def host(a):
    a[0] = cuda.threadIdx.x

# CHECK:      {{^}}{{.*}}threadidx-host.py:9:12: error: cuda.threadIdx is only available in @cuda.jit kernels and device functions{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}threadidx-host.py", line 9{{$}}
# CHECK-NEXT: {{^}}    a[0] = cuda.threadIdx.x{{$}}
# CHECK-NEXT: {{^}}           ^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
