# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# PENDING (BUGS.txt): "detected at line N" must be the last line of the file
# (as Python says); kjitc counts the final newline as starting one more line.
# This file has 14 lines, the string runs to its end.
def kernel(x):
    """Scale x in place.

    x[0] *= 2

# CHECK: {{^}}{{.*}}pending-unterminated-triple-line.py:6:5: error: unterminated triple-quoted string literal (detected at line 14)
# CHECK-NEXT: {{^}}  File "{{.*}}pending-unterminated-triple-line.py", line 6
# CHECK-NEXT: {{^}}    {{["]["]["]}}Scale x in place.{{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
# CHECK-NOT: {{.}}
