# RUN: not %kjitc --emit=ir %s:kernel --sig="(float64[:], float64[:])" 2>&1 | FileCheck --strict-whitespace %s
# *args packs the extra arguments of calls from jitted code; the function
# called from Python takes its parameters one by one.
from kjit import cuda


@cuda.jit
def kernel(out, *arrays):
    out[0] = arrays[0][0]

# CHECK: {{^}}{{.*}}star-args.py:8:18: error: *args parameters are supported in functions called from kernels and jitted functions, not in the function called from Python; list the parameters
# CHECK-NEXT: {{^}}  File "{{.*}}star-args.py", line 8
# CHECK-NEXT: {{^}}    def kernel(out, *arrays):
# CHECK-NEXT: {{^}}                     ^^^^^^{{$}}
