# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    return x | 0b102

# CHECK: {{^}}{{.*}}bad-binary.py:3:16: error: invalid binary literal
# CHECK-NEXT: {{^}}  File "{{.*}}bad-binary.py", line 3
# CHECK-NEXT: {{^}}    return x | 0b102
# CHECK-NEXT: {{^}}               ^^^^^{{$}}
# CHECK-NOT: {{.}}
