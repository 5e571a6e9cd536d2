# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x):
    print("text" b"bytes")

# CHECK: {{^}}{{.*}}mixed-bytes-str.py:3:18: error: cannot mix bytes and nonbytes literals
# CHECK-NEXT: {{^}}  File "{{.*}}mixed-bytes-str.py", line 3
# CHECK-NEXT: {{^}}    print("text" b"bytes")
# CHECK-NEXT: {{^}}                 ^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
