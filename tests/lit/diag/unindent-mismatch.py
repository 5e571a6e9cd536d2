# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, out):
    if x[0] > 0:
        out[0] = 1
      out[1] = 2

# CHECK: {{^}}{{.*}}unindent-mismatch.py:5:7: error: unindent does not match any outer indentation level
# CHECK-NEXT: {{^}}  File "{{.*}}unindent-mismatch.py", line 5
# CHECK-NEXT: {{^}}    out[1] = 2
# CHECK-NEXT: {{^}}    ^{{$}}
# CHECK-NOT: {{.}}
