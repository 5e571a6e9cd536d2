# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float32[:, :], float32)" 2>&1 | FileCheck --strict-whitespace %s
# An atomic on a 2-d array takes a tuple of two indices; the caret is on the
# index.

from numba import cuda


@cuda.jit
def kernel(a, v):
    cuda.atomic.add(a, 0, v)

# CHECK:      {{^}}{{.*}}atomic-2d-one-index.py:10:24: error: cuda.atomic.add() on a 2-d array needs 2 indices, not 1{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}atomic-2d-one-index.py", line 10{{$}}
# CHECK-NEXT: {{^}}    cuda.atomic.add(a, 0, v){{$}}
# CHECK-NEXT: {{^}}                       ^{{$}}
# CHECK-NOT: {{.}}
