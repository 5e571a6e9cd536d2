# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# The unterminated string swallows the ')', so the '(' is never closed: that
# is a consequence of the string error and, as in Python, not reported
# ("'(' was never closed" used to follow, at an earlier column).
def kernel(x):
    print("value out of range, x)
    return x

# CHECK: {{^}}{{.*}}unterminated-string-in-call.py:6:11: error: unterminated string literal (detected at line 6)
# CHECK-NEXT: {{^}}  File "{{.*}}unterminated-string-in-call.py", line 6
# CHECK-NEXT: {{^}}    print("value out of range, x)
# CHECK-NEXT: {{^}}          ^^^^^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
