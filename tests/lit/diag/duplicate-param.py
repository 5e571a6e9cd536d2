# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
from kjit import cuda


@cuda.jit
def kernel(x, out, x):
    out[0] = x[0]

# CHECK: {{^}}{{.*}}duplicate-param.py:6:20: error: duplicate argument 'x' in function definition
# CHECK-NEXT: {{^}}  File "{{.*}}duplicate-param.py", line 6
# CHECK-NEXT: {{^}}    def kernel(x, out, x):
# CHECK-NEXT: {{^}}                       ^{{$}}
# CHECK-NOT: {{.}}
