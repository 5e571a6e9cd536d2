# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, out)
    out[0] = x[0]

# CHECK: {{^}}{{.*}}missing-colon-def.py:2:19: error: expected ':', found end of line
# CHECK-NEXT: {{^}}  File "{{.*}}missing-colon-def.py", line 2
# CHECK-NEXT: {{^}}    def kernel(x, out)
# CHECK-NEXT: {{^}}                      ^{{$}}
# CHECK-NOT: {{.}}
