# RUN: not %kjitc --emit=ir %s:f --sig="(float64[:],)" 2>&1 | FileCheck --strict-whitespace %s
# Comparisons take numbers.


def f(a):
    return a < 1

# CHECK:      {{^}}{{.*}}compare-array.py:6:12: error: cannot compare array(float64, 1d, A) and int64{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}compare-array.py", line 6{{$}}
# CHECK-NEXT: {{^}}    return a < 1{{$}}
# CHECK-NEXT: {{^}}           ^^^^^{{$}}
# CHECK-NOT: {{.}}
