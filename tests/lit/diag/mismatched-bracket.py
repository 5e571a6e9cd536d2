# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# That nothing follows this error is checked in mismatched-bracket-cascade.py.
def kernel(x, out):
    out[0] = (x[0] + x[1]]
    return out

# CHECK: {{^}}{{.*}}mismatched-bracket.py:4:26: error: closing parenthesis ']' does not match opening parenthesis '(' on line 4
# CHECK-NEXT: {{^}}  File "{{.*}}mismatched-bracket.py", line 4
# CHECK-NEXT: {{^}}    out[0] = (x[0] + x[1]]
# CHECK-NEXT: {{^}}                         ^{{$}}
# CHECK-NEXT: {{^}}{{.*}}mismatched-bracket.py:4:14: note: '(' opened here, expected ')'
# CHECK-NEXT: {{^}}  File "{{.*}}mismatched-bracket.py", line 4
# CHECK-NEXT: {{^}}    out[0] = (x[0] + x[1]]
# CHECK-NEXT: {{^}}             ^{{$}}
