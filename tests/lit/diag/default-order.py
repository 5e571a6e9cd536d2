# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, n=128, out):
    out[0] = x[n]

# CHECK: {{^}}{{.*}}default-order.py:2:22: error: parameter without a default follows parameter with a default
# CHECK-NEXT: {{^}}  File "{{.*}}default-order.py", line 2
# CHECK-NEXT: {{^}}    def kernel(x, n=128, out):
# CHECK-NEXT: {{^}}                         ^^^{{$}}
# CHECK-NOT: {{.}}
