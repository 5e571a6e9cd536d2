# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float64[:],)" 2>&1 | FileCheck --strict-whitespace %s
# A generator runs to its end and makes a list of its values: kernels, which
# have no lists, refuse it at its first yield.
def kernel(x):
    for v in x:
        yield v * 2

# CHECK: {{^}}{{.*}}generator-in-kernel.py:6:9: error: generators ('yield') are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}generator-in-kernel.py", line 6
# CHECK-NEXT: {{^}}    yield v * 2
# CHECK-NEXT: {{^}}    ^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
