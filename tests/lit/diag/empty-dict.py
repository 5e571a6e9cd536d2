# RUN: %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# `{}` and `{k: v}` are dict displays (dicts run in @jit functions; kernels
# refuse them when typed: tests/lit/cuda-diag/dict-in-kernel.py).
def kernel(x):
    counts = {}
    table = {1: 2.5, x: 0.5}
    return counts, table

# CHECK: {{^}}  assign <5:5> counts = (dict){{$}}
# CHECK-NEXT: {{^}}  assign <6:5> table = (dict 1:(float 2.5) x:(float 0.5)){{$}}
