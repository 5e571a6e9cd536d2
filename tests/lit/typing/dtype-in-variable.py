# RUN: not %kjitc --emit=ir %s:f --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# A dtype is a compile-time value: it cannot be stored in a variable.


import numpy as np


def f(n):
    d = np.float32
    return np.zeros(n, d)

# CHECK:      {{^}}{{.*}}dtype-in-variable.py:9:5: error: cannot assign dtype(float32) to variable 'd': it has no run-time value; use it directly where it is needed{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}dtype-in-variable.py", line 9{{$}}
# CHECK-NEXT: {{^}}    d = np.float32{{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
# CHECK-NOT: {{.}}
