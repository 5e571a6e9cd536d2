# RUN: %kjitc --emit=ast %s:kernel | FileCheck --strict-whitespace --match-full-lines %s
# Bytes >= 0x80 in a bytes literal print as \xNN (as Python's repr does), so
# that the --emit=ast output stays valid UTF-8.
def kernel(x):
    return b"\xff\x80A"

# CHECK:def kernel(x) <4:1>
# CHECK-NEXT:  return <5:5> b"\xff\x80A"
# CHECK-NOT:{{.}}
