# RUN: %kjitc --emit=ir %s:f --sig="(float64[::1], float64[::1])" | FileCheck %s
# An array expression is one loop over its operands' elements, without
# temporaries: `np.sqrt(x * x + y * y)` reads x and y once per element
# (each operand is one parameter of the loop) and allocates only the
# result. Where no operand broadcasts, the loop indexes them plainly.

import numpy as np


def f(x, y):
    return np.sqrt(x * x + y * y)

# CHECK-LABEL: def ufunc_loop(a0: array(float64, 1d, C), a1: array(float64, 1d, C)) -> array(float64, 1d, C)
# CHECK:       out: array(float64, 1d, C) = (alloc n0)
# CHECK:       if (and (== s0_0 1) (== s1_0 1)):
# CHECK-NEXT:    for i0 in range(0, n0, 1):
# CHECK-NEXT:      (store out i0) = (sqrt (+ (* (load a0 i0) (load a0 i0)) (* (load a1 i0) (load a1 i0))))
# CHECK:       else:
# CHECK:         (store out [[I:i0.1]]) = (sqrt (+ (* (load a0 (* [[I]] s0_0)) (load a0 (* [[I]] s0_0))) (* (load a1 (* [[I]] s1_0)) (load a1 (* [[I]] s1_0)))))
# CHECK-LABEL: def f(x: array(float64, 1d, C), y: array(float64, 1d, C)) -> array(float64, 1d, C)
# CHECK-NEXT:    return (call ufunc_loop x y) : array(float64, 1d, C)
# CHECK-NOT:   alloc
