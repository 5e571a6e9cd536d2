# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
from kjit import cuda


@cuda.jit
def kernel(out, **options):
    out[0] = 1

# CHECK: {{^}}{{.*}}kwargs.py:6:17: error: **kwargs parameters are not supported in kernels; list the parameters
# CHECK-NEXT: {{^}}  File "{{.*}}kwargs.py", line 6
# CHECK-NEXT: {{^}}    def kernel(out, **options):
# CHECK-NEXT: {{^}}                    ^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
