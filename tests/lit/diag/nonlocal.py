# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    total = 0.0

    def add(v):
        nonlocal total
        total += v
    add(x[0])
    return total

# CHECK: {{^}}{{.*}}nonlocal.py:6:9: error: 'nonlocal' declarations are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}nonlocal.py", line 6
# CHECK-NEXT: {{^}}    nonlocal total
# CHECK-NEXT: {{^}}    ^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
