# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    squares = (v * v for v in x)
    return squares

# CHECK: {{^}}{{.*}}generator-expression.py:3:15: error: generator expressions are not supported in kernels; write a loop
# CHECK-NEXT: {{^}}  File "{{.*}}generator-expression.py", line 3
# CHECK-NEXT: {{^}}    squares = (v * v for v in x)
# CHECK-NEXT: {{^}}              ^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
