# RUN: %kjitc --emit=ast %s:kernel | FileCheck --strict-whitespace --match-full-lines %s
# Only a str literal is a docstring: a bytes literal as the first statement
# is an ordinary expression statement (as in Python's ast.get_docstring).
#
def kernel(x):
    b"not a docstring"
    return x

# CHECK:def kernel(x) <5:1>
# CHECK-NEXT:  expr <6:5> b"not a docstring"
# CHECK-NEXT:  return <7:5> x
# CHECK-NOT:{{.}}
