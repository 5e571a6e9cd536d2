# RUN: not %kjitc --emit=ir %s:f --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# `t` is assigned below the line that reads it: on every path the read comes
# first (Python's UnboundLocalError), so it is a compile-time error.


def f(n):
    s = t
    t = n
    return s

# CHECK:      {{^}}{{.*}}read-before-assignment.py:7:9: error: local variable 't' is used before it is assigned a value{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}read-before-assignment.py", line 7{{$}}
# CHECK-NEXT: {{^}}    s = t{{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
# CHECK-NOT: {{.}}
