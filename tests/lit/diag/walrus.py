# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, out):
    if (n := x.shape[0]) > 4:
        out[0] = n

# CHECK: {{^}}{{.*}}walrus.py:3:9: error: assignment expressions (':=') are not supported in kernels; assign on a separate line
# CHECK-NEXT: {{^}}  File "{{.*}}walrus.py", line 3
# CHECK-NEXT: {{^}}    if (n := x.shape[0]) > 4:
# CHECK-NEXT: {{^}}        ^^^^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
