# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    for v in x:
        yield v * 2

# CHECK: {{^}}{{.*}}yield.py:4:9: error: generators ('yield') are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}yield.py", line 4
# CHECK-NEXT: {{^}}    yield v * 2
# CHECK-NEXT: {{^}}    ^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
