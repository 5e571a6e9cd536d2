# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, out):
out[0] = 1

# CHECK: {{^}}{{.*}}missing-indent-def.py:3:1: error: expected an indented block after function definition on line 2
# CHECK-NEXT: {{^}}  File "{{.*}}missing-indent-def.py", line 3
# CHECK-NEXT: {{^}}    out[0] = 1
# CHECK-NEXT: {{^}}    ^^^{{$}}
# CHECK-NOT: {{.}}
