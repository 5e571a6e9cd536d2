# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# After '*', parameters without defaults are valid Python: only the '*' is
# reported, not also "parameter without a default follows parameter with a
# default" for 'axis'.
def kernel(x, n=4, *, axis):
    return x[axis]

# CHECK: {{^}}{{.*}}keyword-only-after-default.py:5:20: error: keyword-only parameters ('*') are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}keyword-only-after-default.py", line 5
# CHECK-NEXT: {{^}}    def kernel(x, n=4, *, axis):
# CHECK-NEXT: {{^}}                       ^{{$}}
# CHECK-NOT: {{.}}
