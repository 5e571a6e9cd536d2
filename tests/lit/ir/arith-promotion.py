# RUN: %kjitc --emit=ir %s:arith --sig="(int32, int32, float32, int64, bool)" | FileCheck --strict-whitespace %s
# Scalar arithmetic follows Numba's rules (docs/types.md): integers compute
# in 64 bits, float32 with int64 is float64, int / int is float64, bools
# compute as int64.


def arith(a, b, x, k, flag):
    s = a + b
    p = x * k
    q = a / b
    t = flag + flag
    u = flag * 3
    v = -flag
    w = a // b
    return s, p, q, t, u, v, w

# CHECK:      {{^}}def arith(a: int32, b: int32, x: float32, k: int64, flag: bool) -> Tuple(int64, float64, float64, int64, int64, int64, int64){{$}}
# CHECK-NEXT: {{^}}  s: int64 = (+ (int64 a) (int64 b)){{$}}
# CHECK-NEXT: {{^}}  p: float64 = (* (float64 x) (float64 k)){{$}}
# CHECK-NEXT: {{^}}  q: float64 = (/ (float64 a) (float64 b)){{$}}
# CHECK-NEXT: {{^}}  t: int64 = (+ (int64 flag) (int64 flag)){{$}}
# CHECK-NEXT: {{^}}  u: int64 = (* (int64 flag) 3){{$}}
# CHECK-NEXT: {{^}}  v: int64 = (neg (int64 flag)){{$}}
# CHECK-NEXT: {{^}}  w: int64 = (// (int64 a) (int64 b)){{$}}
# CHECK-NEXT: {{^}}  return (tuple s p q t u v w){{$}}
# CHECK-NOT: {{.}}
