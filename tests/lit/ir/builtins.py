# RUN: %kjitc --emit=ir %s:builtins_ --sig="(float64, int32, float32)" | FileCheck --strict-whitespace %s
# Builtins: min/max promote their arguments; abs keeps the type; round(x)
# rounds half to even and is an int64, round(x, n) is a float (x itself when
# not finite or when x * 10**n overflows, as Numba's); int() and
# float() convert; divmod makes a tuple.


def builtins_(x, n, f32):
    a = min(n, x)
    b = max(n, 3)
    c = abs(n)
    d = abs(f32)
    e = round(x)
    f = round(x, 2)
    g = int(x)
    h = float(n)
    i = max(f32, n, 1)
    j = divmod(n, 7)
    return a, b, c, d, e, f, g, h, i, j

# CHECK:      {{^}}def builtins_(x: float64, n: int32, f32: float32) -> Tuple(float64, int64, int32, float32, int64, float64, int64, float64, float64, UniTuple(int64 x 2)){{$}}
# CHECK-NEXT: {{^}}  a: float64 = (min (float64 n) x) : float64{{$}}
# CHECK-NEXT: {{^}}  b: int64 = (max (int64 n) 3) : int64{{$}}
# CHECK-NEXT: {{^}}  c: int32 = (abs n) : int32{{$}}
# CHECK-NEXT: {{^}}  d: float32 = (abs f32) : float32{{$}}
# CHECK-NEXT: {{^}}  e: int64 = (int64 (rint x) : float64){{$}}
# CHECK-NEXT: {{^}}  f: float64 = (select (isfinite x) : bool (select (isinf (* (* x (pow 10 2) : float64) 1)) : bool x (/ (/ (rint (* (* x (pow 10 2) : float64) 1)) : float64 1) (pow 10 2) : float64)) x){{$}}
# CHECK-NEXT: {{^}}  g: int64 = (int64 x){{$}}
# CHECK-NEXT: {{^}}  h: float64 = (float64 n){{$}}
# CHECK-NEXT: {{^}}  i: float64 = (max (max (float64 f32) (float64 n)) : float64 1) : float64{{$}}
# CHECK-NEXT: {{^}}  j: UniTuple(int64 x 2) = (tuple (// (int64 n) 7) (% (int64 n) 7)){{$}}
# CHECK-NEXT: {{^}}  return (tuple a b c d e f g h i j){{$}}
# CHECK-NOT: {{.}}
