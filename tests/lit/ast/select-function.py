# RUN: %kjitc --emit=ast %s:good 2>&1 | FileCheck --strict-whitespace --match-full-lines %s
# RUN: not %kjitc --emit=ast %s 2>&1 | FileCheck --strict-whitespace --check-prefix=ALL %s
# RUN: not %kjitc --emit=ast %s:missing 2>&1 | FileCheck --strict-whitespace --check-prefix=MISSING %s
# (and nothing goes to stderr). Without :FUNC, every top-level def is parsed.
from kjit import cuda


@cuda.jit(device=True)
def broken_before(x):
    d = {**x}
    return d


@cuda.jit
def good(x, out):
    out[0] = x[0]


@cuda.jit(
    "void(float32[:])",
)
def broken_after(x):
    try:
        x[0] = 1
    finally:
        pass

# CHECK:def good(x, out) <15:1>
# CHECK-NEXT:  decorator (. cuda jit)
# CHECK-NEXT:  assign <16:5> (index out 0) = (index x 0)
# CHECK-NOT:{{.}}

# ALL:{{^}}{{.*}}select-function.py:10:9: error: '**' unpacking in a dict display is not supported
# ALL-NEXT:{{^}}  File "{{.*}}select-function.py", line 10
# ALL-NEXT:{{^}}    d = {**x}
# ALL-NEXT:{{^}}        ^^^^^{{$}}
# ALL-NEXT:{{^}}{{.*}}select-function.py:25:5: error: 'finally' is not supported in kernels (as in Numba)
# ALL-NEXT:{{^}}  File "{{.*}}select-function.py", line 25
# ALL-NEXT:{{^}}    finally:
# ALL-NEXT:{{^}}    ^^^^^^^{{$}}
# ALL-NOT:{{.}}

# MISSING:{{^}}kjitc: error: no function 'missing' in '{{.*}}select-function.py'
# MISSING-NOT:{{.}}
