# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# That nothing follows this error is checked in unclosed-paren-cascade.py.
def kernel(x, out):
    out[0] = (x[0] + x[1]
    return out

# CHECK: {{^}}{{.*}}unclosed-paren.py:4:14: error: '(' was never closed
# CHECK-NEXT: {{^}}  File "{{.*}}unclosed-paren.py", line 4
# CHECK-NEXT: {{^}}    out[0] = (x[0] + x[1]
# CHECK-NEXT: {{^}}             ^{{$}}
