# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, out):
    for i in range(x.shape[0])
        out[i] = x[i]

# CHECK: {{^}}{{.*}}missing-colon.py:3:31: error: expected ':', found end of line
# CHECK-NEXT: {{^}}  File "{{.*}}missing-colon.py", line 3
# CHECK-NEXT: {{^}}    for i in range(x.shape[0])
# CHECK-NEXT: {{^}}                              ^{{$}}
# CHECK-NOT: {{.}}
