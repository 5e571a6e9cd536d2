# RUN: %kjitc --emit=ast --ast-locs %s:axpb | FileCheck --strict-whitespace --match-full-lines %s
# --ast-locs: every expression's start line:column, as in Python's ast
# (lineno, col_offset + 1). A parenthesised tuple starts at its '(';
# another parenthesised expression keeps its own start.
from kjit import cuda


@cuda.jit
def axpb(a, x, b, out):
    i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    out[i, 0] = a * x[i] + (b[i] - 1)
    t = (a, b), [i], -a ** 2, f(a, k=1), x[1:n:2], x[:, ::1], x[::-1]
    s = 'ab' "cd"
    c = a if b else -a
    u = not a < b < i and b
    g = lambda q: q + 1
    w = ((a + b))
    z = (a,)
    e = ()
    v = (a +
         b)
    return out[i], \
        x

# CHECK:def axpb(a, x, b, out) <9:1>
# CHECK-NEXT:  decorator (. cuda@8:2 jit)@8:2
# CHECK-NEXT:  assign <10:5> i@10:5 = (+ (. (. cuda@10:9 threadIdx)@10:9 x)@10:9 (* (. (. cuda@10:28 blockIdx)@10:28 x)@10:28 (. (. cuda@10:46 blockDim)@10:46 x)@10:46)@10:28)@10:9
# CHECK-NEXT:  assign <11:5> (index out@11:5 (tuple i@11:9 0@11:12)@11:9)@11:5 = (+ (* a@11:17 (index x@11:21 i@11:23)@11:21)@11:17 (- (index b@11:29 i@11:31)@11:29 1@11:36)@11:29)@11:17
# CHECK-NEXT:  assign <12:5> t@12:5 = (tuple (tuple a@12:10 b@12:13)@12:9 (list i@12:18)@12:17 (u- (** a@12:23 2@12:28)@12:23)@12:22 (call f@12:31 a@12:33 (kw k 1@12:38))@12:31 (index x@12:42 (slice 1@12:44 n@12:46 2@12:48)@12:44)@12:42 (index x@12:52 (tuple (slice _ _ _)@12:54 (slice _ _ 1@12:59)@12:57)@12:54)@12:52 (index x@12:63 (slice _ _ (u- 1@12:68)@12:67)@12:65)@12:63)@12:9
# CHECK-NEXT:  assign <13:5> s@13:5 = "abcd"@13:9
# CHECK-NEXT:  assign <14:5> c@14:5 = (if b@14:14 a@14:9 (u- a@14:22)@14:21)@14:9
# CHECK-NEXT:  assign <15:5> u@15:5 = (and (not (cmp a@15:13 < b@15:17 < i@15:21)@15:13)@15:9 b@15:27)@15:9
# CHECK-NEXT:  def g(q) <16:9>
# CHECK-NEXT:    return <16:19> (+ q@16:19 1@16:23)@16:19
# CHECK-NEXT:  assign <17:5> w@17:5 = (+ a@17:11 b@17:15)@17:11
# CHECK-NEXT:  assign <18:5> z@18:5 = (tuple a@18:10)@18:9
# CHECK-NEXT:  assign <19:5> e@19:5 = (tuple)@19:9
# CHECK-NEXT:  assign <20:5> v@20:5 = (+ a@20:10 b@21:10)@20:10
# CHECK-NEXT:  return <22:5> (tuple (index out@22:12 i@22:16)@22:12 x@23:9)@22:12
# CHECK-NOT:{{.}}
