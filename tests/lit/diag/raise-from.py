# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    if x[0] < 0:
        raise ValueError("negative input") from None
    return x[0]

# CHECK: {{^}}{{.*}}raise-from.py:4:44: error: 'raise ... from ...' is not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}raise-from.py", line 4
# CHECK-NEXT: {{^}}    raise ValueError("negative input") from None
# CHECK-NEXT: {{^}}                                       ^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
