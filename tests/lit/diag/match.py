# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(op, a, b):
    match op:
        case 0:
            return a + b
        case _:
            return a - b

# CHECK: {{^}}{{.*}}match.py:3:5: error: 'match' statements are not supported in kernels; use if/elif
# CHECK-NEXT: {{^}}  File "{{.*}}match.py", line 3
# CHECK-NEXT: {{^}}    match op:
# CHECK-NEXT: {{^}}    ^^^^^{{$}}
# CHECK-NOT: {{.}}
