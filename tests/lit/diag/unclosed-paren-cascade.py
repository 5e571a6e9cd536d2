# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# "'(' was never closed" says it all, as in Python; the parser adds nothing
# (it used to add "expected ')', found 'return'").
def kernel(x, out):
    out[0] = (x[0] + x[1]
    return out

# CHECK: {{^}}{{.*}}unclosed-paren-cascade.py:5:14: error: '(' was never closed
# CHECK-NEXT: {{^}}  File "{{.*}}unclosed-paren-cascade.py", line 5
# CHECK-NEXT: {{^}}    out[0] = (x[0] + x[1]
# CHECK-NEXT: {{^}}             ^{{$}}
# CHECK-NOT: {{.}}
