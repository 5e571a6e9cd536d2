# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    0 = x[0]

# CHECK: {{^}}{{.*}}assign-to-literal.py:3:5: error: cannot assign to literal in assignment
# CHECK-NEXT: {{^}}  File "{{.*}}assign-to-literal.py", line 3
# CHECK-NEXT: {{^}}    0 = x[0]
# CHECK-NEXT: {{^}}    ^{{$}}
# CHECK-NOT: {{.}}
