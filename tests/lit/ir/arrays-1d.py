# RUN: %kjitc --emit=ir %s:arr1 --sig="(float64[:], int64)" | FileCheck --strict-whitespace %s
# One-dimensional arrays: element load and store (with wraparound of
# negative indices), a negative constant index, .shape, .size, len(), and an
# augmented assignment to an element (the index evaluated once; a plain
# variable array used as it is).


def arr1(a, i):
    a[i] = a[-1] + 1.0
    a[i + 1] += 2.0
    n = a.shape[0]
    m = a.size
    k = len(a)
    return a[i - 1], n, m, k

# CHECK:      {{^}}def arr1(a: array(float64, 1d, A), i: int64) -> Tuple(float64, int64, int64, int64){{$}}
# CHECK-NEXT: {{^}}  (store a i) = (+ (load a -1) 1){{$}}
# CHECK-NEXT: {{^}}  [[T1:\$t[0-9]+]]: int64 = (+ i 1){{$}}
# CHECK-NEXT: {{^}}  (store a [[T1]]) = (+ (load a [[T1]]) 2){{$}}
# CHECK-NEXT: {{^}}  n: int64 = (shape a 0) : int64{{$}}
# CHECK-NEXT: {{^}}  m: int64 = (* 1 (shape a 0) : int64){{$}}
# CHECK-NEXT: {{^}}  k: int64 = (shape a 0) : int64{{$}}
# CHECK-NEXT: {{^}}  return (tuple (load a (- i 1)) n m k){{$}}
# CHECK-NOT: {{.}}
