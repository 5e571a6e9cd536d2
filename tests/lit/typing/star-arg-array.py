# RUN: not %kjitc --emit=ir %s:kernel --sig="(float64[:], float64[:])" 2>&1 | FileCheck --strict-whitespace %s
# f(*t) takes a tuple (its elements become the arguments); an array is refused.
import math


def kernel(x, idx):
    return math.hypot(*idx)

# CHECK: {{^}}{{.*}}star-arg-array.py:7:24: error: '*' argument unpacking in @jit functions takes a tuple, not array(float64, 1d, A)
# CHECK-NEXT: {{^}}  File "{{.*}}star-arg-array.py", line 7
# CHECK-NEXT: {{^}}    return math.hypot(*idx)
# CHECK-NEXT: {{^}}                       ^^^{{$}}
