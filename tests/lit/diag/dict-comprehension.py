# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    index = {v: i for i, v in enumerate(x)}
    return index

# CHECK: {{^}}{{.*}}dict-comprehension.py:3:13: error: dict comprehensions are not supported in kernels; write a loop
# CHECK-NEXT: {{^}}  File "{{.*}}dict-comprehension.py", line 3
# CHECK-NEXT: {{^}}    index = {v: i for i, v in enumerate(x)}
# CHECK-NEXT: {{^}}            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
