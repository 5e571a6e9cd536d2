# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, out):
    if x[0] > 0:
    out[0] = 1

# CHECK: {{^}}{{.*}}missing-indent.py:4:5: error: expected an indented block after 'if' statement on line 3
# CHECK-NEXT: {{^}}  File "{{.*}}missing-indent.py", line 4
# CHECK-NEXT: {{^}}    out[0] = 1
# CHECK-NEXT: {{^}}    ^^^{{$}}
# CHECK-NOT: {{.}}
