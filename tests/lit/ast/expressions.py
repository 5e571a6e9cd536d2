# RUN: %kjitc --emit=ast %s:operators | FileCheck --strict-whitespace --match-full-lines %s
# RUN: %kjitc --emit=ast %s:primaries | FileCheck --strict-whitespace --match-full-lines --check-prefix=PRIM %s
# RUN: %kjitc --emit=ast %s:displays | FileCheck --strict-whitespace --match-full-lines --check-prefix=DISP %s
# Every expression form: operators, calls, attributes, subscripts and slices,
# tuples, lists, lambdas (a def before their statement) and conditional expressions.
from kjit import cuda


@cuda.jit
def operators(a, b, m):
    r = a + b
    r = a - b
    r = a * b
    r = a / b
    r = a // b
    r = a % b
    r = a ** b
    r = m @ m
    r = a << b
    r = a >> b
    r = a & b
    r = a | b
    r = a ^ b
    r = -a
    r = +a
    r = ~a
    r = not a
    r = a and b
    r = a or b
    r = a < b
    r = a > b
    r = a <= b
    r = a >= b
    r = a == b
    r = a != b
    r = a is b
    r = a is not b
    r = a in m
    r = a not in m
    r = a if b else m


@cuda.jit
def primaries(x, out, n):
    tx = cuda.threadIdx.x
    bx = cuda.blockIdx.x
    i = tx + bx * cuda.blockDim.x
    s = cuda.shared.array(shape=(32, 32), dtype=float32)
    cuda.atomic.add(out, 0, x[i])
    cuda.syncthreads()
    v = x.shape[0]
    f = math.fma(x[i], 2.0, out[i])
    print("value", v, sep=", ", end="\n")
    y = x[i, 0]
    y = x[i][0]
    y = x[1:n:2]
    y = x[:, ::1]
    y = x[::-1]
    y = x[:]
    y = x[::]
    y = x[1:]
    y = x[:n]
    y = x[i:i + 4, 0]
    y = x[..., 0]
    y = x[i,]
    y = x[()]
    y = x[(i, 0)]
    z = f(x)(n)[0].real
    z = (x + out).sum()


def displays(a, b):
    t = ()
    t = (a,)
    t = a,
    t = a, b
    t = (a, b)
    t = (a, b,)
    t = ((a, b), (b, a))
    l = []
    l = [a]
    l = [a, b,]
    l = [[a], [b, (a, b)]]
    g = (a)
    g = ((a))
    f = lambda: 0
    f = lambda v: v * 2
    f = lambda v, w=1.5: v + w
    f = lambda v: lambda w: v * w
    c = a if b else -a
    c = (a if b else b) if a else None

# CHECK:def operators(a, b, m) <10:1>
# CHECK-NEXT:  decorator (. cuda jit)
# CHECK-NEXT:  assign <11:5> r = (+ a b)
# CHECK-NEXT:  assign <12:5> r = (- a b)
# CHECK-NEXT:  assign <13:5> r = (* a b)
# CHECK-NEXT:  assign <14:5> r = (/ a b)
# CHECK-NEXT:  assign <15:5> r = (// a b)
# CHECK-NEXT:  assign <16:5> r = (% a b)
# CHECK-NEXT:  assign <17:5> r = (** a b)
# CHECK-NEXT:  assign <18:5> r = (@ m m)
# CHECK-NEXT:  assign <19:5> r = (<< a b)
# CHECK-NEXT:  assign <20:5> r = (>> a b)
# CHECK-NEXT:  assign <21:5> r = (& a b)
# CHECK-NEXT:  assign <22:5> r = (| a b)
# CHECK-NEXT:  assign <23:5> r = (^ a b)
# CHECK-NEXT:  assign <24:5> r = (u- a)
# CHECK-NEXT:  assign <25:5> r = (u+ a)
# CHECK-NEXT:  assign <26:5> r = (~ a)
# CHECK-NEXT:  assign <27:5> r = (not a)
# CHECK-NEXT:  assign <28:5> r = (and a b)
# CHECK-NEXT:  assign <29:5> r = (or a b)
# CHECK-NEXT:  assign <30:5> r = (< a b)
# CHECK-NEXT:  assign <31:5> r = (> a b)
# CHECK-NEXT:  assign <32:5> r = (<= a b)
# CHECK-NEXT:  assign <33:5> r = (>= a b)
# CHECK-NEXT:  assign <34:5> r = (== a b)
# CHECK-NEXT:  assign <35:5> r = (!= a b)
# CHECK-NEXT:  assign <36:5> r = (is a b)
# CHECK-NEXT:  assign <37:5> r = (is not a b)
# CHECK-NEXT:  assign <38:5> r = (in a m)
# CHECK-NEXT:  assign <39:5> r = (not in a m)
# CHECK-NEXT:  assign <40:5> r = (if b a m)
# CHECK-NOT:{{.}}

