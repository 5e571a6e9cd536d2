# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float32[:],)" 2>&1 | FileCheck --strict-whitespace %s
# np.empty allocates on the host heap, which kernels cannot do.

import numpy as np
from numba import cuda


@cuda.jit
def kernel(a):
    tmp = np.empty(10, np.float32)
    a[0] = tmp[0]

# CHECK:      {{^}}{{.*}}np-empty.py:10:11: error: np.empty() allocates memory, which kernels cannot do; use cuda.local.array or cuda.shared.array, or pass an array in{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}np-empty.py", line 10{{$}}
# CHECK-NEXT: {{^}}    tmp = np.empty(10, np.float32){{$}}
# CHECK-NEXT: {{^}}          ^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
