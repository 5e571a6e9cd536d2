# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    x.sum() = 0

# CHECK: {{^}}{{.*}}bad-assign-target.py:3:5: error: cannot assign to function call in assignment
# CHECK-NEXT: {{^}}  File "{{.*}}bad-assign-target.py", line 3
# CHECK-NEXT: {{^}}    x.sum() = 0
# CHECK-NEXT: {{^}}    ^^^^^^^{{$}}
# CHECK-NOT: {{.}}
