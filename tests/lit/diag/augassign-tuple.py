# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, y):
    x, y += 1, 2

# CHECK: {{^}}{{.*}}augassign-tuple.py:3:5: error: illegal expression for augmented assignment
# CHECK-NEXT: {{^}}  File "{{.*}}augassign-tuple.py", line 3
# CHECK-NEXT: {{^}}    x, y += 1, 2
# CHECK-NEXT: {{^}}    ^^^^{{$}}
# CHECK-NOT: {{.}}
