# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# The parser's follow-up error is not pinned: see pending-unmatched-close-cascade.py.
def kernel(x, out):
    out[0] = x[0] + x[1])
    return out

# CHECK: {{^}}{{.*}}unmatched-close.py:4:25: error: unmatched ')'
# CHECK-NEXT: {{^}}  File "{{.*}}unmatched-close.py", line 4
# CHECK-NEXT: {{^}}    out[0] = x[0] + x[1])
# CHECK-NEXT: {{^}}                        ^{{$}}
