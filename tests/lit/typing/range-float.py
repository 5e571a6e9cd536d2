# RUN: not %kjitc --emit=ir %s:f --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# range() takes integers; n / 2 is a float64.


def f(n):
    s = 0
    for i in range(n / 2):
        s += i
    return s

# CHECK:      {{^}}{{.*}}range-float.py:7:20: error: range() arguments must be integers, not float64{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}range-float.py", line 7{{$}}
# CHECK-NEXT: {{^}}    for i in range(n / 2):{{$}}
# CHECK-NEXT: {{^}}                   ^^^^^{{$}}
# CHECK-NOT: {{.}}
