# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
from kjit import cuda


@cuda.jit
def kernel(x, out):
    import math
    i = cuda.grid(1)
    out[i] = math.sqrt(x[i])

# CHECK: {{^}}{{.*}}import-in-kernel.py:7:5: error: import statements are not supported inside kernels; import at module level and use the name in the kernel
# CHECK-NEXT: {{^}}  File "{{.*}}import-in-kernel.py", line 7
# CHECK-NEXT: {{^}}    import math
# CHECK-NEXT: {{^}}    ^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
