# RUN: %kjitc --emit=ir %s:alloc --sig="(int64,)" | FileCheck --strict-whitespace %s
# Allocation: np.zeros/np.ones/np.empty with a size or a shape tuple and a
# dtype (positional or keyword; float64 by default), np.arange with integer
# and float arguments. New arrays are C-contiguous.


import numpy as np


def alloc(n):
    a = np.zeros(n)
    b = np.empty((n, 3), dtype=np.float32)
    c = np.arange(n)
    d = np.arange(0.0, 1.0, 0.25)
    e = np.zeros((2, n), np.int32)
    f = np.ones(n, dtype=np.uint8)
    g = np.arange(1, n, 2, dtype=np.float32)
    return a, b, c, d, e, f, g

# CHECK:      {{^}}def alloc(n: int64) -> Tuple(array(float64, 1d, C), array(float32, 2d, C), array(int64, 1d, C), array(float64, 1d, C), array(int32, 2d, C), array(uint8, 1d, C), array(float32, 1d, C)){{$}}
# CHECK-NEXT: {{^}}  a: array(float64, 1d, C) = (fill (alloc n) : array(float64, 1d, C) 0) : array(float64, 1d, C){{$}}
# CHECK-NEXT: {{^}}  b: array(float32, 2d, C) = (alloc n 3) : array(float32, 2d, C){{$}}
# CHECK-NEXT: {{^}}  c: array(int64, 1d, C) = (arange 0 n 1) : array(int64, 1d, C){{$}}
# CHECK-NEXT: {{^}}  d: array(float64, 1d, C) = (arange 0 1 0.25) : array(float64, 1d, C){{$}}
# CHECK-NEXT: {{^}}  e: array(int32, 2d, C) = (fill (alloc 2 n) : array(int32, 2d, C) 0) : array(int32, 2d, C){{$}}
# CHECK-NEXT: {{^}}  f: array(uint8, 1d, C) = (fill (alloc n) : array(uint8, 1d, C) 1u) : array(uint8, 1d, C){{$}}
# CHECK-NEXT: {{^}}  g: array(float32, 1d, C) = (arange 1 n 2) : array(float32, 1d, C){{$}}
# CHECK-NEXT: {{^}}  return (tuple a b c d e f g){{$}}
# CHECK-NOT: {{.}}
