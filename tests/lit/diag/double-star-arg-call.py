# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, opts):
    return norm(x, **opts)

# CHECK: {{^}}{{.*}}double-star-arg-call.py:3:20: error: '**' argument unpacking is not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}double-star-arg-call.py", line 3
# CHECK-NEXT: {{^}}    return norm(x, **opts)
# CHECK-NEXT: {{^}}                   ^^^^^^{{$}}
# CHECK-NOT: {{.}}
