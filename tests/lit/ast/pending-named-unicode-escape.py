# RUN: %kjitc --emit=ast %s:kernel | FileCheck --strict-whitespace --match-full-lines %s
# PENDING (BUGS.txt): \N{NAME} escapes in str literals are decoded by Python;
# kjitc keeps them as the raw text "\N{...}", a wrong value.
def kernel(x):
    print("\N{GREEK SMALL LETTER ALPHA} =", x)
    return "\N{DEGREE SIGN}"

# CHECK:def kernel(x) <4:1>
# CHECK-NEXT:  expr <5:5> (call print "α =" x)
# CHECK-NEXT:  return <6:5> "°"
# CHECK-NOT:{{.}}
