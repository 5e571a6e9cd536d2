# RUN: not %kjitc --emit=ptx %s:kernel --sig="(int64[:], int64[:])" 2>&1 | FileCheck --strict-whitespace %s
# A set or dict comprehension builds its container before the statement
# (as a list comprehension does); a kernel refuses it at the comprehension.
from kjit import cuda


@cuda.jit
def kernel(x, out):
    seen = {v % 16 for v in x}
    out[0] = len(seen)

# CHECK: {{^}}{{.*}}comprehension-in-kernel.py:9:12: error: sets are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}comprehension-in-kernel.py", line 9
# CHECK-NEXT: {{^}}    seen = {v % 16 for v in x}
# CHECK-NEXT: {{^}}           ^^^^^^^^^^^^^^^^^^^{{$}}
