# RUN: %kjitc --emit=ast %s:kernel | FileCheck --strict-whitespace --match-full-lines %s
# PENDING (BUGS.txt): bytes >= 0x80 in a bytes literal are printed raw, which
# makes the --emit=ast output invalid UTF-8; they should print as \xNN.
def kernel(x):
    return b"\xff\x80A"

# CHECK:def kernel(x) <4:1>
# CHECK-NEXT:  return <5:5> b"\xff\x80A"
# CHECK-NOT:{{.}}
