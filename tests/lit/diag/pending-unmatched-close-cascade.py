# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# PENDING (BUGS.txt): after "unmatched ')'", the parser's "expected end of
# line, found ')'" at the same place is noise.
def kernel(x, out):
    out[0] = x[0] + x[1])
    return out

# CHECK: {{^}}{{.*}}pending-unmatched-close-cascade.py:5:25: error: unmatched ')'
# CHECK-NEXT: {{^}}  File "{{.*}}pending-unmatched-close-cascade.py", line 5
# CHECK-NEXT: {{^}}    out[0] = x[0] + x[1])
# CHECK-NEXT: {{^}}                        ^{{$}}
# CHECK-NOT: {{.}}
