# RUN: not %kjitc --emit=ir %s:f --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# `t` is local (it is assigned in the function) but has no value where it is
# read.


def f(n):
    t = t + n

# CHECK:      {{^}}{{.*}}used-before-assignment.py:7:9: error: local variable 't' is used before it is assigned a value{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}used-before-assignment.py", line 7{{$}}
# CHECK-NEXT: {{^}}    t = t + n{{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
# CHECK-NOT: {{.}}
