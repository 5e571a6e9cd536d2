# RUN: %kjitc --emit=ir %s:f --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace --check-prefix=ONCE %s
# RUN: not %kjitc --emit=ir %s:g --sig="(int64, boolean)" 2>&1 | FileCheck --strict-whitespace --check-prefix=TWICE %s
# A dtype is a compile-time value. A variable assigned one once names it (as
# in Numba, where it is a literal); assigned two, it would need a run-time
# value, which a dtype has not.


import numpy as np


def f(n):
    d = np.float32
    return np.zeros(n, d)


def g(n, wide):
    d = np.float32
    if wide:
        d = np.float64
    return np.zeros(n, d)

# ONCE:      {{^}}def f(n: int64) -> array(float32, 1d, C){{$}}
# ONCE-NEXT: {{^}}  return (fill (alloc n) : array(float32, 1d, C) 0f) : array(float32, 1d, C){{$}}

# TWICE:      {{^}}{{.*}}dtype-in-variable.py:17:5: error: cannot assign dtype(float32) to variable 'd': it has no run-time value; use it directly where it is needed{{$}}
