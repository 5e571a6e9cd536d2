# RUN: %kjitc --emit=ir %s:arr2 --sig="(float64[:, ::1],)" | FileCheck --strict-whitespace --check-prefix=TWO %s
# RUN: %kjitc --emit=ir %s:arr3 --sig="(int32[:, :, ::1], int16)" | FileCheck --strict-whitespace --check-prefix=THREE %s
# Two- and three-dimensional arrays: one index per dimension, the shape
# tuple, the size as the product of the dimensions, ndim, and a store that
# converts the value to the array's dtype.


def arr2(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j]
    a[0, -1] = s
    return a.shape


def arr3(a, v):
    a[1, 2, 3] = a[0, 0, 0] + v
    a[-1, 0, 1] = v
    return a.size, a.ndim

# TWO:      {{^}}def arr2(a: array(float64, 2d, C)) -> UniTuple(int64 x 2){{$}}
# TWO-NEXT: {{^}}  s: float64 = 0{{$}}
# TWO-NEXT: {{^}}  for i in range(0, (shape a 0) : int64, 1):{{$}}
# TWO-NEXT: {{^}}    for j in range(0, (shape a 1) : int64, 1):{{$}}
# TWO-NEXT: {{^}}      s: float64 = (+ s (load a i j)){{$}}
# TWO-NEXT: {{^}}  (store a 0 -1) = s{{$}}
# TWO-NEXT: {{^}}  return (tuple (shape a 0) : int64 (shape a 1) : int64){{$}}
# TWO-NOT: {{.}}

# THREE:      {{^}}def arr3(a: array(int32, 3d, C), v: int16) -> UniTuple(int64 x 2){{$}}
# THREE-NEXT: {{^}}  (store a 1 2 3) = (int32 (+ (int64 (load a 0 0 0)) (int64 v))){{$}}
# THREE-NEXT: {{^}}  (store a -1 0 1) = (int32 v){{$}}
# THREE-NEXT: {{^}}  return (tuple (* (* (* 1 (shape a 0) : int64) (shape a 1) : int64) (shape a 2) : int64) 3){{$}}
# THREE-NOT: {{.}}
