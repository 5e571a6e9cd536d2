# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    tmp = x[0]
    x[0] = x[1]
    x[1] = tmp
    del tmp

# CHECK: {{^}}{{.*}}del.py:6:5: error: 'del' statements are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}del.py", line 6
# CHECK-NEXT: {{^}}    del tmp
# CHECK-NEXT: {{^}}    ^^^^^^^{{$}}
# CHECK-NOT: {{.}}
