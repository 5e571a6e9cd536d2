# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# PENDING (BUGS.txt): the unterminated string swallows the ')', so kjitc also
# reports "'(' was never closed" (after the string error, at an earlier
# column). Python reports only the string.
def kernel(x):
    print("value out of range, x)
    return x

# CHECK: {{^}}{{.*}}pending-unterminated-string-in-call.py:6:11: error: unterminated string literal (detected at line 6)
# CHECK-NEXT: {{^}}  File "{{.*}}pending-unterminated-string-in-call.py", line 6
# CHECK-NEXT: {{^}}    print("value out of range, x)
# CHECK-NEXT: {{^}}          ^^^^^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
