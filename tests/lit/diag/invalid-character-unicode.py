# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# A non-ASCII character that cannot be part of a name (here U+00D7
# MULTIPLICATION SIGN) is an invalid character, as in Python, with one caret
# although it takes two bytes. Names follow Python's rules (XID_Start and
# XID_Continue). Columns stay byte offsets.
def kernel(x, out):
    out[0] = x[0] × 2

# CHECK: {{^}}{{.*}}invalid-character-unicode.py:7:19: error: invalid character '×' (U+00D7)
# CHECK-NEXT: {{^}}  File "{{.*}}invalid-character-unicode.py", line 7
# CHECK-NEXT: {{^}}    out[0] = x[0] × 2
# CHECK-NEXT: {{^}}                  ^{{$}}
# CHECK-NOT: {{.}}
