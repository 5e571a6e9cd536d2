# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# "unexpected indent" points at the first token of the over-indented line,
# with one caret, not at its indentation (which, once the excerpt is
# dedented, drew 8 carets under the statement).
def kernel(x, out):
    y = x[0]
        out[0] = y

# CHECK: {{^}}{{.*}}unexpected-indent.py:7:9: error: unexpected indent
# CHECK-NEXT: {{^}}  File "{{.*}}unexpected-indent.py", line 7
# CHECK-NEXT: {{^}}    out[0] = y
# CHECK-NEXT: {{^}}    ^{{$}}
# CHECK-NOT: {{.}}
