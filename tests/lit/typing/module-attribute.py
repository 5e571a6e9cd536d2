# RUN: not %kjitc --emit=ir %s:f --sig="(float64,)" 2>&1 | FileCheck --strict-whitespace %s
# An attribute of math that kernels do not know.


import math


def f(x):
    return math.foo(x)

# CHECK:      {{^}}{{.*}}module-attribute.py:9:12: error: module 'math' has no attribute 'foo' that @jit functions can use{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}module-attribute.py", line 9{{$}}
# CHECK-NEXT: {{^}}    return math.foo(x){{$}}
# CHECK-NEXT: {{^}}           ^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
