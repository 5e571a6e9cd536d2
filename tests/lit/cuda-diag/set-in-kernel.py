# RUN: not %kjitc --emit=ptx %s:kernel --sig="(int64[:], boolean[:])" 2>&1 | FileCheck --strict-whitespace %s
# Sets allocate and grow: kernels refuse them where they are written.
from kjit import cuda


@cuda.jit
def kernel(x, out):
    primes = {2, 3, 5, 7}
    out[0] = x[0] in primes

# CHECK: {{^}}{{.*}}set-in-kernel.py:8:14: error: sets are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}set-in-kernel.py", line 8
# CHECK-NEXT: {{^}}    primes = {2, 3, 5, 7}
# CHECK-NEXT: {{^}}             ^^^^^^^^^^^^{{$}}
