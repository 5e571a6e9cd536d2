# RUN: not %kjitc --emit=ptx %s:kernel --sig="(int32[:],)" 2>&1 | FileCheck --strict-whitespace %s
# cuda.atomic.inc works on unsigned arrays only (Numba 0.56: uint32 and
# uint64); the message says which dtypes it takes.

from numba import cuda


@cuda.jit
def kernel(counter):
    cuda.atomic.inc(counter, 0, 100)

# CHECK:      {{^}}{{.*}}atomic-inc-int32.py:10:5: error: cuda.atomic.inc() does not support int32 arrays; it supports uint32 and uint64{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}atomic-inc-int32.py", line 10{{$}}
# CHECK-NEXT: {{^}}    cuda.atomic.inc(counter, 0, 100){{$}}
# CHECK-NEXT: {{^}}    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
