# RUN: not %kjitc --emit=ir %s:f --sig="(float64,)" 2>&1 | FileCheck --strict-whitespace %s
# A builtin given an argument of a type it does not take: the caret is on
# the argument.


def f(x):
    return abs((x, x))

# CHECK:      {{^}}{{.*}}abs-of-tuple.py:7:16: error: abs() does not accept UniTuple(float64 x 2){{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}abs-of-tuple.py", line 7{{$}}
# CHECK-NEXT: {{^}}    return abs((x, x)){{$}}
# CHECK-NEXT: {{^}}               ^^^^^^{{$}}
# CHECK-NOT: {{.}}
