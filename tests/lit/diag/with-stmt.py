# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
from kjit import cuda


@cuda.jit
def kernel(x, lock):
    with lock:
        x[0] += 1

# CHECK: {{^}}{{.*}}with-stmt.py:7:5: error: 'with' statements are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}with-stmt.py", line 7
# CHECK-NEXT: {{^}}    with lock:
# CHECK-NEXT: {{^}}    ^^^^{{$}}
# CHECK-NOT: {{.}}
