# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    for f(i) in range(4):
        x[i] = 0

# CHECK: {{^}}{{.*}}for-target-call.py:3:9: error: cannot assign to function call in 'for' loop
# CHECK-NEXT: {{^}}  File "{{.*}}for-target-call.py", line 3
# CHECK-NEXT: {{^}}    for f(i) in range(4):
# CHECK-NEXT: {{^}}        ^^^^{{$}}
# CHECK-NOT: {{.}}
