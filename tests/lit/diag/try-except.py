# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
from kjit import cuda


@cuda.jit
def kernel(x, out):
    i = cuda.grid(1)
    try:
        out[i] = 1.0 / x[i]
    except ZeroDivisionError:
        out[i] = 0.0
    finally:
        pass

# CHECK: {{^}}{{.*}}try-except.py:8:5: error: try/except is not supported in kernels; check the condition with 'if' and raise, or return an error code
# CHECK-NEXT: {{^}}  File "{{.*}}try-except.py", line 8
# CHECK-NEXT: {{^}}    try:
# CHECK-NEXT: {{^}}    ^^^{{$}}
# CHECK-NOT: {{.}}
