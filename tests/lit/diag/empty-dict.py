# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    counts = {}
    return counts

# CHECK: {{^}}{{.*}}empty-dict.py:3:14: error: dict literals are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}empty-dict.py", line 3
# CHECK-NEXT: {{^}}    counts = {}
# CHECK-NEXT: {{^}}             ^^{{$}}
# CHECK-NOT: {{.}}
