# RUN: not %kjitc --emit=ptx %s:kernel --sig="(int32[:],)" 2>&1 | FileCheck --strict-whitespace %s
# threadIdx has x, y and z only.

from numba import cuda


@cuda.jit
def kernel(a):
    a[0] = cuda.threadIdx.w

# CHECK:      {{^}}{{.*}}threadidx-w.py:9:12: error: cuda.threadIdx has no attribute 'w'; use x, y or z{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}threadidx-w.py", line 9{{$}}
# CHECK-NEXT: {{^}}    a[0] = cuda.threadIdx.w{{$}}
# CHECK-NEXT: {{^}}           ^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
