# RUN: %kjitc --emit=ast %S/Inputs/crlf.py:scale | FileCheck --strict-whitespace --match-full-lines %s
# RUN: %kjitc --emit=ast %S/Inputs/no-final-newline.py:last | FileCheck --strict-whitespace --match-full-lines --check-prefix=NOEOL %s
# Inputs/crlf.py has CRLF line endings; Inputs/no-final-newline.py has no
# newline after its last line.

# CHECK:def scale(x, a) <3:1>
# CHECK-NEXT:  docstring "Scale\n    x."
# CHECK-NEXT:  assign <6:5> y = (* a (index x 0))
# CHECK-NEXT:  assign <8:5> s = "two\nlines"
# CHECK-NEXT:  if <10:5> (> y 0)
# CHECK-NEXT:    return <11:9> (tuple y s)
# CHECK-NEXT:  return <13:5> y
# CHECK-NOT:{{.}}

# NOEOL:def last(x) <1:1>
# NOEOL-NEXT:  if <2:5> x
# NOEOL-NEXT:    return <3:9> x
# NOEOL-NEXT:  return <4:5> (u- x)
# NOEOL-NOT:{{.}}
