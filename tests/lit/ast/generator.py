# RUN: %kjitc --emit=ast %s:f 2>&1 | FileCheck %s
# A generator function makes the list of the values it yields: `$gen = []`
# first, `yield e` is `$gen.append(e)`, and every return (the end too)
# returns `$gen`.
def f(n):
    for i in range(n):
        if i > 5:
            return
        yield i * i

# CHECK: def f(n) <5:1>
# CHECK-NEXT:   assign <5:1> $gen = (list)
# CHECK-NEXT:   for <6:5> i in (call range n)
# CHECK-NEXT:     if <7:9> (> i 5)
# CHECK-NEXT:       return <8:13> $gen
# CHECK-NEXT:     expr <9:9> (call (. $gen append) (* i i))
# CHECK-NEXT:   return <5:1> $gen
