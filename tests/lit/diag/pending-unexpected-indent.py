# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# PENDING (BUGS.txt): kjitc reports "unexpected indent" at column 1 (the
# whitespace) and, after stripping the indentation, draws 8 carets under a
# 6-character statement. It should point at the first token of the line.
def kernel(x, out):
    y = x[0]
        out[0] = y

# CHECK: {{^}}{{.*}}pending-unexpected-indent.py:7:9: error: unexpected indent
# CHECK-NEXT: {{^}}  File "{{.*}}pending-unexpected-indent.py", line 7
# CHECK-NEXT: {{^}}    out[0] = y
# CHECK-NEXT: {{^}}    ^{{$}}
# CHECK-NOT: {{.}}
