# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# After "unmatched ')'", the parser reports nothing more about the ')' (it
# used to add "expected end of line, found ')'").
def kernel(x, out):
    out[0] = x[0] + x[1])
    return out

# CHECK: {{^}}{{.*}}unmatched-close-cascade.py:5:25: error: unmatched ')'
# CHECK-NEXT: {{^}}  File "{{.*}}unmatched-close-cascade.py", line 5
# CHECK-NEXT: {{^}}    out[0] = x[0] + x[1])
# CHECK-NEXT: {{^}}                        ^{{$}}
# CHECK-NOT: {{.}}
