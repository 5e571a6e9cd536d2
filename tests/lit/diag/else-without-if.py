# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, out):
    out[0] = x[0]
    else:
        out[0] = 0

# CHECK: {{^}}{{.*}}else-without-if.py:4:5: error: 'else' without a matching 'if'
# CHECK-NEXT: {{^}}  File "{{.*}}else-without-if.py", line 4
# CHECK-NEXT: {{^}}    else:
# CHECK-NEXT: {{^}}    ^^^^{{$}}
# CHECK-NOT: {{.}}
