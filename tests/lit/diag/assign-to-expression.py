# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, i):
    x[i] + 1 = 0

# CHECK: {{^}}{{.*}}assign-to-expression.py:3:5: error: cannot assign to expression in assignment
# CHECK-NEXT: {{^}}  File "{{.*}}assign-to-expression.py", line 3
# CHECK-NEXT: {{^}}    x[i] + 1 = 0
# CHECK-NEXT: {{^}}    ^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
