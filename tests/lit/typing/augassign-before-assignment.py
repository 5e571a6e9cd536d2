# RUN: not %kjitc --emit=ir %s:f --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# `total += n` reads `total`, which has no value yet.


def f(n):
    total += n
    return n

# CHECK:      {{^}}{{.*}}augassign-before-assignment.py:6:5: error: local variable 'total' is used before it is assigned a value{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}augassign-before-assignment.py", line 6{{$}}
# CHECK-NEXT: {{^}}    total += n{{$}}
# CHECK-NEXT: {{^}}    ^^^^^{{$}}
# CHECK-NOT: {{.}}
