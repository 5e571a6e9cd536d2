# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    return x * 1__000

# CHECK: {{^}}{{.*}}bad-underscore.py:3:16: error: invalid decimal literal
# CHECK-NEXT: {{^}}  File "{{.*}}bad-underscore.py", line 3
# CHECK-NEXT: {{^}}    return x * 1__000
# CHECK-NEXT: {{^}}               ^^^^^^{{$}}
# CHECK-NOT: {{.}}
