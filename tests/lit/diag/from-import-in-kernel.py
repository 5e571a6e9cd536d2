# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
from kjit import cuda


@cuda.jit
def kernel(x, out):
    from math import sqrt as square_root
    i = cuda.grid(1)
    out[i] = square_root(x[i])

# CHECK: {{^}}{{.*}}from-import-in-kernel.py:7:5: error: import statements are not supported inside kernels; import at module level and use the name in the kernel
# CHECK-NEXT: {{^}}  File "{{.*}}from-import-in-kernel.py", line 7
# CHECK-NEXT: {{^}}    from math import sqrt as square_root
# CHECK-NEXT: {{^}}    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
