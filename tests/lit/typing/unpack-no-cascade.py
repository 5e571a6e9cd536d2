# RUN: not %kjitc --emit=ir %s:f --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# A failed unpacking is reported once: the later read of `a`, whose assignment
# failed, does not add a "used before it is assigned" error.


def f(x):
    a, b = (x, x, x)
    return a

# CHECK:      {{^}}{{.*}}unpack-no-cascade.py:7:5: error: cannot unpack a tuple of 3 values into 2 targets{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}unpack-no-cascade.py", line 7{{$}}
# CHECK-NEXT: {{^}}    a, b = (x, x, x){{$}}
# CHECK-NEXT: {{^}}    ^^^^{{$}}
# CHECK-NOT: {{.}}
