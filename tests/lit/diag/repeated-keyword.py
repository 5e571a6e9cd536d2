# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
from kjit import cuda


@cuda.jit
def kernel(x):
    tile = cuda.shared.array(shape=32, dtype=float32, shape=64)
    tile[0] = x[0]

# CHECK: {{^}}{{.*}}repeated-keyword.py:7:55: error: keyword argument repeated: shape
# CHECK-NEXT: {{^}}  File "{{.*}}repeated-keyword.py", line 7
# CHECK-NEXT: {{^}}    tile = cuda.shared.array(shape=32, dtype=float32, shape=64)
# CHECK-NEXT: {{^}}                                                      ^^^^^{{$}}
# CHECK-NOT: {{.}}
