# RUN: %kjitc --emit=ast %s:kernel | FileCheck --strict-whitespace --match-full-lines %s
# 100 nested parentheses are valid Python (CPython allows 200). Each one is a
# level of kjitc's nesting limit of 200 (which counts blocks and operators
# too); diag/deep-nesting.py goes past it.
def kernel(x):
    return ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((x + 1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))

# CHECK:def kernel(x) <5:1>
# CHECK-NEXT:  return <6:5> (+ x 1)
# CHECK-NOT:{{.}}
