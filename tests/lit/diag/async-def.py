# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
from kjit import cuda


@cuda.jit
def kernel(x):
    async def fetch(i):
        return x[i]
    x[0] = 0

# CHECK: {{^}}{{.*}}async-def.py:7:5: error: async functions, loops and 'with' are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}async-def.py", line 7
# CHECK-NEXT: {{^}}    async def fetch(i):
# CHECK-NEXT: {{^}}    ^^^^^{{$}}
# CHECK-NOT: {{.}}
