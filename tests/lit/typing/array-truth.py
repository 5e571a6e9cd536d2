# RUN: not %kjitc --emit=ir %s:f --sig="(float64[:],)" 2>&1 | FileCheck --strict-whitespace %s
# The truth value of an array is ambiguous, as in NumPy.


def f(a):
    if a:
        return 1
    return 0

# CHECK:      {{^}}{{.*}}array-truth.py:6:8: error: the truth value of an array (array(float64, 1d, A)) is ambiguous; use a.any() or a.all(), or compare its size{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}array-truth.py", line 6{{$}}
# CHECK-NEXT: {{^}}    if a:{{$}}
# CHECK-NEXT: {{^}}       ^{{$}}
# CHECK-NOT: {{.}}
