# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# PENDING (BUGS.txt): the call is never closed, so the comment lines below run
# to the end of the file inside it. kjitc adds "expected ',' or ')' in the
# call's arguments, found end of line" at a line past the end of the file,
# with an empty excerpt; only the first error should be reported.
def kernel(x, out):
    out[0] = max(x[0],
                 x[1]

# CHECK: {{^}}{{.*}}pending-unclosed-paren-at-eof.py:7:17: error: '(' was never closed
# CHECK-NEXT: {{^}}  File "{{.*}}pending-unclosed-paren-at-eof.py", line 7
# CHECK-NEXT: {{^}}    out[0] = max(x[0],
# CHECK-NEXT: {{^}}                ^{{$}}
# CHECK-NOT: {{.}}
