# RUN: not %kjitc --emit=ir %s:caller --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# An error in a kjit function called by the entry is reported at the line of
# the callee.


def callee(x):
    return x + undefined_in_callee


def caller(x):
    return callee(x) * 2

# CHECK:      {{^}}{{.*}}error-in-callee.py:7:16: error: NameError: name 'undefined_in_callee' is not defined{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}error-in-callee.py", line 7{{$}}
# CHECK-NEXT: {{^}}    return x + undefined_in_callee{{$}}
# CHECK-NEXT: {{^}}               ^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NEXT: {{^}}{{.*}}error-in-callee.py:11:12: note: resolving callee type: type(CPUDispatcher(<function callee>)), called here{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}error-in-callee.py", line 11{{$}}
# CHECK-NEXT: {{^}}    return callee(x) * 2{{$}}
# CHECK-NEXT: {{^}}           ^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
