# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    a, b: float = x[0], x[1]
    return a + b

# CHECK: {{^}}{{.*}}annassign-tuple.py:3:5: error: only single target (not tuple) can be annotated
# CHECK-NEXT: {{^}}  File "{{.*}}annassign-tuple.py", line 3
# CHECK-NEXT: {{^}}    a, b: float = x[0], x[1]
# CHECK-NEXT: {{^}}    ^^^^{{$}}
# CHECK-NOT: {{.}}
