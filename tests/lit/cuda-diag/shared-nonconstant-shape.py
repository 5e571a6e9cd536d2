# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float32[:], int64)" 2>&1 | FileCheck --strict-whitespace %s
# The shape of a shared array must be known at compile time: an argument
# is not; the caret is on the shape (Numba's words first, then kjit's).

from numba import cuda, float32


@cuda.jit
def kernel(a, n):
    buf = cuda.shared.array(n, dtype=float32)
    buf[0] = a[0]

# CHECK:      {{^}}{{.*}}shared-nonconstant-shape.py:10:29: error: No implementation of function Function(<function shared.array>) found for signature:{{$}}
# CHECK-NEXT: {{^}} {{$}}
# CHECK-NEXT: {{^}} >>> array(shape=int64, dtype=class(float32)){{$}}
# CHECK-NEXT: {{^}} {{$}}
# CHECK-NEXT: {{^}}the shape of cuda.shared.array() must be a constant integer or a tuple of constant integers (a literal, a global constant, or a variable assigned one once), not int64{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}shared-nonconstant-shape.py", line 10{{$}}
# CHECK-NEXT: {{^}}    buf = cuda.shared.array(n, dtype=float32){{$}}
# CHECK-NEXT: {{^}}                            ^{{$}}
# CHECK-NOT: {{.}}
