# RUN: %kjitc --emit=ir %s:iterate --sig="(float64[:], float32[:, ::1])" | FileCheck --strict-whitespace %s
# Iterating over an array walks its first dimension: elements of a 1d array
# (loaded without wraparound: the index is known non-negative), rows (views)
# of a 2d one. The array is evaluated once into a temporary.


def iterate(a, m):
    s = 0.0
    for x in a:
        s += x
    for row in m:
        s += row[0]
    return s

# CHECK:      {{^}}def iterate(a: array(float64, 1d, A), m: array(float32, 2d, C)) -> float64{{$}}
# CHECK-NEXT: {{^}}  s: float64 = 0{{$}}
# CHECK-NEXT: {{^}}  [[T0:\$t[0-9]+]]: array(float64, 1d, A) = a{{$}}
# CHECK-NEXT: {{^}}  for [[I1:\$i[0-9]+]] in range(0, (shape [[T0]] 0) : int64, 1):{{$}}
# CHECK-NEXT: {{^}}    x: float64 = (load.nowrap [[T0]] [[I1]]){{$}}
# CHECK-NEXT: {{^}}    s: float64 = (+ s x){{$}}
# CHECK-NEXT: {{^}}  [[T2:\$t[0-9]+]]: array(float32, 2d, C) = m{{$}}
# CHECK-NEXT: {{^}}  for [[I3:\$i[0-9]+]] in range(0, (shape [[T2]] 0) : int64, 1):{{$}}
# CHECK-NEXT: {{^}}    row: array(float32, 1d, C) = (view [[T2]] [[I3]]) : array(float32, 1d, C){{$}}
# CHECK-NEXT: {{^}}    s: float64 = (+ s (float64 (load row 0))){{$}}
# CHECK-NEXT: {{^}}  return s{{$}}
# CHECK-NOT: {{.}}
