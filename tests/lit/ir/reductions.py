# RUN: %kjitc --emit=ir %s:reduce --sig="(float32[::1], int8[:], bool[:])" | FileCheck --strict-whitespace %s
# Reductions: sum of a float32 array is float32, of an integer or bool array
# int64; min/max keep the dtype; mean of float32 is float32 (the count
# converted to float32).


import numpy as np


def reduce(a, b, c):
    s = a.sum()
    m = np.min(a)
    t = b.sum()
    u = np.max(b)
    v = a.mean()
    w = np.sum(c)
    x = b.min()
    return s, m, t, u, v, w, x

# CHECK:      {{^}}def reduce(a: array(float32, 1d, C), b: array(int8, 1d, A), c: array(bool, 1d, A)) -> Tuple(float32, float32, int64, int8, float32, int64, int8){{$}}
# CHECK-NEXT: {{^}}  s: float32 = (sum a) : float32{{$}}
# CHECK-NEXT: {{^}}  m: float32 = (amin a) : float32{{$}}
# CHECK-NEXT: {{^}}  t: int64 = (sum b) : int64{{$}}
# CHECK-NEXT: {{^}}  u: int8 = (amax b) : int8{{$}}
# CHECK-NEXT: {{^}}  v: float32 = (/ (sum a) : float32 (float32 (* 1 (shape a 0) : int64))){{$}}
# CHECK-NEXT: {{^}}  w: int64 = (sum c) : int64{{$}}
# CHECK-NEXT: {{^}}  x: int8 = (amin b) : int8{{$}}
# CHECK-NEXT: {{^}}  return (tuple s m t u v w x){{$}}
# CHECK-NOT: {{.}}
