# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    return x * 1000_

# CHECK: {{^}}{{.*}}trailing-underscore.py:3:16: error: invalid decimal literal
# CHECK-NEXT: {{^}}  File "{{.*}}trailing-underscore.py", line 3
# CHECK-NEXT: {{^}}    return x * 1000_
# CHECK-NEXT: {{^}}               ^^^^^{{$}}
# CHECK-NOT: {{.}}
