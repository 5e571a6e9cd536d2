# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    if x[0] > 0:
        break
    return x[0]

# CHECK: {{^}}{{.*}}break-outside-loop.py:4:9: error: 'break' outside loop
# CHECK-NEXT: {{^}}  File "{{.*}}break-outside-loop.py", line 4
# CHECK-NEXT: {{^}}    break
# CHECK-NEXT: {{^}}    ^^^^^{{$}}
# CHECK-NOT: {{.}}
