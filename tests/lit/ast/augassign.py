# RUN: %kjitc --emit=ast %s:update | FileCheck --strict-whitespace --match-full-lines %s
# Augmented assignment with every operator, to names, subscripts and attributes.
from kjit import cuda


@cuda.jit
def update(acc, x, i, bits):
    acc += x[i]
    acc -= 1
    acc *= 2.0
    acc /= x[i] + 1
    acc //= 3
    acc %= 7
    acc **= 2
    acc @= x
    bits &= 0xFF
    bits |= 1 << i
    bits ^= bits >> 1
    bits <<= 2
    bits >>= i, 1
    x[i] += acc
    x[i, i + 1] -= 1
    x.real *= -1
    x.shape[0] //= 2

# CHECK:def update(acc, x, i, bits) <7:1>
# CHECK-NEXT:  decorator (. cuda jit)
# CHECK-NEXT:  augassign <8:5> acc += (index x i)
# CHECK-NEXT:  augassign <9:5> acc -= 1
# CHECK-NEXT:  augassign <10:5> acc *= (float 2)
# CHECK-NEXT:  augassign <11:5> acc /= (+ (index x i) 1)
# CHECK-NEXT:  augassign <12:5> acc //= 3
# CHECK-NEXT:  augassign <13:5> acc %= 7
# CHECK-NEXT:  augassign <14:5> acc **= 2
# CHECK-NEXT:  augassign <15:5> acc @= x
# CHECK-NEXT:  augassign <16:5> bits &= 255
# CHECK-NEXT:  augassign <17:5> bits |= (<< 1 i)
# CHECK-NEXT:  augassign <18:5> bits ^= (>> bits 1)
# CHECK-NEXT:  augassign <19:5> bits <<= 2
# CHECK-NEXT:  augassign <20:5> bits >>= (tuple i 1)
# CHECK-NEXT:  augassign <21:5> (index x i) += acc
# CHECK-NEXT:  augassign <22:5> (index x (tuple i (+ i 1))) -= 1
# CHECK-NEXT:  augassign <23:5> (. x real) *= (u- 1)
# CHECK-NEXT:  augassign <24:5> (index (. x shape) 0) //= 2
# CHECK-NOT:{{.}}