# PRIM:def primaries(x, out, n) <44:1>
# PRIM-NEXT:  decorator (. cuda jit)
# PRIM-NEXT:  assign <45:5> tx = (. (. cuda threadIdx) x)
# PRIM-NEXT:  assign <46:5> bx = (. (. cuda blockIdx) x)
# PRIM-NEXT:  assign <47:5> i = (+ tx (* bx (. (. cuda blockDim) x)))
# PRIM-NEXT:  assign <48:5> s = (call (. (. cuda shared) array) (kw shape (tuple 32 32)) (kw dtype float32))
# PRIM-NEXT:  expr <49:5> (call (. (. cuda atomic) add) out 0 (index x i))
# PRIM-NEXT:  expr <50:5> (call (. cuda syncthreads))
# PRIM-NEXT:  assign <51:5> v = (index (. x shape) 0)
# PRIM-NEXT:  assign <52:5> f = (call (. math fma) (index x i) (float 2) (index out i))
# PRIM-NEXT:  expr <53:5> (call print "value" v (kw sep ", ") (kw end "\n"))
# PRIM-NEXT:  assign <54:5> y = (index x (tuple i 0))
# PRIM-NEXT:  assign <55:5> y = (index (index x i) 0)
# PRIM-NEXT:  assign <56:5> y = (index x (slice 1 n 2))
# PRIM-NEXT:  assign <57:5> y = (index x (tuple (slice _ _ _) (slice _ _ 1)))
# PRIM-NEXT:  assign <58:5> y = (index x (slice _ _ (u- 1)))
# PRIM-NEXT:  assign <59:5> y = (index x (slice _ _ _))
# PRIM-NEXT:  assign <60:5> y = (index x (slice _ _ _))
# PRIM-NEXT:  assign <61:5> y = (index x (slice 1 _ _))
# PRIM-NEXT:  assign <62:5> y = (index x (slice _ n _))
# PRIM-NEXT:  assign <63:5> y = (index x (tuple (slice i (+ i 4) _) 0))
# PRIM-NEXT:  assign <64:5> y = (index x (tuple ... 0))
# PRIM-NEXT:  assign <65:5> y = (index x (tuple i))
# PRIM-NEXT:  assign <66:5> y = (index x (tuple))
# PRIM-NEXT:  assign <67:5> y = (index x (tuple i 0))
# PRIM-NEXT:  assign <68:5> z = (. (index (call (call f x) n) 0) real)
# PRIM-NEXT:  assign <69:5> z = (call (. (+ x out) sum))
# PRIM-NOT:{{.}}

# DISP:def displays(a, b) <72:1>
# DISP-NEXT:  assign <73:5> t = (tuple)
# DISP-NEXT:  assign <74:5> t = (tuple a)
# DISP-NEXT:  assign <75:5> t = (tuple a)
# DISP-NEXT:  assign <76:5> t = (tuple a b)
# DISP-NEXT:  assign <77:5> t = (tuple a b)
# DISP-NEXT:  assign <78:5> t = (tuple a b)
# DISP-NEXT:  assign <79:5> t = (tuple (tuple a b) (tuple b a))
# DISP-NEXT:  assign <80:5> l = (list)
# DISP-NEXT:  assign <81:5> l = (list a)
# DISP-NEXT:  assign <82:5> l = (list a b)
# DISP-NEXT:  assign <83:5> l = (list (list a) (list b (tuple a b)))
# DISP-NEXT:  assign <84:5> g = a
# DISP-NEXT:  assign <85:5> g = a
# DISP-NEXT:  def f() <86:9>
# DISP-NEXT:    return <86:17> 0
# DISP-NEXT:  def f(v) <87:9>
# DISP-NEXT:    return <87:19> (* v 2)
# DISP-NEXT:  def f(v, w=(float 1.5)) <88:9>
# DISP-NEXT:    return <88:26> (+ v w)
# DISP-NEXT:  def f(v) <89:9>
# DISP-NEXT:    def $lambda4(w) <89:19>
# DISP-NEXT:      return <89:29> (* v w)
# DISP-NEXT:    return <89:19> $lambda4
# DISP-NEXT:  assign <90:5> c = (if b a (u- a))
# DISP-NEXT:  assign <91:5> c = (if a (if b a b) None)
# DISP-NOT:{{.}}
