# RUN: %kjitc --emit=ir %s:slices --sig="(float32[:, ::1], int16[::1], float64[:])" | FileCheck --strict-whitespace %s
# Integer indices and slices make views. The layout of the view follows
# Numba: a C array stays C when it is indexed by leading integers and at most
# one step-less slice, the last index given (a[1], a[1:3], a[1, 2:]); a step,
# or a slice before another index, gives A; an A array stays A.


def slices(a, b, c):
    r = a[1]
    d = a[1:3]
    e = a[::2]
    s = a[:, 1]
    f = b[2:]
    g = b[1:-1:2]
    h = c[:5]
    k = a[1, 2:]
    return r, d, e, s, f, g, h, k

# CHECK:      {{^}}def slices(a: array(float32, 2d, C), b: array(int16, 1d, C), c: array(float64, 1d, A)) -> Tuple(array(float32, 1d, C), array(float32, 2d, C), array(float32, 2d, A), array(float32, 1d, A), array(int16, 1d, C), array(int16, 1d, A), array(float64, 1d, A), array(float32, 1d, C)){{$}}
# CHECK-NEXT: {{^}}  r: array(float32, 1d, C) = (view a 1) : array(float32, 1d, C){{$}}
# CHECK-NEXT: {{^}}  d: array(float32, 2d, C) = (view a 1:3:) : array(float32, 2d, C){{$}}
# CHECK-NEXT: {{^}}  e: array(float32, 2d, A) = (view a ::2) : array(float32, 2d, A){{$}}
# CHECK-NEXT: {{^}}  s: array(float32, 1d, A) = (view a :: 1) : array(float32, 1d, A){{$}}
# CHECK-NEXT: {{^}}  f: array(int16, 1d, C) = (view b 2::) : array(int16, 1d, C){{$}}
# CHECK-NEXT: {{^}}  g: array(int16, 1d, A) = (view b 1:-1:2) : array(int16, 1d, A){{$}}
# CHECK-NEXT: {{^}}  h: array(float64, 1d, A) = (view c :5:) : array(float64, 1d, A){{$}}
# CHECK-NEXT: {{^}}  k: array(float32, 1d, C) = (view a 1 2::) : array(float32, 1d, C){{$}}
# CHECK-NEXT: {{^}}  return (tuple r d e s f g h k){{$}}
# CHECK-NOT: {{.}}
