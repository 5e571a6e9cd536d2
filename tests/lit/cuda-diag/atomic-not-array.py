# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float32[:], float32)" 2>&1 | FileCheck --strict-whitespace %s
# An atomic operates on an array element, not on a scalar.

from numba import cuda


@cuda.jit
def kernel(a, total):
    cuda.atomic.add(total, 0, a[0])

# CHECK:      {{^}}{{.*}}atomic-not-array.py:9:5: error: cuda.atomic.add() operates on an array element, not float32{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}atomic-not-array.py", line 9{{$}}
# CHECK-NEXT: {{^}}    cuda.atomic.add(total, 0, a[0]){{$}}
# CHECK-NEXT: {{^}}    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
