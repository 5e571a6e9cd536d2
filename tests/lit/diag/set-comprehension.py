# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    seen = {v % 16 for v in x}
    return seen

# CHECK: {{^}}{{.*}}set-comprehension.py:3:12: error: set comprehensions are not supported in kernels; write a loop
# CHECK-NEXT: {{^}}  File "{{.*}}set-comprehension.py", line 3
# CHECK-NEXT: {{^}}    seen = {v % 16 for v in x}
# CHECK-NEXT: {{^}}           ^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
