# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    return x[0] if x[0] > 0

# CHECK: {{^}}{{.*}}conditional-without-else.py:3:28: error: expected 'else' in the conditional expression, found end of line
# CHECK-NEXT: {{^}}  File "{{.*}}conditional-without-else.py", line 3
# CHECK-NEXT: {{^}}    return x[0] if x[0] > 0
# CHECK-NEXT: {{^}}                           ^{{$}}
# CHECK-NOT: {{.}}
