# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
from kjit import cuda


@cuda.jit
def kernel(out, *arrays):
    out[0] = arrays[0][0]

# CHECK: {{^}}{{.*}}star-args.py:6:17: error: *args parameters are not supported in kernels; list the parameters
# CHECK-NEXT: {{^}}  File "{{.*}}star-args.py", line 6
# CHECK-NEXT: {{^}}    def kernel(out, *arrays):
# CHECK-NEXT: {{^}}                    ^^^^^^^{{$}}
# CHECK-NOT: {{.}}
