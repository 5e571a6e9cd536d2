# REQUIRES: ptxas
# libdevice comes with the CUDA toolkit that ptxas is part of: without it
# kjitc cannot link math functions, so this test needs ptxas. The LLVM IR
# side (which libdevice function each call names) is math-calls.py.
# RUN: %kjitc --emit=ptx %s:kernel --sig="(float32[:], float32[:])" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: %kjitc --emit=ptx %s:kernel --sig="(float32[:], float32[:])" --fastmath > %t.fast.ptx
# RUN: FileCheck --check-prefix=FAST %s < %t.fast.ptx
# RUN: %ptxas -arch=sm_90 %t.fast.ptx -o %t.fast.cubin
# RUN: %kjitc --emit=ptx %s:many --sig="(float32[:], float32[:])" > %t.many32.ptx
# RUN: FileCheck --check-prefix=LINKED %s < %t.many32.ptx
# RUN: %ptxas -arch=sm_90 %t.many32.ptx -o %t.many32.cubin
# RUN: %kjitc --emit=ptx %s:many --sig="(float64[:], float64[:])" > %t.many64.ptx
# RUN: FileCheck --check-prefix=LINKED %s < %t.many64.ptx
# RUN: %ptxas -arch=sm_90 %t.many64.ptx -o %t.many64.cubin
# math.* in kernels goes through CUDA's libdevice: float32 arguments call
# the float32 functions (__nv_sinf, not __nv_sin), float64 the float64
# ones; libdevice is linked in and its functions inlined, so no
# .extern .func __nv_* is left in the PTX. Without fastmath, sin is
# libdevice's accurate sinf (no sin.approx), / is div.rn and sqrt is
# sqrt.rn. With --fastmath, single-precision arithmetic flushes denormals
# (.ftz), division and sqrt are approximate, and float32 sin/cos/exp/log
# use libdevice's fast functions (sin.approx), as Numba's fastmath does. cuda.fma is one fma, and
# cuda.cbrt is libdevice's cbrt. Each PTX is assembled with ptxas.

import math
from numba import cuda


@cuda.jit
def kernel(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        x = a[i]
        out[i] = math.sin(x) + x / out[i] + math.sqrt(x)


@cuda.jit
def many(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        x = a[i]
        out[i] = (math.sin(x) + math.cos(x) + math.tan(x) + math.exp(x) + math.log(x)
                  + math.pow(x, x) + math.atan2(x, x) + math.erf(x) + math.tanh(x)
                  + math.hypot(x, x) + math.fmod(x, x) + cuda.cbrt(x) + cuda.fma(x, x, x))

# CHECK-NOT:  .extern
# CHECK:      .visible .entry kernel(
# CHECK-NOT:  call
# CHECK-NOT:  sin.approx
# CHECK-DAG:  div.rn.f32
# CHECK-DAG:  sqrt.rn.f32
# CHECK-NOT:  sin.approx
# CHECK-NOT:  call
# CHECK:      ret;

# FAST-NOT:   .extern
# FAST:       .visible .entry kernel(
# FAST-NOT:   call
# FAST-DAG:   sin.approx.ftz.f32
# FAST-DAG:   div.approx.ftz.f32
# FAST-DAG:   sqrt.approx.ftz.f32
# FAST-NOT:   div.rn.f32
# FAST-NOT:   sqrt.rn.f32
# FAST:       ret;

# LINKED-NOT: .extern
# LINKED-NOT: __nv_
# LINKED:     .visible .entry many(
# LINKED-NOT: __nv_
# LINKED:     ret;
