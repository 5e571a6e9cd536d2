# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
from kjit import cuda

calls = 0


@cuda.jit
def kernel(x):
    global calls
    calls += 1
    x[0] = calls

# CHECK: {{^}}{{.*}}global.py:9:5: error: 'global' declarations are not supported in kernels; globals are read-only compile-time constants
# CHECK-NEXT: {{^}}  File "{{.*}}global.py", line 9
# CHECK-NEXT: {{^}}    global calls
# CHECK-NEXT: {{^}}    ^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
