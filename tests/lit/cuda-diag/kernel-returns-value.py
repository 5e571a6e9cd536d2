# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float32[:],)" 2>&1 | FileCheck --strict-whitespace %s
# A @cuda.jit kernel returns nothing (Numba: kernels must return None); the
# error is at the return, and says what to do instead.

from numba import cuda


@cuda.jit
def kernel(a):
    i = cuda.grid(1)
    a[i] = a[i] + a[i]
    return a[i]

# CHECK:      {{^}}{{.*}}kernel-returns-value.py:12:5: error: a kernel cannot return a value (this one returns float32); write the result into an array argument, or make 'kernel' a device function with @cuda.jit(device=True){{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}kernel-returns-value.py", line 12{{$}}
# CHECK-NEXT: {{^}}    return a[i]{{$}}
# CHECK-NEXT: {{^}}    ^^^^^^^^^^^{{$}}
# CHECK-NOT: {{.}}
