# RUN: %kjitc --emit=ast %s:control | FileCheck --strict-whitespace --match-full-lines %s
# RUN: %kjitc --emit=ast %s:assignments | FileCheck --strict-whitespace --match-full-lines --check-prefix=ASSIGN %s
# RUN: %kjitc --emit=ast %s:simple | FileCheck --strict-whitespace --match-full-lines --check-prefix=SIMPLE %s
# RUN: %kjitc --emit=ast %s:returns | FileCheck --strict-whitespace --match-full-lines --check-prefix=RET %s
# Every statement form of the kernel subset.
import math
from kjit import cuda


@cuda.jit
def control(x, out, n):
    i = cuda.grid(1)
    if i >= n:
        return
    elif x[i] < 0:
        out[i] = 0
    elif x[i] > 1:
        out[i] = 1
    else:
        out[i] = x[i]
    if i == 0:
        pass
    else:
        if n > 1:
            out[0] = 2
    acc = 0.0
    k = 0
    while k < n:
        k += 1
        if x[k] != x[k]:
            continue
        if acc > 1e6:
            break
        acc += x[k]
    else:
        out[i] = acc
    for j in range(0, n, 2):
        acc -= x[j]
    for a, b in ((0, 1), (2, 3)):
        out[a] += b
    for row in x:
        for v, in row:
            pass
    for p, (q, r) in enumerate(zip(x, out)):
        continue
    else:
        pass
    while True: break


@cuda.jit
def assignments(a, b, c):
    x = 0
    x = y = z = 0
    a, b = b, a
    (a, b) = (b, a)
    [a, b] = c
    a, (b, c) = c
    a[0] = b[1] = 0
    a.real = 1
    a.shape[0] = 3
    t = ()
    u = 1,
    v: float
    w: float = 0.5
    c[0]: int = 1
    a.imag: float = 2.0
    y = x; z = y;


def simple(x, n):
    assert n > 0
    assert n % 32 == 0, "n must be a multiple of the warp size"
    if n > 1024: raise ValueError("n is too large")
    if x is None:
        raise
    x[0]
    cuda.syncthreads()
    "a string statement"
    ...
    if n: x[0] = 1; x[1] = 2
    else: pass
    while n: n -= 1
    for i in range(n): continue


def returns(x, flag):
    if flag == 0:
        return
    if flag == 1:
        return x
    if flag == 2:
        return x, flag
    if flag == 3:
        return (x, flag)
    if flag == 4:
        return x,
    return ()

# CHECK:def control(x, out, n) <11:1>
# CHECK-NEXT:  decorator (. cuda jit)
# CHECK-NEXT:  assign <12:5> i = (call (. cuda grid) 1)
# CHECK-NEXT:  if <13:5> (>= i n)
# CHECK-NEXT:    return <14:9>
# CHECK-NEXT:  elif <15:5> (< (index x i) 0)
# CHECK-NEXT:    assign <16:9> (index out i) = 0
# CHECK-NEXT:  elif <17:5> (> (index x i) 1)
# CHECK-NEXT:    assign <18:9> (index out i) = 1
# CHECK-NEXT:  else
# CHECK-NEXT:    assign <20:9> (index out i) = (index x i)
# CHECK-NEXT:  if <21:5> (== i 0)
# CHECK-NEXT:    pass <22:9>
# CHECK-NEXT:  else
# CHECK-NEXT:    if <24:9> (> n 1)
# CHECK-NEXT:      assign <25:13> (index out 0) = 2
# CHECK-NEXT:  assign <26:5> acc = (float 0)
# CHECK-NEXT:  assign <27:5> k = 0
# CHECK-NEXT:  while <28:5> (< k n)
# CHECK-NEXT:    augassign <29:9> k += 1
# CHECK-NEXT:    if <30:9> (!= (index x k) (index x k))
# CHECK-NEXT:      continue <31:13>
# CHECK-NEXT:    if <32:9> (> acc (float 1000000))
# CHECK-NEXT:      break <33:13>
# CHECK-NEXT:    augassign <34:9> acc += (index x k)
# CHECK-NEXT:  else
# CHECK-NEXT:    assign <36:9> (index out i) = acc
# CHECK-NEXT:  for <37:5> j in (call range 0 n 2)
# CHECK-NEXT:    augassign <38:9> acc -= (index x j)
# CHECK-NEXT:  for <39:5> (tuple a b) in (tuple (tuple 0 1) (tuple 2 3))
# CHECK-NEXT:    augassign <40:9> (index out a) += b
# CHECK-NEXT:  for <41:5> row in x
# CHECK-NEXT:    for <42:9> (tuple v) in row
# CHECK-NEXT:      pass <43:13>
# CHECK-NEXT:  for <44:5> (tuple p (tuple q r)) in (call enumerate (call zip x out))
# CHECK-NEXT:    continue <45:9>
# CHECK-NEXT:  else
# CHECK-NEXT:    pass <47:9>
# CHECK-NEXT:  while <48:5> True
# CHECK-NEXT:    break <48:17>
# CHECK-NOT:{{.}}

