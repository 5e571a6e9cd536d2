# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# A generator expression as a call's sole argument gets the same message as
# elsewhere, with carets under the generator expression (not under the
# call's ')').
def kernel(x):
    return sum(v * v for v in x)

# CHECK: {{^}}{{.*}}generator-argument.py:6:16: error: generator expressions are not supported in kernels; write a loop
# CHECK-NEXT: {{^}}  File "{{.*}}generator-argument.py", line 6
# CHECK-NEXT: {{^}}    return sum(v * v for v in x)
# CHECK-NEXT: {{^}}               ^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
