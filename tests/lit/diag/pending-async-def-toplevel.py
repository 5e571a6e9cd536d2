# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# PENDING (BUGS.txt): a top-level 'async def' is skipped like host code, so
# kjitc says "no function 'kernel'" instead of explaining why.
from kjit import cuda


@cuda.jit
async def kernel(x):
    x[0] = 1

# CHECK: {{^}}{{.*}}pending-async-def-toplevel.py:8:1: error: async functions, loops and 'with' are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}pending-async-def-toplevel.py", line 8
# CHECK-NEXT: {{^}}    async def kernel(x):
# CHECK-NEXT: {{^}}    ^^^^^{{$}}
# CHECK-NOT: {{.}}
