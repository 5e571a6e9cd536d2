# RUN: not %kjitc --emit=ir %s:f --sig="(float64,)" 2>&1 | FileCheck --strict-whitespace %s
# A math function called with the wrong number of arguments.


import math


def f(x):
    return math.sqrt(1, 2)

# CHECK:      {{^}}{{.*}}wrong-arity.py:9:12: error: math.sqrt() takes 1 argument (2 given){{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}wrong-arity.py", line 9{{$}}
# CHECK-NEXT: {{^}}    return math.sqrt(1, 2){{$}}
# CHECK-NEXT: {{^}}           ^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
