# RUN: %kjitc --emit=ir %s:pick --sig="(int64,)" | FileCheck --strict-whitespace --check-prefix=PICK %s
# RUN: %kjitc --emit=ir %s:many --sig="(uint64, int64, int8, uint8, bool, int32)" | FileCheck --strict-whitespace --check-prefix=MANY %s
# RUN: %kjitc --emit=ir %s:split --sig="(int64,)" | FileCheck --strict-whitespace --check-prefix=SPLIT %s
# RUN: %kjitc --emit=ir %s:layouts --sig="(float64[:, ::1], float64[::1, :], int64)" | FileCheck --strict-whitespace --check-prefix=LAYOUT %s
# A variable has one type: the unification of every value assigned to it
# that can reach a common read, whatever branch assigns it. Every assignment
# converts to that type. Assignments no read shares are separate variables
# (x and x.1 in `split`), as in Numba's SSA.


def pick(n):
    if n > 0:
        x = 1
    else:
        x = 2.5
    return x


def many(u, i, i8, u8, b, n):
    if n > 0:
        x = u
        y = i8
        z = b
        t = (1, 2)
        w = 0
    else:
        x = i
        y = u8
        z = n
        t = (1.5, 2)
        w = 1j
    return x, y, z, t, w


def split(n):
    x = n
    r = x + 1
    x = 2.5
    return r, x


def layouts(c, f, n):
    a = c
    if n > 0:
        a = f
    return a

# PICK:      {{^}}def pick(n: int64) -> float64{{$}}
# PICK-NEXT: {{^}}  if (> n 0):{{$}}
# PICK-NEXT: {{^}}    x: float64 = 1{{$}}
# PICK-NEXT: {{^}}  else:{{$}}
# PICK-NEXT: {{^}}    x: float64 = 2.5{{$}}
# PICK-NEXT: {{^}}  return x{{$}}
# PICK-NOT: {{.}}

# MANY:      {{^}}def many(u: uint64, i: int64, i8: int8, u8: uint8, b: bool, n: int32) -> Tuple(float64, int16, int32, Tuple(float64, int64), complex128){{$}}
# MANY-NEXT: {{^}}  if (> (int64 n) 0):{{$}}
# MANY-NEXT: {{^}}    x: float64 = (float64 u){{$}}
# MANY-NEXT: {{^}}    y: int16 = (int16 i8){{$}}
# MANY-NEXT: {{^}}    z: int32 = (int32 b){{$}}
# MANY-NEXT: {{^}}    t: Tuple(float64, int64) = (tuple (float64 1) 2){{$}}
# MANY-NEXT: {{^}}    w: complex128 = (0+0j){{$}}
# MANY-NEXT: {{^}}  else:{{$}}
# MANY-NEXT: {{^}}    x: float64 = (float64 i){{$}}
# MANY-NEXT: {{^}}    y: int16 = (int16 u8){{$}}
# MANY-NEXT: {{^}}    z: int32 = n{{$}}
# MANY-NEXT: {{^}}    t: Tuple(float64, int64) = (tuple 1.5 2){{$}}
# MANY-NEXT: {{^}}    w: complex128 = (0+1j){{$}}
# MANY-NEXT: {{^}}  return (tuple x y z t w){{$}}
# MANY-NOT: {{.}}

# SPLIT:      {{^}}def split(n: int64) -> Tuple(int64, float64){{$}}
# SPLIT-NEXT: {{^}}  x: int64 = n{{$}}
# SPLIT-NEXT: {{^}}  r: int64 = (+ x 1){{$}}
# SPLIT-NEXT: {{^}}  x.1: float64 = 2.5{{$}}
# SPLIT-NEXT: {{^}}  return (tuple r x.1){{$}}
# SPLIT-NOT: {{.}}

# LAYOUT:      {{^}}def layouts(c: array(float64, 2d, C), f: array(float64, 2d, F), n: int64) -> array(float64, 2d, A){{$}}
# LAYOUT-NEXT: {{^}}  a: array(float64, 2d, A) = (array(float64, 2d, A) c){{$}}
# LAYOUT-NEXT: {{^}}  if (> n 0):{{$}}
# LAYOUT-NEXT: {{^}}    a: array(float64, 2d, A) = (array(float64, 2d, A) f){{$}}
# LAYOUT-NEXT: {{^}}  return a{{$}}
# LAYOUT-NOT: {{.}}
