# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    if x[0] > 0:
        continue
    return x[0]

# CHECK: {{^}}{{.*}}continue-outside-loop.py:4:9: error: 'continue' outside loop
# CHECK-NEXT: {{^}}  File "{{.*}}continue-outside-loop.py", line 4
# CHECK-NEXT: {{^}}    continue
# CHECK-NEXT: {{^}}    ^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
