# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, out):
    primes = {2, 3, 5, 7}
    out[0] = x[0] in primes

# CHECK: {{^}}{{.*}}set-literal.py:3:14: error: set literals are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}set-literal.py", line 3
# CHECK-NEXT: {{^}}    primes = {2, 3, 5, 7}
# CHECK-NEXT: {{^}}             ^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
