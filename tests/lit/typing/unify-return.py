# RUN: not %kjitc --emit=ir %s:f --sig="(float64[:], int64)" 2>&1 | FileCheck --strict-whitespace %s
# Return types that do not unify: the error is at the second return, the note
# at the first.


def f(a, n):
    if n > 0:
        return a
    return n

# CHECK:      {{^}}{{.*}}unify-return.py:9:5: error: cannot unify return types array(float64, 1d, A) and int64{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}unify-return.py", line 9{{$}}
# CHECK-NEXT: {{^}}    return n{{$}}
# CHECK-NEXT: {{^}}    ^^^^^^^^{{$}}
# CHECK-NEXT: {{^}}{{.*}}unify-return.py:8:9: note: the function first returns array(float64, 1d, A) here{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}unify-return.py", line 8{{$}}
# CHECK-NEXT: {{^}}    return a{{$}}
# CHECK-NEXT: {{^}}    ^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
