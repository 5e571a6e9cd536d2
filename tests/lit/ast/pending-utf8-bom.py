from kjit import cuda


@cuda.jit
def kernel(x):
    return x

# RUN: %kjitc --emit=ast %s | FileCheck --strict-whitespace --match-full-lines %s
# PENDING (BUGS.txt): this file starts with a UTF-8 byte order mark (right
# before "from"), which Python skips. kjitc reads the BOM bytes as part of an
# identifier, so the first line is no longer an import and is dropped; before
# a "def", the function would not be found at all.
# CHECK:from kjit import cuda <1:1>
# CHECK-NEXT:def kernel(x) <5:1>
# CHECK-NEXT:  decorator (. cuda jit)
# CHECK-NEXT:  return <6:5> x
# CHECK-NOT:{{.}}
