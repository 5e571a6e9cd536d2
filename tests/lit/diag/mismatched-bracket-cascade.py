# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# After the lexer's mismatch error and its note, the parser reports nothing
# more about the ']' (it used to add "expected ')', found ']'").
def kernel(x, out):
    out[0] = (x[0] + x[1]]
    return out

# CHECK: {{^}}{{.*}}mismatched-bracket-cascade.py:5:26: error: closing parenthesis ']' does not match opening parenthesis '(' on line 5
# CHECK-NEXT: {{^}}  File "{{.*}}mismatched-bracket-cascade.py", line 5
# CHECK-NEXT: {{^}}    out[0] = (x[0] + x[1]]
# CHECK-NEXT: {{^}}                         ^{{$}}
# CHECK-NEXT: {{^}}{{.*}}mismatched-bracket-cascade.py:5:14: note: '(' opened here, expected ')'
# CHECK-NEXT: {{^}}  File "{{.*}}mismatched-bracket-cascade.py", line 5
# CHECK-NEXT: {{^}}    out[0] = (x[0] + x[1]]
# CHECK-NEXT: {{^}}             ^{{$}}
# CHECK-NOT: {{.}}
