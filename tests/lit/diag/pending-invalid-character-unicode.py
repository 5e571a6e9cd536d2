# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# PENDING (BUGS.txt): a non-ASCII character that cannot be part of a name
# (here U+00D7 MULTIPLICATION SIGN) is taken as an identifier, and the error
# is "expected end of line, found '×'" with two carets (one per byte).
# Python: "invalid character '×' (U+00D7)". Columns stay byte offsets.
def kernel(x, out):
    out[0] = x[0] × 2

# CHECK: {{^}}{{.*}}pending-invalid-character-unicode.py:7:19: error: invalid character '×' (U+00D7)
# CHECK-NEXT: {{^}}  File "{{.*}}pending-invalid-character-unicode.py", line 7
# CHECK-NEXT: {{^}}    out[0] = x[0] × 2
# CHECK-NEXT: {{^}}                  ^{{$}}
# CHECK-NOT: {{.}}
