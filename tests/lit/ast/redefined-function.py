# RUN: %kjitc --emit=ast %s:kernel | FileCheck --strict-whitespace --match-full-lines %s
# When a module defines a function twice, Python binds the name to the last
# definition; so does FILE:FUNC.
from kjit import cuda


@cuda.jit
def kernel(x):
    x[0] = 1


@cuda.jit
def kernel(x):
    x[0] = 2

# CHECK:def kernel(x) <13:1>
# CHECK-NEXT:  decorator (. cuda jit)
# CHECK-NEXT:  assign <14:5> (index x 0) = 2
# CHECK-NOT:{{.}}
