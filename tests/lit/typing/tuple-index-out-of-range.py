# RUN: not %kjitc --emit=ir %s:f --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# A constant tuple index past the end.


def f(x):
    t = (x, 2)
    return t[2]

# CHECK:      {{^}}{{.*}}tuple-index-out-of-range.py:7:14: error: tuple index 2 out of range for UniTuple(int64 x 2){{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}tuple-index-out-of-range.py", line 7{{$}}
# CHECK-NEXT: {{^}}    return t[2]{{$}}
# CHECK-NEXT: {{^}}             ^{{$}}
# CHECK-NOT: {{.}}
