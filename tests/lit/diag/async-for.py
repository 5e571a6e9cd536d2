# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(stream, out):
    async for chunk in stream:
        out[0] += chunk

# CHECK: {{^}}{{.*}}async-for.py:3:5: error: async functions, loops and 'with' are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}async-for.py", line 3
# CHECK-NEXT: {{^}}    async for chunk in stream:
# CHECK-NEXT: {{^}}    ^^^^^{{$}}
# CHECK-NOT: {{.}}
