# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
from kjit import cuda


@cuda.jit
def kernel(x, out, *, scale):
    out[0] = x[0] * scale

# CHECK: {{^}}{{.*}}keyword-only.py:6:20: error: keyword-only parameters ('*') are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}keyword-only.py", line 6
# CHECK-NEXT: {{^}}    def kernel(x, out, *, scale):
# CHECK-NEXT: {{^}}                       ^{{$}}
# CHECK-NOT: {{.}}
