# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# The docstring is never closed: it runs to the end of the file, through these
# CHECK lines. The "detected at" line is checked in
# unterminated-triple-line.py.
def kernel(x):
    """Scale x in place.

    x[0] *= 2

# CHECK: {{^}}{{.*}}unterminated-triple.py:6:5: error: unterminated triple-quoted string literal (detected at line {{[0-9]+}})
# CHECK-NEXT: {{^}}  File "{{.*}}unterminated-triple.py", line 6
# CHECK-NEXT: {{^}}    {{["]["]["]}}Scale x in place.{{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
# CHECK-NOT: {{.}}
