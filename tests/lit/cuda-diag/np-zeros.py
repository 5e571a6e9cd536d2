# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float64[:],)" 2>&1 | FileCheck --strict-whitespace %s
# np.zeros allocates on the host heap, which kernels cannot do.

import numpy as np
from numba import cuda


@cuda.jit
def kernel(a):
    i = cuda.grid(1)
    acc = np.zeros((4, 4))
    a[i] = acc[0, 0]

# CHECK:      {{^}}{{.*}}np-zeros.py:11:11: error: np.zeros() allocates memory, which kernels cannot do; use cuda.local.array or cuda.shared.array, or pass an array in{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}np-zeros.py", line 11{{$}}
# CHECK-NEXT: {{^}}    acc = np.zeros((4, 4)){{$}}
# CHECK-NEXT: {{^}}          ^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