# ASSIGN:def assignments(a, b, c) <52:1>
# ASSIGN-NEXT:  decorator (. cuda jit)
# ASSIGN-NEXT:  assign <53:5> x = 0
# ASSIGN-NEXT:  assign <54:5> x = y = z = 0
# ASSIGN-NEXT:  assign <55:5> (tuple a b) = (tuple b a)
# ASSIGN-NEXT:  assign <56:5> (tuple a b) = (tuple b a)
# ASSIGN-NEXT:  assign <57:5> (list a b) = c
# ASSIGN-NEXT:  assign <58:5> (tuple a (tuple b c)) = c
# ASSIGN-NEXT:  assign <59:5> (index a 0) = (index b 1) = 0
# ASSIGN-NEXT:  assign <60:5> (. a real) = 1
# ASSIGN-NEXT:  assign <61:5> (index (. a shape) 0) = 3
# ASSIGN-NEXT:  assign <62:5> t = (tuple)
# ASSIGN-NEXT:  assign <63:5> u = (tuple 1)
# ASSIGN-NEXT:  annassign <64:5> v: float
# ASSIGN-NEXT:  annassign <65:5> w: float = (float 0.5)
# ASSIGN-NEXT:  annassign <66:5> (index c 0): int = 1
# ASSIGN-NEXT:  annassign <67:5> (. a imag): float = (float 2)
# ASSIGN-NEXT:  assign <68:5> y = x
# ASSIGN-NEXT:  assign <68:12> z = y
# ASSIGN-NOT:{{.}}

# SIMPLE:def simple(x, n) <71:1>
# SIMPLE-NEXT:  assert <72:5> (> n 0)
# SIMPLE-NEXT:  assert <73:5> (== (% n 32) 0), "n must be a multiple of the warp size"
# SIMPLE-NEXT:  if <74:5> (> n 1024)
# SIMPLE-NEXT:    raise <74:18> (call ValueError "n is too large")
# SIMPLE-NEXT:  if <75:5> (is x None)
# SIMPLE-NEXT:    raise <76:9>
# SIMPLE-NEXT:  expr <77:5> (index x 0)
# SIMPLE-NEXT:  expr <78:5> (call (. cuda syncthreads))
# SIMPLE-NEXT:  expr <79:5> "a string statement"
# SIMPLE-NEXT:  expr <80:5> ...
# SIMPLE-NEXT:  if <81:5> n
# SIMPLE-NEXT:    assign <81:11> (index x 0) = 1
# SIMPLE-NEXT:    assign <81:21> (index x 1) = 2
# SIMPLE-NEXT:  else
# SIMPLE-NEXT:    pass <82:11>
# SIMPLE-NEXT:  while <83:5> n
# SIMPLE-NEXT:    augassign <83:14> n -= 1
# SIMPLE-NEXT:  for <84:5> i in (call range n)
# SIMPLE-NEXT:    continue <84:24>
# SIMPLE-NOT:{{.}}

# RET:def returns(x, flag) <87:1>
# RET-NEXT:  if <88:5> (== flag 0)
# RET-NEXT:    return <89:9>
# RET-NEXT:  if <90:5> (== flag 1)
# RET-NEXT:    return <91:9> x
# RET-NEXT:  if <92:5> (== flag 2)
# RET-NEXT:    return <93:9> (tuple x flag)
# RET-NEXT:  if <94:5> (== flag 3)
# RET-NEXT:    return <95:9> (tuple x flag)
# RET-NEXT:  if <96:5> (== flag 4)
# RET-NEXT:    return <97:9> (tuple x)
# RET-NEXT:  return <98:5> (tuple)
# RET-NOT:{{.}}
