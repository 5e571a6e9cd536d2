# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    total = lambda *vs: vs[0]
    return total(x[0])

# CHECK: {{^}}{{.*}}lambda-star-args.py:3:20: error: *args parameters are not supported in kernels; list the parameters
# CHECK-NEXT: {{^}}  File "{{.*}}lambda-star-args.py", line 3
# CHECK-NEXT: {{^}}    total = lambda *vs: vs[0]
# CHECK-NEXT: {{^}}                   ^^^{{$}}
# CHECK-NOT: {{.}}
