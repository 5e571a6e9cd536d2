# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    return x[]

# CHECK: {{^}}{{.*}}empty-subscript.py:3:14: error: expected an index inside '[]'
# CHECK-NEXT: {{^}}  File "{{.*}}empty-subscript.py", line 3
# CHECK-NEXT: {{^}}    return x[]
# CHECK-NEXT: {{^}}             ^{{$}}
# CHECK-NOT: {{.}}
