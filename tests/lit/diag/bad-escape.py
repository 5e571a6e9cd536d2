# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    print("bad \x4g escape")

# CHECK: {{^}}{{.*}}bad-escape.py:3:16: error: invalid \x escape in string literal
# CHECK-NEXT: {{^}}  File "{{.*}}bad-escape.py", line 3
# CHECK-NEXT: {{^}}    print("bad \x4g escape")
# CHECK-NEXT: {{^}}               ^{{$}}
# CHECK-NOT: {{.}}
