# RUN: %kjitc --emit=ir %s:powers --sig="(float32, float64, int32, int64)" | FileCheck --strict-whitespace %s
# `**`: a float to a constant integer power keeps the float's type and uses
# repeated multiplication (powi), as in Numba (float32 ** 2 is float32); an
# integer to a float power, and float to float, call pow in the promoted type;
# integer ** integer is an int64 (ipow).


def powers(x, d, i, k):
    a = x ** 2
    b = d ** -3
    c = i ** d
    e = x ** x
    f = x ** d
    g = i ** 3
    h = k ** k
    return a, b, c, e, f, g, h

# CHECK:      {{^}}def powers(x: float32, d: float64, i: int32, k: int64) -> Tuple(float32, float64, float64, float32, float64, int64, int64){{$}}
# CHECK-NEXT: {{^}}  a: float32 = (powi x 2) : float32{{$}}
# CHECK-NEXT: {{^}}  b: float64 = (powi d -3) : float64{{$}}
# CHECK-NEXT: {{^}}  c: float64 = (pow (float64 i) d) : float64{{$}}
# CHECK-NEXT: {{^}}  e: float32 = (pow x x) : float32{{$}}
# CHECK-NEXT: {{^}}  f: float64 = (pow (float64 x) d) : float64{{$}}
# CHECK-NEXT: {{^}}  g: int64 = (ipow (int64 i) 3) : int64{{$}}
# CHECK-NEXT: {{^}}  h: int64 = (ipow k k) : int64{{$}}
# CHECK-NEXT: {{^}}  return (tuple a b c e f g h){{$}}
# CHECK-NOT: {{.}}
