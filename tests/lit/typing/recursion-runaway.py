# RUN: not %kjitc --emit=ir %s:runaway --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# Without a signature, a recursive function's return type comes from the
# returns that do not recurse; when every path recurses there are none, and
# the error is reported once, at the call.


def runaway(n):
    return runaway(n - 1)

# CHECK:      {{^}}{{.*}}recursion-runaway.py:8:12: error: cannot type infer runaway recursion: every path of 'runaway' calls itself before it returns a value{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}recursion-runaway.py", line 8{{$}}
# CHECK-NEXT: {{^}}    return runaway(n - 1){{$}}
# CHECK-NEXT: {{^}}           ^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
