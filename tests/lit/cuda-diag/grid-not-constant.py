# RUN: not %kjitc --emit=ptx %s:kernel --sig="(int32[:], int64)" 2>&1 | FileCheck --strict-whitespace %s
# The argument of cuda.grid is a constant.

from numba import cuda


@cuda.jit
def kernel(a, n):
    i = cuda.grid(n)
    a[0] = i

# CHECK:      {{^}}{{.*}}grid-not-constant.py:9:19: error: cuda.grid() takes a constant 1, 2 or 3, not a value known only when the kernel runs (RequireLiteralValue){{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}grid-not-constant.py", line 9{{$}}
# CHECK-NEXT: {{^}}    i = cuda.grid(n){{$}}
# CHECK-NEXT: {{^}}                  ^{{$}}
# CHECK-NOT: {{.}}
