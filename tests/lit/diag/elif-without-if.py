# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, out):
    for v in x:
        out[0] += v
    elif x[0]:
        pass

# CHECK: {{^}}{{.*}}elif-without-if.py:5:5: error: 'elif' without a matching 'if'
# CHECK-NEXT: {{^}}  File "{{.*}}elif-without-if.py", line 5
# CHECK-NEXT: {{^}}    elif x[0]:
# CHECK-NEXT: {{^}}    ^^^^{{$}}
# CHECK-NOT: {{.}}
