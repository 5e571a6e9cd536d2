# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    message = "value out of range
    return x

# CHECK: {{^}}{{.*}}unterminated-string.py:3:15: error: unterminated string literal (detected at line 3)
# CHECK-NEXT: {{^}}  File "{{.*}}unterminated-string.py", line 3
# CHECK-NEXT: {{^}}    message = "value out of range
# CHECK-NEXT: {{^}}              ^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
