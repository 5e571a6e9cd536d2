# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    return x & 0xFG

# CHECK: {{^}}{{.*}}bad-hex.py:3:16: error: invalid hexadecimal literal
# CHECK-NEXT: {{^}}  File "{{.*}}bad-hex.py", line 3
# CHECK-NEXT: {{^}}    return x & 0xFG
# CHECK-NEXT: {{^}}               ^^^^{{$}}
# CHECK-NOT: {{.}}
