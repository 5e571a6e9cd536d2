# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# PENDING (BUGS.txt): the caret line is laid out in bytes, so after a
# multi-byte character ("é" is 2 bytes) it lands one column right of the
# '{'. The column in the message is a byte offset (documented); the caret
# must line up with the character on screen.
def kernel(x):
    label = "café"; table = {}
    return table

# CHECK: {{^}}{{.*}}pending-caret-after-utf8.py:7:30: error: dict literals are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}pending-caret-after-utf8.py", line 7
# CHECK-NEXT: {{^}}    label = "café"; table = {}
# CHECK-NEXT: {{^}}                            ^^{{$}}
# CHECK-NOT: {{.}}
