# RUN: not %kjitc --emit=ir %s:f --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# A constant step of zero is known to fail.


def f(n):
    for i in range(0, n, 0):
        pass

# CHECK:      {{^}}{{.*}}range-zero-step.py:6:26: error: range() arg 3 must not be zero{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}range-zero-step.py", line 6{{$}}
# CHECK-NEXT: {{^}}    for i in range(0, n, 0):{{$}}
# CHECK-NEXT: {{^}}                         ^{{$}}
# CHECK-NOT: {{.}}
