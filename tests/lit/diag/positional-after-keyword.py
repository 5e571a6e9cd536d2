# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
import numpy as np


def kernel(x):
    return np.sum(x, axis=0, dtype)

# CHECK: {{^}}{{.*}}positional-after-keyword.py:6:30: error: positional argument follows keyword argument
# CHECK-NEXT: {{^}}  File "{{.*}}positional-after-keyword.py", line 6
# CHECK-NEXT: {{^}}    return np.sum(x, axis=0, dtype)
# CHECK-NEXT: {{^}}                             ^^^^^{{$}}
# CHECK-NOT: {{.}}
