# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, out, /):
    out[0] = x[0]

# CHECK: {{^}}{{.*}}positional-only.py:2:20: error: positional-only parameters ('/') are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}positional-only.py", line 2
# CHECK-NEXT: {{^}}    def kernel(x, out, /):
# CHECK-NEXT: {{^}}                       ^{{$}}
# CHECK-NOT: {{.}}
