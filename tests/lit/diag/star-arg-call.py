# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
import math


def kernel(x, idx):
    return math.hypot(*idx)

# CHECK: {{^}}{{.*}}star-arg-call.py:6:23: error: '*' argument unpacking is not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}star-arg-call.py", line 6
# CHECK-NEXT: {{^}}    return math.hypot(*idx)
# CHECK-NEXT: {{^}}                      ^^^^{{$}}
# CHECK-NOT: {{.}}
