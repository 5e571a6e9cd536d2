# RUN: %kjitc --emit=ir %s:accumulate --sig="(int64,)" | FileCheck --strict-whitespace --check-prefix=ACC %s
# RUN: %kjitc --emit=ir %s:loopvar --sig="(int64,)" | FileCheck --strict-whitespace --check-prefix=LOOPVAR %s
# RUN: %kjitc --emit=ir %s:returns --sig="(int64,)" | FileCheck --strict-whitespace --check-prefix=RET %s
# Unification across loop iterations: `acc = 0` then `acc += 0.5` makes acc
# a float64 from its first assignment on. A range loop variable that is also
# assigned a float elsewhere iterates on an int64 temporary. Return types
# unify too.


def accumulate(n):
    acc = 0
    for i in range(n):
        acc += 0.5
    return acc


def loopvar(n):
    i = 0.5
    for i in range(n):
        pass
    return i


def returns(n):
    if n > 0:
        return 1
    return 2.5

# ACC:      {{^}}def accumulate(n: int64) -> float64{{$}}
# ACC-NEXT: {{^}}  acc: float64 = 0{{$}}
# ACC-NEXT: {{^}}  for i in range(0, n, 1):{{$}}
# ACC-NEXT: {{^}}    acc: float64 = (+ acc 0.5){{$}}
# ACC-NEXT: {{^}}  return acc{{$}}
# ACC-NOT: {{.}}

# LOOPVAR:      {{^}}def loopvar(n: int64) -> float64{{$}}
# LOOPVAR-NEXT: {{^}}  i: float64 = 0.5{{$}}
# LOOPVAR-NEXT: {{^}}  for [[I0:\$i[0-9]+]] in range(0, n, 1):{{$}}
# LOOPVAR-NEXT: {{^}}    i: float64 = (float64 [[I0]]){{$}}
# LOOPVAR-NEXT: {{^}}  return i{{$}}
# LOOPVAR-NOT: {{.}}

# RET:      {{^}}def returns(n: int64) -> float64{{$}}
# RET-NEXT: {{^}}  if (> n 0):{{$}}
# RET-NEXT: {{^}}    return 1{{$}}
# RET-NEXT: {{^}}  return 2.5{{$}}
# RET-NOT: {{.}}
