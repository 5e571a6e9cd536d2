# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float32[:],)" 2>&1 | FileCheck --strict-whitespace %s
# cuda.syncthreads() takes no argument.

from numba import cuda


@cuda.jit
def kernel(a):
    cuda.syncthreads(1)
    a[0] = 0

# CHECK:      {{^}}{{.*}}syncthreads-argument.py:9:5: error: cuda.syncthreads() takes 0 arguments (1 given){{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}syncthreads-argument.py", line 9{{$}}
# CHECK-NEXT: {{^}}    cuda.syncthreads(1){{$}}
# CHECK-NEXT: {{^}}    ^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
