# RUN: %kjitc --emit=ir %s:driver --sig="(int32, float32, int64)" | FileCheck --strict-whitespace %s
# Calls between kjit functions: each callee is specialised for the argument
# types of the call (square appears once per type combination), callees are
# printed before their callers, and the entry comes last.


def square(v):
    return v * v


def norm2(x, y):
    return square(x) + square(y)


def driver(a, b, c):
    return norm2(a, b) + square(c) + square(a)

# CHECK:      {{^}}def square(v: int32) -> int64{{$}}
# CHECK-NEXT: {{^}}  return (* (int64 v) (int64 v)){{$}}
# CHECK-NEXT: {{^}}def square(v: float32) -> float32{{$}}
# CHECK-NEXT: {{^}}  return (* v v){{$}}
# CHECK-NEXT: {{^}}def norm2(x: int32, y: float32) -> float64{{$}}
# CHECK-NEXT: {{^}}  return (+ (float64 (call square x) : int64) (float64 (call square y) : float32)){{$}}
# CHECK-NEXT: {{^}}def square(v: int64) -> int64{{$}}
# CHECK-NEXT: {{^}}  return (* v v){{$}}
# CHECK-NEXT: {{^}}def driver(a: int32, b: float32, c: int64) -> float64{{$}}
# CHECK-NEXT: {{^}}  return (+ (+ (call norm2 a b) : float64 (float64 (call square c) : int64)) (float64 (call square a) : int64)){{$}}
# CHECK-NOT: {{.}}
