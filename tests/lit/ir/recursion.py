# RUN: %kjitc --emit=ir %s:fact --sig="(int64,)" | FileCheck --strict-whitespace %s
# Recursion without a signature, as Numba types it: the return type comes
# from the returns that do not recurse (1, an int64; 0.5, a float64), and
# the recursive calls have it. Mutual recursion (even/odd) too.


def fact(n):
    if n <= 1:
        return 1
    if n == 7:
        return 0.5
    return n * fact(n - 1) + is_even(n)


def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)

# CHECK:      {{^}}def is_odd(n: int64) -> bool{{$}}
# CHECK-NEXT: {{^}}  if (== n 0):{{$}}
# CHECK-NEXT: {{^}}    return False{{$}}
# CHECK-NEXT: {{^}}  return (call is_even (- n 1)) : bool{{$}}
# CHECK-NEXT: {{^}}def is_even(n: int64) -> bool{{$}}
# CHECK-NEXT: {{^}}  if (== n 0):{{$}}
# CHECK-NEXT: {{^}}    return True{{$}}
# CHECK-NEXT: {{^}}  return (call is_odd (- n 1)) : bool{{$}}
# CHECK-NEXT: {{^}}def fact(n: int64) -> float64{{$}}
# CHECK-NEXT: {{^}}  if (<= n 1):{{$}}
# CHECK-NEXT: {{^}}    return 1{{$}}
# CHECK-NEXT: {{^}}  if (== n 7):{{$}}
# CHECK-NEXT: {{^}}    return 0.5{{$}}
# CHECK-NEXT: {{^}}  return (+ (* (float64 n) (call fact (- n 1)) : float64) (float64 (call is_even n) : bool)){{$}}
# CHECK-NOT: {{.}}
