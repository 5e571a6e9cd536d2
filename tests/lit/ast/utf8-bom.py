from kjit import cuda


@cuda.jit
def kernel(x):
    return x

# RUN: %kjitc --emit=ast %s | FileCheck --strict-whitespace --match-full-lines %s
# This file starts with a UTF-8 byte order mark (right before "from"). Python
# skips it, and so does kjitc: the import is kept, and the columns of line 1
# count from after the mark. (Read as part of a name, the BOM used to hide
# the import, or the def right after it.)
# CHECK:from kjit import cuda <1:1>
# CHECK-NEXT:def kernel(x) <5:1>
# CHECK-NEXT:  decorator (. cuda jit)
# CHECK-NEXT:  return <6:5> x
# CHECK-NOT:{{.}}
