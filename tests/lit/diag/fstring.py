# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
from kjit import cuda


@cuda.jit
def kernel(x):
    i = cuda.grid(1)
    print(f"x[{i}] = {x[i]}")

# CHECK: {{^}}{{.*}}fstring.py:8:11: error: f-strings are not supported in kernels; pass the values to print() as separate arguments
# CHECK-NEXT: {{^}}  File "{{.*}}fstring.py", line 8
# CHECK-NEXT: {{^}}    print(f"x[{i}] = {x[i]}")
# CHECK-NEXT: {{^}}          ^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
