# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# Bytes literals may hold only ASCII characters; Python says the same with
# the same words.
def kernel(x):
    return b"café"

# CHECK: {{^}}{{.*}}bytes-non-ascii.py:5:12: error: bytes can only contain ASCII literal characters
# CHECK-NEXT: {{^}}  File "{{.*}}bytes-non-ascii.py", line 5
# CHECK-NEXT: {{^}}    return b"café"
# CHECK-NEXT: {{^}}           ^{{\^+}}{{$}}
# CHECK-NOT: {{.}}
