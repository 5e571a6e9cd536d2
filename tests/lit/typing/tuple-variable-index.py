# RUN: not %kjitc --emit=ir %s:f --sig="(float64, int64)" 2>&1 | FileCheck --strict-whitespace %s
# A tuple is indexed at run time only when its elements share one type.


def f(x, i):
    t = (x, i, x)
    return t[i]

# CHECK:      {{^}}{{.*}}tuple-variable-index.py:7:14: error: a tuple (Tuple(float64, int64, float64)) can only be indexed by a constant integer, or by any integer when its elements share one type{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}tuple-variable-index.py", line 7{{$}}
# CHECK-NEXT: {{^}}    return t[i]{{$}}
# CHECK-NEXT: {{^}}             ^{{$}}
# CHECK-NOT: {{.}}
