# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# Three errors in one kernel, each in its own statement: all are reported, in
# source order, and parsing goes on after each.
from kjit import cuda


@cuda.jit
def kernel(x, out):
    i = cuda.grid(1)
    weights = {**x}
    if x[i] > 0
        out[i] = x[i]
    out[i] += (yield x[i])
    return out

# CHECK: {{^}}{{.*}}several-errors.py:10:15: error: '**' unpacking in a dict display is not supported
# CHECK-NEXT: {{^}}  File "{{.*}}several-errors.py", line 10
# CHECK-NEXT: {{^}}    weights = {**x}
# CHECK-NEXT: {{^}}              ^^^^^{{$}}
# CHECK-NEXT: {{^}}{{.*}}several-errors.py:11:16: error: expected ':', found end of line
# CHECK-NEXT: {{^}}  File "{{.*}}several-errors.py", line 11
# CHECK-NEXT: {{^}}    if x[i] > 0
# CHECK-NEXT: {{^}}               ^{{$}}
# CHECK-NEXT: {{^}}{{.*}}several-errors.py:13:15: error: generators ('yield') are not supported in kernels
# CHECK-NEXT: {{^}}  File "{{.*}}several-errors.py", line 13
# CHECK-NEXT: {{^}}    out[i] += (yield x[i])
# CHECK-NEXT: {{^}}              ^^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
