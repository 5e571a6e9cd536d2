# RUN: %kjitc --emit=ir %s:maths --sig="(float32, int64, float64)" | FileCheck --strict-whitespace %s
# math and NumPy functions: a float32 argument computes in float32 (the
# single-precision function), an integer argument is converted to float64;
# two-argument functions promote; math.floor returns an int64.


import math
import numpy as np


def maths(x, n, d):
    a = math.sqrt(x)
    b = math.sin(n)
    c = np.exp(x)
    e = math.atan2(x, x)
    f = math.atan2(x, n)
    g = math.floor(x)
    h = np.tanh(d)
    i = math.log(n, 2)
    j = math.isnan(x)
    return a, b, c, e, f, g, h, i, j

# CHECK:      {{^}}def maths(x: float32, n: int64, d: float64) -> Tuple(float32, float64, float32, float32, float64, int64, float64, float64, bool){{$}}
# CHECK-NEXT: {{^}}  a: float32 = (sqrt x) : float32{{$}}
# CHECK-NEXT: {{^}}  b: float64 = (sin (float64 n)) : float64{{$}}
# CHECK-NEXT: {{^}}  c: float32 = (exp x) : float32{{$}}
# CHECK-NEXT: {{^}}  e: float32 = (atan2 x x) : float32{{$}}
# CHECK-NEXT: {{^}}  f: float64 = (atan2 (float64 x) (float64 n)) : float64{{$}}
# CHECK-NEXT: {{^}}  g: int64 = (int64 (floor x) : float32){{$}}
# CHECK-NEXT: {{^}}  h: float64 = (tanh d) : float64{{$}}
# CHECK-NEXT: {{^}}  i: float64 = (/ (log (float64 n)) : float64 (log 2) : float64){{$}}
# CHECK-NEXT: {{^}}  j: bool = (isnan x) : bool{{$}}
# CHECK-NEXT: {{^}}  return (tuple a b c e f g h i j){{$}}
# CHECK-NOT: {{.}}
