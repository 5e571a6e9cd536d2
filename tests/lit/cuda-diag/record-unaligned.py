# RUN: not %kjitc --emit=ptx %s:kernel --sig="(R12u{1:a@0:int32;1:b@4:float64}[:],)" 2>&1 | FileCheck --strict-whitespace %s
# numba-cuda's rule: on the GPU a record's field must sit at an offset its
# type's alignment divides (a packed dtype's float64 at offset 4 does not);
# the message is Numba's.

from numba import cuda


@cuda.jit
def kernel(a):
    i = cuda.grid(1)
    a[i].a = a[i].b

# CHECK:      {{^}}{{.*}}record-unaligned.py:12:14: error: Record(a[type=int32;offset=0],b[type=float64;offset=4];12;False).b of type float64 is not aligned{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}record-unaligned.py", line 12{{$}}
# CHECK-NEXT: {{^}}    a[i].a = a[i].b{{$}}
# CHECK-NEXT: {{^}}             ^^^^^^{{$}}
# CHECK-NOT: {{.}}
