# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# That nothing follows this error is checked in unmatched-close-cascade.py.
def kernel(x, out):
    out[0] = x[0] + x[1])
    return out

# CHECK: {{^}}{{.*}}unmatched-close.py:4:25: error: unmatched ')'
# CHECK-NEXT: {{^}}  File "{{.*}}unmatched-close.py", line 4
# CHECK-NEXT: {{^}}    out[0] = x[0] + x[1])
# CHECK-NEXT: {{^}}                        ^{{$}}
