# RUN: %kjitc --emit=ir %s:count --sig="(int64,)" | FileCheck --strict-whitespace %s
# while loops with continue, break and else.


def count(n):
    i = 0
    s = 0
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        if s > 100:
            break
        s += i
    else:
        s = -s
    while True:
        break
    return s

# CHECK:      {{^}}def count(n: int64) -> int64{{$}}
# CHECK-NEXT: {{^}}  i: int64 = 0{{$}}
# CHECK-NEXT: {{^}}  s: int64 = 0{{$}}
# CHECK-NEXT: {{^}}  while (< i n):{{$}}
# CHECK-NEXT: {{^}}    i: int64 = (+ i 1){{$}}
# CHECK-NEXT: {{^}}    if (== (% i 2) 0):{{$}}
# CHECK-NEXT: {{^}}      continue{{$}}
# CHECK-NEXT: {{^}}    if (> s 100):{{$}}
# CHECK-NEXT: {{^}}      break{{$}}
# CHECK-NEXT: {{^}}    s: int64 = (+ s i){{$}}
# CHECK-NEXT: {{^}}  else:{{$}}
# CHECK-NEXT: {{^}}    s: int64 = (neg s){{$}}
# CHECK-NEXT: {{^}}  while True:{{$}}
# CHECK-NEXT: {{^}}    break{{$}}
# CHECK-NEXT: {{^}}  return s{{$}}
# CHECK-NOT: {{.}}
