# RUN: %kjitc --emit=ast %s:constants | FileCheck --strict-whitespace --match-full-lines %s
# RUN: %kjitc --emit=ast %s:integers | FileCheck --strict-whitespace --match-full-lines --check-prefix=INT %s
# RUN: %kjitc --emit=ast %s:floats | FileCheck --strict-whitespace --match-full-lines --check-prefix=FLOAT %s
# Constants and numeric literals. Integers print as their value, floats and
# imaginary parts in the shortest form that reads back to the same double.
def constants(x):
    x[0] = None
    x[1] = True
    x[2] = False
    x[3] = ...
    return x is None or x is not ...


def integers(x):
    a = 0
    b = 7
    c = 1_000_000
    d = 0xFF, 0Xff, 0x_dead_BEEF
    e = 0o17, 0O7_7
    f = 0b1010, 0B1_0, 0b_1
    g = 00, 0_0, 000
    h = 9223372036854775807, 18446744073709551615
    i = 18446744073709551616, 0x1_0000_0000_0000_0000
    return -2147483648


def floats(x):
    a = 1., .5, 0.0, 3.14
    b = 1e-3, 1E+3, 2.5e10, 1e300, 1e400
    c = 1_000.5, 1_0e1_0, 0.000_1
    d = 5e-324, 1.7976931348623157e308
    e = 2j, 1.5J, 1e3j, 0j, 1_0j, .5j
    return 1.0 + 2j

# CHECK:def constants(x) <6:1>
# CHECK-NEXT:  assign <7:5> (index x 0) = None
# CHECK-NEXT:  assign <8:5> (index x 1) = True
# CHECK-NEXT:  assign <9:5> (index x 2) = False
# CHECK-NEXT:  assign <10:5> (index x 3) = ...
# CHECK-NEXT:  return <11:5> (or (is x None) (is not x ...))
# CHECK-NOT:{{.}}

# INT:def integers(x) <14:1>
# INT-NEXT:  assign <15:5> a = 0
# INT-NEXT:  assign <16:5> b = 7
# INT-NEXT:  assign <17:5> c = 1000000
# INT-NEXT:  assign <18:5> d = (tuple 255 255 3735928559)
# INT-NEXT:  assign <19:5> e = (tuple 15 63)
# INT-NEXT:  assign <20:5> f = (tuple 10 2 1)
# INT-NEXT:  assign <21:5> g = (tuple 0 0 0)
# INT-NEXT:  assign <22:5> h = (tuple 9223372036854775807 18446744073709551615)
# INT-NEXT:  assign <23:5> i = (tuple (int-too-large 18446744073709551616) (int-too-large 0x1_0000_0000_0000_0000))
# INT-NEXT:  return <24:5> (u- 2147483648)
# INT-NOT:{{.}}

# FLOAT:def floats(x) <27:1>
# FLOAT-NEXT:  assign <28:5> a = (tuple (float 1) (float 0.5) (float 0) (float 3.14))
# FLOAT-NEXT:  assign <29:5> b = (tuple (float 0.001) (float 1000) (float 25000000000) (float 1e+300) (float inf))
# FLOAT-NEXT:  assign <30:5> c = (tuple (float 1000.5) (float 100000000000) (float 0.0001))
# FLOAT-NEXT:  assign <31:5> d = (tuple (float 5e-324) (float 1.7976931348623157e+308))
# FLOAT-NEXT:  assign <32:5> e = (tuple (imag 2) (imag 1.5) (imag 1000) (imag 0) (imag 10) (imag 0.5))
# FLOAT-NEXT:  return <33:5> (+ (float 1) (imag 2))
# FLOAT-NOT:{{.}}
