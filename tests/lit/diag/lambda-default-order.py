# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    blend = lambda a=0.5, b: a * b
    return blend(x[0])

# CHECK: {{^}}{{.*}}lambda-default-order.py:3:27: error: parameter without a default follows parameter with a default
# CHECK-NEXT: {{^}}  File "{{.*}}lambda-default-order.py", line 3
# CHECK-NEXT: {{^}}    blend = lambda a=0.5, b: a * b
# CHECK-NEXT: {{^}}                          ^{{$}}
# CHECK-NOT: {{.}}
