# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    return x.if

# CHECK: {{^}}{{.*}}keyword-as-attribute.py:3:14: error: expected an attribute name after '.', found 'if'
# CHECK-NEXT: {{^}}  File "{{.*}}keyword-as-attribute.py", line 3
# CHECK-NEXT: {{^}}    return x.if
# CHECK-NEXT: {{^}}             ^^{{$}}
# CHECK-NOT: {{.}}
