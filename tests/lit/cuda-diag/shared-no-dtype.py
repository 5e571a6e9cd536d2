# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float32[:],)" 2>&1 | FileCheck --strict-whitespace %s
# cuda.shared.array needs a dtype.

from numba import cuda


@cuda.jit
def kernel(a):
    buf = cuda.shared.array(16)
    buf[0] = a[0]

# CHECK:      {{^}}{{.*}}shared-no-dtype.py:9:11: error: cuda.shared.array() takes shape and dtype{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}shared-no-dtype.py", line 9{{$}}
# CHECK-NEXT: {{^}}    buf = cuda.shared.array(16){{$}}
# CHECK-NEXT: {{^}}          ^^^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
