# RUN: %kjitc --emit=ast %s:prec | FileCheck --strict-whitespace --match-full-lines %s
# Precedence and associativity, checked against Python's own grammar.
def prec(a, b, c, d, x):
    r = 2 ** 3 ** 2
    r = -x ** 2
    r = 2 ** -1
    r = (-2) ** 2
    r = -2 ** -x ** -1
    r = ~x ** 2
    r = a ** b * c
    r = a * b ** c
    r = x.real ** 2
    r = - - x
    r = -+~x
    r = a - b - c
    r = a - (b - c)
    r = a / b * c // d % a
    r = a + b * c
    r = (a + b) * c
    r = a + b @ c
    r = a << b + c
    r = a + b >> c - d
    r = a << b << c
    r = a & b << c
    r = a | b ^ c & d
    r = a & b ^ c | d
    r = a ^ b ^ c
    r = a | b == c
    r = a == b | c
    r = not a == b
    r = not a and b
    r = not not a
    r = a or b and c
    r = a and b or c and d
    r = a or b or c
    r = a and b and c
    r = a and not b or c
    r = a < b <= c
    r = a < b == c != d
    r = a is not b is c
    r = a not in b in c
    r = not a in b
    r = a < b and b < c
    r = -a < b + c
    r = a if b else c if d else x
    r = (a if b else c) if d else x
    r = a if (b if c else d) else x
    r = a or b if c and d else not x
    r = lambda: a if b else c
    r = lambda v: v or a and b
    r = a if b else lambda: c
    r = a, b if c else d
    r = (a, b) if c else d

# CHECK:def prec(a, b, c, d, x) <3:1>
# CHECK-NEXT:  assign <4:5> r = (** 2 (** 3 2))
# CHECK-NEXT:  assign <5:5> r = (u- (** x 2))
# CHECK-NEXT:  assign <6:5> r = (** 2 (u- 1))
# CHECK-NEXT:  assign <7:5> r = (** (u- 2) 2)
# CHECK-NEXT:  assign <8:5> r = (u- (** 2 (u- (** x (u- 1)))))
# CHECK-NEXT:  assign <9:5> r = (~ (** x 2))
# CHECK-NEXT:  assign <10:5> r = (* (** a b) c)
# CHECK-NEXT:  assign <11:5> r = (* a (** b c))
# CHECK-NEXT:  assign <12:5> r = (** (. x real) 2)
# CHECK-NEXT:  assign <13:5> r = (u- (u- x))
# CHECK-NEXT:  assign <14:5> r = (u- (u+ (~ x)))
# CHECK-NEXT:  assign <15:5> r = (- (- a b) c)
# CHECK-NEXT:  assign <16:5> r = (- a (- b c))
# CHECK-NEXT:  assign <17:5> r = (% (// (* (/ a b) c) d) a)
# CHECK-NEXT:  assign <18:5> r = (+ a (* b c))
# CHECK-NEXT:  assign <19:5> r = (* (+ a b) c)
# CHECK-NEXT:  assign <20:5> r = (+ a (@ b c))
# CHECK-NEXT:  assign <21:5> r = (<< a (+ b c))
# CHECK-NEXT:  assign <22:5> r = (>> (+ a b) (- c d))
# CHECK-NEXT:  assign <23:5> r = (<< (<< a b) c)
# CHECK-NEXT:  assign <24:5> r = (& a (<< b c))
# CHECK-NEXT:  assign <25:5> r = (| a (^ b (& c d)))
# CHECK-NEXT:  assign <26:5> r = (| (^ (& a b) c) d)
# CHECK-NEXT:  assign <27:5> r = (^ (^ a b) c)
# CHECK-NEXT:  assign <28:5> r = (== (| a b) c)
# CHECK-NEXT:  assign <29:5> r = (== a (| b c))
# CHECK-NEXT:  assign <30:5> r = (not (== a b))
# CHECK-NEXT:  assign <31:5> r = (and (not a) b)
# CHECK-NEXT:  assign <32:5> r = (not (not a))
# CHECK-NEXT:  assign <33:5> r = (or a (and b c))
# CHECK-NEXT:  assign <34:5> r = (or (and a b) (and c d))
# CHECK-NEXT:  assign <35:5> r = (or a b c)
# CHECK-NEXT:  assign <36:5> r = (and a b c)
# CHECK-NEXT:  assign <37:5> r = (or (and a (not b)) c)
# CHECK-NEXT:  assign <38:5> r = (cmp a < b <= c)
# CHECK-NEXT:  assign <39:5> r = (cmp a < b == c != d)
# CHECK-NEXT:  assign <40:5> r = (cmp a is not b is c)
# CHECK-NEXT:  assign <41:5> r = (cmp a not in b in c)
# CHECK-NEXT:  assign <42:5> r = (not (in a b))
# CHECK-NEXT:  assign <43:5> r = (and (< a b) (< b c))
# CHECK-NEXT:  assign <44:5> r = (< (u- a) (+ b c))
# CHECK-NEXT:  assign <45:5> r = (if b a (if d c x))
# CHECK-NEXT:  assign <46:5> r = (if d (if b a c) x)
# CHECK-NEXT:  assign <47:5> r = (if (if c b d) a x)
# CHECK-NEXT:  assign <48:5> r = (if (and c d) (or a b) (not x))
# CHECK-NEXT:  def r() <49:9>
# CHECK-NEXT:    return <49:17> (if b a c)
# CHECK-NEXT:  def r(v) <50:9>
# CHECK-NEXT:    return <50:19> (or v (and a b))
# CHECK-NEXT:  def $lambda3() <51:21>
# CHECK-NEXT:    return <51:29> c
# CHECK-NEXT:  assign <51:5> r = (if b a $lambda3)
# CHECK-NEXT:  assign <52:5> r = (tuple a (if c b d))
# CHECK-NEXT:  assign <53:5> r = (if c (tuple a b) d)
# CHECK-NOT:{{.}}
