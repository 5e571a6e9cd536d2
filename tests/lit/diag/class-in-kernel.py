# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
from kjit import cuda


@cuda.jit
def kernel(points, out):
    class Point:
        x = 0.0
        y = 0.0
    i = cuda.grid(1)
    out[i] = points[i]

# CHECK: {{^}}{{.*}}class-in-kernel.py:7:5: error: class definitions are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}class-in-kernel.py", line 7
# CHECK-NEXT: {{^}}    class Point:
# CHECK-NEXT: {{^}}    ^^^^^{{$}}
# CHECK-NOT: {{.}}
