# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# A top-level 'async def' named as the kernel is reported as inside a kernel,
# not skipped like host code (which gave "no function 'kernel'").
from kjit import cuda


@cuda.jit
async def kernel(x):
    x[0] = 1

# CHECK: {{^}}{{.*}}async-def-toplevel.py:8:1: error: async functions, loops and 'with' are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}async-def-toplevel.py", line 8
# CHECK-NEXT: {{^}}    async def kernel(x):
# CHECK-NEXT: {{^}}    ^^^^^{{$}}
# CHECK-NOT: {{.}}
