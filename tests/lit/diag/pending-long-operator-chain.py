# RUN: %{python} -c "print('def kernel(x):'); print('    return ' + ' + '.join(['x'] * 30000))" > %t.py
# RUN: not %kjitc --emit=ast %t.py:kernel 2>&1 | FileCheck --strict-whitespace %s
# PENDING (BUGS.txt): a 30000-term sum parses (the loop is iterative) but the
# tree is 30000 levels deep, and printing it overflows the stack: kjitc dies
# with SIGSEGV. CPython refuses it too ("RecursionError: maximum recursion
# depth exceeded during ast construction"); kjitc should report an error.
# CHECK: {{^}}{{.*}}.py:2:{{[0-9]+}}: error: {{.+}}
