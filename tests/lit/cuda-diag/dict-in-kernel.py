# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float64[:], float64[:])" 2>&1 | FileCheck --strict-whitespace %s
# Dicts allocate and grow: kernels refuse them where they are written.
from kjit import cuda


@cuda.jit
def kernel(x, out):
    weights = {"left": 0.25, "centre": 0.5, "right": 0.25}
    out[0] = x[0] * weights["centre"]

# CHECK: {{^}}{{.*}}dict-in-kernel.py:8:15: error: dicts are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}dict-in-kernel.py", line 8
# CHECK-NEXT: {{^}}    weights = {"left": 0.25, "centre": 0.5, "right": 0.25}
# CHECK-NEXT: {{^}}              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
