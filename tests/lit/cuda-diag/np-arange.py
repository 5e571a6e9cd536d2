# RUN: not %kjitc --emit=ptx %s:kernel --sig="(int64[:],)" 2>&1 | FileCheck --strict-whitespace %s
# np.arange allocates on the host heap, which kernels cannot do.

import numpy as np
from numba import cuda


@cuda.jit
def kernel(a):
    for k in np.arange(a.shape[0]):
        a[k] = k

# CHECK:      {{^}}{{.*}}np-arange.py:10:14: error: np.arange() allocates memory, which kernels cannot do; use cuda.local.array or cuda.shared.array, or pass an array in{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}np-arange.py", line 10{{$}}
# CHECK-NEXT: {{^}}    for k in np.arange(a.shape[0]):{{$}}
# CHECK-NEXT: {{^}}             ^^^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
