# RUN: %kjitc --emit=ir %s:tuples --sig="(int32, float32)" | FileCheck --strict-whitespace %s
# Tuples: building one, unpacking it into names, constant (and negative
# constant) indices, len(), concatenation, and returning nested tuples.


def tuples(a, b):
    t = (a, b, 1.5)
    p, q, r = t
    u = t[0] + t[-1]
    n = len(t)
    c = (a, b) + (n,)
    return (u, p), q, c

# CHECK:      {{^}}def tuples(a: int32, b: float32) -> Tuple(Tuple(float64, int32), float32, Tuple(int32, float32, int64)){{$}}
# CHECK-NEXT: {{^}}  t: Tuple(int32, float32, float64) = (tuple a b 1.5){{$}}
# CHECK-NEXT: {{^}}  [[T0:\$t[0-9]+]]: Tuple(int32, float32, float64) = t{{$}}
# CHECK-NEXT: {{^}}  p: int32 = [[T0]][0]{{$}}
# CHECK-NEXT: {{^}}  q: float32 = [[T0]][1]{{$}}
# CHECK-NEXT: {{^}}  r: float64 = [[T0]][2]{{$}}
# CHECK-NEXT: {{^}}  u: float64 = (+ (float64 t[0]) t[2]){{$}}
# CHECK-NEXT: {{^}}  n: int64 = 3{{$}}
# CHECK-NEXT: {{^}}  c: Tuple(int32, float32, int64) = (tuple a b n){{$}}
# CHECK-NEXT: {{^}}  return (tuple (tuple u p) q c){{$}}
# CHECK-NOT: {{.}}
