# RUN: not %kjitc --emit=ast %s:k 2>&1 | FileCheck --strict-whitespace %s
def k(x):
    y = [v * 2 for v in x]
    return y
# CHECK: list-comprehension.py:3:9: error: list comprehensions are not supported in kernels; write a loop
# CHECK-NEXT: {{^}}  File "{{.*}}list-comprehension.py", line 3
# CHECK-NEXT: {{^}}    y = [v * 2 for v in x]
# CHECK-NEXT: {{^}}        ^^^^^^^^^^^^^^^^^^{{$}}
