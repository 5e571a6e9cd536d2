# RUN: not %kjitc --emit=ir %s:f --sig="(float64[:], int64)" 2>&1 | FileCheck --strict-whitespace %s
# A variable assigned an int64 and an array cannot have one type: the error
# points at the conflicting assignment, the note at the first one.


def f(a, n):
    y = n
    if n > 0:
        y = a
    return y

# CHECK:      {{^}}{{.*}}unify-variable.py:9:9: error: cannot unify int64 and array(float64, 1d, A) for variable 'y'{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}unify-variable.py", line 9{{$}}
# CHECK-NEXT: {{^}}    y = a{{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
# CHECK-NEXT: {{^}}{{.*}}unify-variable.py:7:5: note: 'y' is first assigned a value of type int64 here{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}unify-variable.py", line 7{{$}}
# CHECK-NEXT: {{^}}    y = n{{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
# CHECK-NOT: {{.}}
