# RUN: not %kjitc --emit=ir %s:caller --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# Calling a kjit function with too few arguments: the error is at the call,
# with a note at the callee's def.


def callee(a, b):
    return a + b


def caller(x):
    return callee(x)

# CHECK:      {{^}}{{.*}}kjit-call-arity.py:11:12: error: callee() missing 1 required positional argument: 'b'{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}kjit-call-arity.py", line 11{{$}}
# CHECK-NEXT: {{^}}    return callee(x){{$}}
# CHECK-NEXT: {{^}}           ^^^^^^^^^{{$}}
# CHECK-NEXT: {{^}}{{.*}}kjit-call-arity.py:6:1: note: 'callee' is defined here{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}kjit-call-arity.py", line 6{{$}}
# CHECK-NEXT: {{^}}    def callee(a, b):{{$}}
# CHECK-NEXT: {{^}}    ^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
