# RUN: not %kjitc --emit=ptx %s:kernel --sig="(int32[:],)" 2>&1 | FileCheck --strict-whitespace %s
# cuda.grid takes 1, 2 or 3 (Numba: "argument can only be 1, 2, 3"); the
# caret is on the argument.

from numba import cuda


@cuda.jit
def kernel(a):
    i = cuda.grid(4)
    a[0] = i

# CHECK:      {{^}}{{.*}}grid-4.py:10:19: error: cuda.grid() takes a constant 1, 2 or 3{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}grid-4.py", line 10{{$}}
# CHECK-NEXT: {{^}}    i = cuda.grid(4){{$}}
# CHECK-NEXT: {{^}}                  ^{{$}}
# CHECK-NOT: {{.}}
