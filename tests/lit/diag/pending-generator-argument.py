# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# PENDING (BUGS.txt): a generator expression as the sole call argument gets a
# shorter message than elsewhere (no "; write a loop") and a caret range that
# takes in the call's ')' but not its '('. Underline the generator expression.
def kernel(x):
    return sum(v * v for v in x)

# CHECK: {{^}}{{.*}}pending-generator-argument.py:6:16: error: generator expressions are not supported in kernels; write a loop
# CHECK-NEXT: {{^}}  File "{{.*}}pending-generator-argument.py", line 6
# CHECK-NEXT: {{^}}    return sum(v * v for v in x)
# CHECK-NEXT: {{^}}               ^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
