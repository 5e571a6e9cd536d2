# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, y):
    x[0] == y = 1

# CHECK: {{^}}{{.*}}assign-to-comparison.py:3:5: error: cannot assign to comparison in assignment
# CHECK-NEXT: {{^}}  File "{{.*}}assign-to-comparison.py", line 3
# CHECK-NEXT: {{^}}    x[0] == y = 1
# CHECK-NEXT: {{^}}    ^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
