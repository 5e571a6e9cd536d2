# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    received = yield x[0]
    return received

# CHECK: {{^}}{{.*}}yield-expression.py:3:16: error: generators ('yield') are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}yield-expression.py", line 3
# CHECK-NEXT: {{^}}    received = yield x[0]
# CHECK-NEXT: {{^}}               ^^^^^{{$}}
# CHECK-NOT: {{.}}
