# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# 'yield from' is valid Python: a located "not supported", with carets
# under the whole statement (not "unexpected keyword").
def kernel(x):
    yield from range(x)

# CHECK: {{^}}{{.*}}yield-from.py:5:5: error: 'yield from' is not supported
# CHECK-NEXT: {{^}}  File "{{.*}}yield-from.py", line 5
# CHECK-NEXT: {{^}}    yield from range(x)
# CHECK-NEXT: {{^}}    ^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
