# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# PENDING (BUGS.txt): after '*', parameters without defaults are valid Python;
# kjitc adds a wrong "parameter without a default follows parameter with a
# default" for 'axis'. Only the '*' should be reported.
def kernel(x, n=4, *, axis):
    return x[axis]

# CHECK: {{^}}{{.*}}pending-keyword-only-after-default.py:5:20: error: keyword-only parameters ('*') are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}pending-keyword-only-after-default.py", line 5
# CHECK-NEXT: {{^}}    def kernel(x, n=4, *, axis):
# CHECK-NEXT: {{^}}                       ^{{$}}
# CHECK-NOT: {{.}}
