# RUN: %kjitc --emit=ir %s:checks --sig="(float64, int64)" | FileCheck --strict-whitespace %s
# assert becomes `if not cond: raise AssertionError(msg)`; raise takes an
# exception class, or a class called with one constant string.


def checks(x, n):
    assert n >= 0, "n must be non-negative"
    assert x
    if n > 10:
        raise ValueError("too big")
    if n == 7:
        raise IndexError
    return x / n

# CHECK:      {{^}}def checks(x: float64, n: int64) -> float64{{$}}
# CHECK-NEXT: {{^}}  if (not (>= n 0)):{{$}}
# CHECK-NEXT: {{^}}    raise AssertionError("n must be non-negative"){{$}}
# CHECK-NEXT: {{^}}  if (not (!= x 0)):{{$}}
# CHECK-NEXT: {{^}}    raise AssertionError(""){{$}}
# CHECK-NEXT: {{^}}  if (> n 10):{{$}}
# CHECK-NEXT: {{^}}    raise ValueError("too big"){{$}}
# CHECK-NEXT: {{^}}  if (== n 7):{{$}}
# CHECK-NEXT: {{^}}    raise IndexError(""){{$}}
# CHECK-NEXT: {{^}}  return (/ x (float64 n)){{$}}
# CHECK-NOT: {{.}}
