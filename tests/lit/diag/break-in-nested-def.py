# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    for i in range(x.shape[0]):
        def stop():
            break
        stop()

# CHECK: {{^}}{{.*}}break-in-nested-def.py:5:13: error: 'break' outside loop
# CHECK-NEXT: {{^}}  File "{{.*}}break-in-nested-def.py", line 5
# CHECK-NEXT: {{^}}    break
# CHECK-NEXT: {{^}}    ^^^^^{{$}}
# CHECK-NOT: {{.}}
