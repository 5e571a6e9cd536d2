# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# A generator expression that is not a call's only argument (which is read
# as a list comprehension) gets its message, with carets under the
# generator expression.
def kernel(x):
    return sum((v * v for v in x), 0.0)

# CHECK: {{^}}{{.*}}generator-argument.py:6:16: error: generator expressions are not supported in kernels; write a loop
# CHECK-NEXT: {{^}}  File "{{.*}}generator-argument.py", line 6
# CHECK-NEXT: {{^}}    return sum((v * v for v in x), 0.0)
# CHECK-NEXT: {{^}}               ^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
