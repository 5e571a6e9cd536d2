# RUN: %kjitc --emit=ir %s:f --sig="(complex64, complex128, int64)" | FileCheck --strict-whitespace %s
# complex ** is one cpow (Numba's: a ** 2 as a * a, else CPython's
# _Py_c_pow), in the promoted complex type; pow() and **= are the same.


def f(a, b, n):
    x = a ** b
    y = a ** n
    z = pow(2.5, a)
    a **= a
    return x, y, z, a

# CHECK:      {{^}}def f(a: complex64, b: complex128, n: int64) -> Tuple(complex128, complex128, complex128, complex64){{$}}
# CHECK-NEXT: {{^}}  x: complex128 = (cpow (complex128 a) b) : complex128{{$}}
# CHECK-NEXT: {{^}}  y: complex128 = (cpow (complex128 a) (complex128 n)) : complex128{{$}}
# CHECK-NEXT: {{^}}  z: complex128 = (cpow (2.5+0j) (complex128 a)) : complex128{{$}}
# CHECK-NEXT: {{^}}  a: complex64 = (cpow a a) : complex64{{$}}
# CHECK-NEXT: {{^}}  return (tuple x y z a){{$}}
# CHECK-NOT: {{.}}
