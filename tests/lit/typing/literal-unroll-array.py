# RUN: not %kjitc --emit=ir %s:f --sig="(float64[:],)" 2>&1 | FileCheck --strict-whitespace %s
# literal_unroll() unrolls a tuple; an array is walked by a plain loop.

from numba import literal_unroll


def f(a):
    s = 0.0
    for x in literal_unroll(a):
        s += x
    return s

# CHECK:      {{^}}{{.*}}literal-unroll-array.py:9:29: error: literal_unroll() unrolls a tuple, not array(float64, 1d, A){{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}literal-unroll-array.py", line 9{{$}}
# CHECK-NEXT: {{^}}    for x in literal_unroll(a):{{$}}
# CHECK-NEXT: {{^}}                            ^{{$}}
# CHECK-NOT: {{.}}
