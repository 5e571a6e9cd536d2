# RUN: %kjitc --emit=ir %s:loops --sig="(int64,)" | FileCheck --strict-whitespace %s
# for/range with one, two and three arguments (a negative constant step),
# break, continue and the loop's else clause.


def loops(n):
    total = 0
    for i in range(1, n, 2):
        if i == 3:
            continue
        if i > 10:
            break
        total += i
    else:
        total = -1
    for j in range(n):
        total += j
    for k in range(n, 0, -1):
        total -= k
    return total

# CHECK:      {{^}}def loops(n: int64) -> int64{{$}}
# CHECK-NEXT: {{^}}  total: int64 = 0{{$}}
# CHECK-NEXT: {{^}}  for i in range(1, n, 2):{{$}}
# CHECK-NEXT: {{^}}    if (== i 3):{{$}}
# CHECK-NEXT: {{^}}      continue{{$}}
# CHECK-NEXT: {{^}}    if (> i 10):{{$}}
# CHECK-NEXT: {{^}}      break{{$}}
# CHECK-NEXT: {{^}}    total: int64 = (+ total i){{$}}
# CHECK-NEXT: {{^}}  else:{{$}}
# CHECK-NEXT: {{^}}    total: int64 = -1{{$}}
# CHECK-NEXT: {{^}}  for j in range(0, n, 1):{{$}}
# CHECK-NEXT: {{^}}    total: int64 = (+ total j){{$}}
# CHECK-NEXT: {{^}}  for k in range(n, 0, -1):{{$}}
# CHECK-NEXT: {{^}}    total: int64 = (- total k){{$}}
# CHECK-NEXT: {{^}}  return total{{$}}
# CHECK-NOT: {{.}}
