# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    value = await x
    return value

# CHECK: {{^}}{{.*}}await.py:3:13: error: 'await' is not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}await.py", line 3
# CHECK-NEXT: {{^}}    value = await x
# CHECK-NEXT: {{^}}            ^^^^^^^{{$}}
# CHECK-NOT: {{.}}
