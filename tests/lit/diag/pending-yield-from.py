# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# PENDING (BUGS.txt): 'yield from' is valid Python; kjitc says "invalid syntax:
# unexpected keyword 'from'" instead of the generator message.
def kernel(x):
    yield from range(x)

# CHECK: {{^}}{{.*}}pending-yield-from.py:5:5: error: generators ('yield') are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}pending-yield-from.py", line 5
# CHECK-NEXT: {{^}}    yield from range(x)
# CHECK-NEXT: {{^}}    ^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
