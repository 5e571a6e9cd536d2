# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# PENDING (BUGS.txt): bytes literals may hold only ASCII characters (Python:
# "bytes can only contain ASCII literal characters"); kjitc accepts b"café".
def kernel(x):
    return b"café"

# CHECK: {{^}}{{.*}}pending-bytes-non-ascii.py:5:12: error: bytes can only contain ASCII literal characters
# CHECK-NEXT: {{^}}  File "{{.*}}pending-bytes-non-ascii.py", line 5
# CHECK-NEXT: {{^}}    return b"café"
# CHECK-NEXT: {{^}}           ^{{\^+}}{{$}}
# CHECK-NOT: {{.}}
