# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float64[:], boolean[:])" 2>&1 | FileCheck --strict-whitespace %s
# Comparisons in kernels take numbers: an array comparison would allocate.

from numba import cuda


@cuda.jit
def kernel(a, out):
    m = a < 1
    out[0] = m[0]

# CHECK:      {{^}}{{.*}}compare-array.py:9:9: error: cannot compare array(float64, 1d, A) and int64{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}compare-array.py", line 9{{$}}
# CHECK-NEXT: {{^}}    m = a < 1{{$}}
# CHECK-NEXT: {{^}}        ^^^^^{{$}}
# CHECK-NOT: {{.}}
