# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# 'yield from' is valid Python: it gets the generator message, with carets
# under the whole statement like a plain 'yield' (not "unexpected keyword").
def kernel(x):
    yield from range(x)

# CHECK: {{^}}{{.*}}yield-from.py:5:5: error: generators ('yield') are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}yield-from.py", line 5
# CHECK-NEXT: {{^}}    yield from range(x)
# CHECK-NEXT: {{^}}    ^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
