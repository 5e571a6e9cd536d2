# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# PENDING (BUGS.txt): after the lexer's mismatch error and its note, the
# parser's "expected ')', found ']'" at the same place is noise.
def kernel(x, out):
    out[0] = (x[0] + x[1]]
    return out

# CHECK: {{^}}{{.*}}pending-mismatched-bracket-cascade.py:5:26: error: closing parenthesis ']' does not match opening parenthesis '(' on line 5
# CHECK-NEXT: {{^}}  File "{{.*}}pending-mismatched-bracket-cascade.py", line 5
# CHECK-NEXT: {{^}}    out[0] = (x[0] + x[1]]
# CHECK-NEXT: {{^}}                         ^{{$}}
# CHECK-NEXT: {{^}}{{.*}}pending-mismatched-bracket-cascade.py:5:14: note: '(' opened here, expected ')'
# CHECK-NEXT: {{^}}  File "{{.*}}pending-mismatched-bracket-cascade.py", line 5
# CHECK-NEXT: {{^}}    out[0] = (x[0] + x[1]]
# CHECK-NEXT: {{^}}             ^{{$}}
# CHECK-NOT: {{.}}
