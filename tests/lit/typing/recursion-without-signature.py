# RUN: not %kjitc --emit=ir %s:fact --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# A recursive call needs the return type before the function is typed: without
# a declared signature it is an error, reported once, at the call.


def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)

# CHECK:      {{^}}{{.*}}recursion-without-signature.py:9:16: error: recursive call of 'fact' needs an explicit signature in the decorator{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}recursion-without-signature.py", line 9{{$}}
# CHECK-NEXT: {{^}}    return n * fact(n - 1){{$}}
# CHECK-NEXT: {{^}}               ^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
