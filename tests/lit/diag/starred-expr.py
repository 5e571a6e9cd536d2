# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    first, *rest = x
    return first

# CHECK: {{^}}{{.*}}starred-expr.py:3:12: error: starred expressions ('*x') are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}starred-expr.py", line 3
# CHECK-NEXT: {{^}}    first, *rest = x
# CHECK-NEXT: {{^}}           ^^^^^{{$}}
# CHECK-NOT: {{.}}
