# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# The call is never closed, so the comment lines below run to the end of the
# file inside it. Only "'(' was never closed" is reported: the parser used
# to add "expected ',' or ')' in the call's arguments, found end of line" for
# a line past the end of the file.
def kernel(x, out):
    out[0] = max(x[0],
                 x[1]

# CHECK: {{^}}{{.*}}unclosed-paren-at-eof.py:7:17: error: '(' was never closed
# CHECK-NEXT: {{^}}  File "{{.*}}unclosed-paren-at-eof.py", line 7
# CHECK-NEXT: {{^}}    out[0] = max(x[0],
# CHECK-NEXT: {{^}}                ^{{$}}
# CHECK-NOT: {{.}}
