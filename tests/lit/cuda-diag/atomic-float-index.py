# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float32[:],)" 2>&1 | FileCheck --strict-whitespace %s
# Atomic indices are integers; the caret is on the index.

from numba import cuda


@cuda.jit
def kernel(a):
    cuda.atomic.add(a, 1.5, 1)

# CHECK:      {{^}}{{.*}}atomic-float-index.py:9:24: error: atomic indices must be integers{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}atomic-float-index.py", line 9{{$}}
# CHECK-NEXT: {{^}}    cuda.atomic.add(a, 1.5, 1){{$}}
# CHECK-NEXT: {{^}}                       ^^^{{$}}
# CHECK-NOT: {{.}}
