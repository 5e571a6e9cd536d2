# RUN: not %kjitc --emit=ir %s:f --sig="(int64,)" 2>&1 | FileCheck --strict-whitespace %s
# A name that is neither a local, a module-level def or import, nor a builtin.


def f(n):
    return n + undefined_thing

# CHECK:      {{^}}{{.*}}name-not-defined.py:6:16: error: NameError: name 'undefined_thing' is not defined{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}name-not-defined.py", line 6{{$}}
# CHECK-NEXT: {{^}}    return n + undefined_thing{{$}}
# CHECK-NEXT: {{^}}               ^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
