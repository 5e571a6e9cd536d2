# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    return x & 0777

# CHECK: {{^}}{{.*}}leading-zero.py:3:16: error: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers
# CHECK-NEXT: {{^}}  File "{{.*}}leading-zero.py", line 3
# CHECK-NEXT: {{^}}    return x & 0777
# CHECK-NEXT: {{^}}               ^^^^{{$}}
# CHECK-NOT: {{.}}
