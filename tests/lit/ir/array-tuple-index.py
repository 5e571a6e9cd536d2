# RUN: %kjitc --emit=ir %s:f --sig="(float64[:, :], int64, int64)" | FileCheck --strict-whitespace %s
# An array indexed by a tuple variable of integers (a[gid], gid = cuda.grid(2)
# in a kernel), as Numba: its elements are the indices, in loads, stores and
# augmented assignments.


def f(a, i, j):
    t = (i, j)
    a[t] = a[t] + 1.0
    a[t] += 2.0
    return a[t]

# CHECK:      {{^}}def f(a: array(float64, 2d, A), i: int64, j: int64) -> float64{{$}}
# CHECK-NEXT: {{^}}  t: UniTuple(int64 x 2) = (tuple i j){{$}}
# CHECK-NEXT: {{^}}  (store a t{{\[}}0] t{{\[}}1]) = (+ (load a t{{\[}}0] t{{\[}}1]) 1){{$}}
# CHECK-NEXT: {{^}}  $t0: int64 = t{{\[}}0]{{$}}
# CHECK-NEXT: {{^}}  $t1: int64 = t{{\[}}1]{{$}}
# CHECK-NEXT: {{^}}  (store a $t0 $t1) = (+ (load a $t0 $t1) 2){{$}}
# CHECK-NEXT: {{^}}  return (load a t{{\[}}0] t{{\[}}1]){{$}}
# CHECK-NOT: {{.}}
