# RUN: %kjitc --emit=ir %s:f --sig="(int32, float64)" | FileCheck --strict-whitespace %s
# for x in literal_unroll(tup): the body once per element, typed for that
# element (x is int32 in the first copy, float64 in the second), in a loop
# of len(tup) iterations so that break and continue keep their meaning.

from numba import literal_unroll


def f(a, b):
    s = 0.0
    for x in literal_unroll((a, b)):
        s += x // 2
    return s

# CHECK:      {{^}}def f(a: int32, b: float64) -> float64{{$}}
# CHECK-NEXT: {{^}}  s: float64 = 0{{$}}
# CHECK-NEXT: {{^}}  $t0: Tuple(int32, float64) = (tuple a b){{$}}
# CHECK-NEXT: {{^}}  for $i1 in range(0, 2, 1):{{$}}
# CHECK-NEXT: {{^}}    if (== $i1 0):{{$}}
# CHECK-NEXT: {{^}}      x$u11.9.0: int32 = $t0{{\[}}0]{{$}}
# CHECK-NEXT: {{^}}      s: float64 = (+ s (float64 (// (int64 x$u11.9.0) 2))){{$}}
# CHECK-NEXT: {{^}}    if (== $i1 1):{{$}}
# CHECK-NEXT: {{^}}      x$u11.9.1: float64 = $t0{{\[}}1]{{$}}
# CHECK-NEXT: {{^}}      s: float64 = (+ s (// x$u11.9.1 2)){{$}}
# CHECK-NEXT: {{^}}  return s{{$}}
# CHECK-NOT: {{.}}
