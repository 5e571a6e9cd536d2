# RUN: %kjitc --emit=ast %s:kernel | FileCheck --strict-whitespace --match-full-lines %s
# Indentation with tabs only (one tab per level, and a continuation line
# indented with tabs then spaces) is consistent and parses.
def kernel(x, out):
	for i in range(x.shape[0]):
		if x[i] > 0:
			out[i] = x[i] + \
			         1
		else:
			out[i] = 0
	return out

# CHECK:def kernel(x, out) <4:1>
# CHECK-NEXT:  for <5:2> i in (call range (index (. x shape) 0))
# CHECK-NEXT:    if <6:3> (> (index x i) 0)
# CHECK-NEXT:      assign <7:4> (index out i) = (+ (index x i) 1)
# CHECK-NEXT:    else
# CHECK-NEXT:      assign <10:4> (index out i) = 0
# CHECK-NEXT:  return <11:2> out
# CHECK-NOT:{{.}}
