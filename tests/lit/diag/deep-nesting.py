# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# 250 nested parentheses, beyond any limit (CPython's is 200). The column and
# caret of the report depend on the limit, so they are not pinned here.
def kernel(x):
    return ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((x))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))

# CHECK: {{^}}{{.*}}deep-nesting.py:5:{{[0-9]+}}: error: too many nested parentheses, blocks or operators (the limit is {{[0-9]+}})
# CHECK-NEXT: {{^}}  File "{{.*}}deep-nesting.py", line 5
# CHECK-NEXT: {{^}}    return ((((((((((((((((((((((((((((((((((((((((((((((((((({{[(]+}}x{{[)]+}}{{$}}
# CHECK-NEXT: {{^}} {{ +}}^{{$}}
# CHECK-NOT: {{.}}
