# RUN: %kjitc --emit=ast %s:k 2>&1 | FileCheck --strict-whitespace %s
# A list comprehension becomes, before its statement, the loop that builds
# the list; its targets are renamed (Python scopes them to it), the first
# iterable is read outside the loop, a condition and a nested comprehension
# inside it.
def k(x, n):
    y = [v * 2 for v in x if v > 0]
    z = [[i * j for j in range(i)] for i in range(n)]
    return y, z
# CHECK: def k(x, n) <6:1>
# CHECK-NEXT:   assign <7:9> $lc1 = (list)
# CHECK-NEXT:   for <7:9> $lc1_v in x
# CHECK-NEXT:     if <7:30> (> $lc1_v 0)
# CHECK-NEXT:       expr <7:10> (call (. $lc1 append) (* $lc1_v 2))
# CHECK-NEXT:   assign <7:5> y = $lc1
# CHECK-NEXT:   assign <8:9> $lc3 = (list)
# CHECK-NEXT:   for <8:9> $lc3_i in (call range n)
# CHECK-NEXT:     assign <8:10> $lc2 = (list)
# CHECK-NEXT:     for <8:10> $lc2_j in (call range $lc3_i)
# CHECK-NEXT:       expr <8:11> (call (. $lc2 append) (* $lc3_i $lc2_j))
# CHECK-NEXT:     expr <8:10> (call (. $lc3 append) $lc2)
# CHECK-NEXT:   assign <8:5> z = $lc3
# CHECK-NEXT:   return <9:5> (tuple y z)
