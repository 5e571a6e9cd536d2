# RUN: not %kjitc --emit=ir %s:f --sig="(float64, int64)" 2>&1 | FileCheck --strict-whitespace %s
# Tuples are indexed by constants only (their elements may differ in type).


def f(x, i):
    t = (x, x, x)
    return t[i]

# CHECK:      {{^}}{{.*}}tuple-variable-index.py:7:14: error: a tuple (UniTuple(float64 x 3)) can only be indexed by a constant integer in kernels{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}tuple-variable-index.py", line 7{{$}}
# CHECK-NEXT: {{^}}    return t[i]{{$}}
# CHECK-NEXT: {{^}}             ^{{$}}
# CHECK-NOT: {{.}}
