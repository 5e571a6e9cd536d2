# RUN: %kjitc --emit=ast %s:f 2>&1 | FileCheck %s
# {e for ...} and {k: v for ...} become, before their statement, the loop
# that builds the set (s.add) or the dict (d[k] = v), as a list
# comprehension does; {a, b} is a set display.
def f(x):
    s = {v % 16 for v in x if v > 0}
    d = {v: i for i, v in enumerate(x)}
    return s, d, {1, 2}

# CHECK: def f(x) <5:1>
# CHECK-NEXT:   assign <6:9> $lc1 = (set)
# CHECK-NEXT:   for <6:9> $lc1_v in x
# CHECK-NEXT:     if <6:31> (> $lc1_v 0)
# CHECK-NEXT:       expr <6:10> (call (. $lc1 add) (% $lc1_v 16))
# CHECK-NEXT:   assign <6:5> s = $lc1
# CHECK-NEXT:   assign <7:9> $lc2 = (dict)
# CHECK-NEXT:   for <7:9> (tuple $lc2_i $lc2_v) in (call enumerate x)
# CHECK-NEXT:     assign <7:10> (index $lc2 $lc2_v) = $lc2_i
# CHECK-NEXT:   assign <7:5> d = $lc2
# CHECK-NEXT:   return <8:5> (tuple s d (set 1 2))
