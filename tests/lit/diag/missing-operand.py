# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    y = x[0] *
    return y

# CHECK: {{^}}{{.*}}missing-operand.py:3:15: error: expected an expression, found end of line
# CHECK-NEXT: {{^}}  File "{{.*}}missing-operand.py", line 3
# CHECK-NEXT: {{^}}    y = x[0] *
# CHECK-NEXT: {{^}}              ^{{$}}
# CHECK-NOT: {{.}}
