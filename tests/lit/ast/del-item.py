# RUN: %kjitc --emit=ast %s:f 2>&1 | FileCheck %s
# `del a[i]` is `a.__delitem__(i)` (lists and dicts have it); several
# targets are deleted in order.
def f(l, d):
    del l[0], d["k"]

# CHECK: def f(l, d) <4:1>
# CHECK-NEXT:   expr <5:5> (call (. l __delitem__) 0)
# CHECK-NEXT:   expr <5:5> (call (. d __delitem__) "k")
