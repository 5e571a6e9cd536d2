# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float32[:], float32)" 2>&1 | FileCheck --strict-whitespace %s
# cuda.atomic.exch works on integer arrays only (Numba 0.56).

from numba import cuda


@cuda.jit
def kernel(a, v):
    old = cuda.atomic.exch(a, 0, v)
    a[1] = old

# CHECK:      {{^}}{{.*}}atomic-exch-float32.py:9:11: error: cuda.atomic.exch() does not support float32 arrays; it supports int32, uint32, int64 and uint64{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}atomic-exch-float32.py", line 9{{$}}
# CHECK-NEXT: {{^}}    old = cuda.atomic.exch(a, 0, v){{$}}
# CHECK-NEXT: {{^}}          ^^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
