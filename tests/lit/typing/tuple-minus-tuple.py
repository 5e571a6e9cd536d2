# RUN: not %kjitc --emit=ir %s:f --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# Tuples support + (concatenation) but not -.


def f(x):
    return (x, 1) - (1, x)

# CHECK:      {{^}}{{.*}}tuple-minus-tuple.py:6:12: error: unsupported operand types for -: UniTuple(int64 x 2) and UniTuple(int64 x 2){{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}tuple-minus-tuple.py", line 6{{$}}
# CHECK-NEXT: {{^}}    return (x, 1) - (1, x){{$}}
# CHECK-NEXT: {{^}}           ^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
