# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# "detected at line N" is the last line of the file, as Python says: the
# newline that ends the file starts no line. This file has 14 lines, and the
# string runs to its end.
def kernel(x):
    """Scale x in place.

    x[0] *= 2

# CHECK: {{^}}{{.*}}unterminated-triple-line.py:6:5: error: unterminated triple-quoted string literal (detected at line 14)
# CHECK-NEXT: {{^}}  File "{{.*}}unterminated-triple-line.py", line 6
# CHECK-NEXT: {{^}}    {{["]["]["]}}Scale x in place.{{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
# CHECK-NOT: {{.}}
