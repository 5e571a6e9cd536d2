# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# The column in the message is a byte offset, as documented ("é" is 2 bytes,
# so the '{' is at byte column 30); the caret line is laid out in characters,
# so that the caret lines up with the '{' on screen.
#
def kernel(x):
    label = "café"; table = {**d}
    return table

# CHECK: {{^}}{{.*}}caret-after-utf8.py:7:30: error: '**' unpacking in a dict display is not supported
# CHECK-NEXT: {{^}}  File "{{.*}}caret-after-utf8.py", line 7
# CHECK-NEXT: {{^}}    label = "café"; table = {**d}
# CHECK-NEXT: {{^}}                            ^^^^^{{$}}
# CHECK-NOT: {{.}}
