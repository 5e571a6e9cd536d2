# RUN: %{python} -c "print('def kernel(x):'); print('    return ' + ' + '.join(['x'] * 30000))" > %t.py
# RUN: not %kjitc --emit=ast %t.py:kernel 2>&1 | FileCheck --strict-whitespace %s
# RUN: %{python} -c "print('def kernel(x):'); print('    return ' + ' + '.join(['x'] * 1001))" > %t.1000.py
# RUN: %kjitc --emit=ast %t.1000.py:kernel | FileCheck --strict-whitespace --check-prefix=LIMIT %s
# RUN: %{python} -c "print('def kernel(x):'); print('    return ' + ' + '.join(['x'] * 1002))" > %t.1001.py
# RUN: not %kjitc --emit=ast %t.1001.py:kernel 2>&1 | FileCheck --strict-whitespace --check-prefix=PAST %s
# A 30000-term sum parses (in a loop), but its tree is 30000 levels deep, too
# deep for the passes that walk it recursively (printing it overflowed the
# stack). CPython refuses it too ("maximum recursion depth exceeded during
# compilation"). The limit is 1000 nested operators: 1000 '+' are accepted,
# 1001 are not.
# CHECK: {{^}}{{.*}}.py:2:12: error: too many nested operators in one expression (the limit is 1000); split it with temporary variables
# CHECK-NEXT: {{^}}  File "{{.*}}.py", line 2
# LIMIT: {{^}}def kernel(x) <1:1>
# LIMIT-NEXT: {{^}}  return <2:5> (+ (+ (+ (+ {{.*}} x) x) x) x){{$}}
# PAST: {{^}}{{.*}}.py:2:12: error: too many nested operators in one expression (the limit is 1000); split it with temporary variables
