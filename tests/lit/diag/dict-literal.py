# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
from kjit import cuda


@cuda.jit
def kernel(x, out):
    weights = {"left": 0.25, "centre": 0.5, "right": 0.25}
    out[0] = x[0] * weights["centre"]

# CHECK: {{^}}{{.*}}dict-literal.py:7:15: error: dict literals are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}dict-literal.py", line 7
# CHECK-NEXT: {{^}}    weights = {"left": 0.25, "centre": 0.5, "right": 0.25}
# CHECK-NEXT: {{^}}              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
