# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    return x + import

# CHECK: {{^}}{{.*}}unexpected-keyword.py:3:16: error: invalid syntax: unexpected keyword 'import'
# CHECK-NEXT: {{^}}  File "{{.*}}unexpected-keyword.py", line 3
# CHECK-NEXT: {{^}}    return x + import
# CHECK-NEXT: {{^}}               ^^^^^^{{$}}
# CHECK-NOT: {{.}}
