# RUN: %kjitc --emit=llvm --target=cuda %s:kernel --sig="(float32[:], float32[:])" | FileCheck --check-prefix=LLVM %s
# RUN: %kjitc --emit=llvm --target=cuda %s:many --sig="(float32[:], float32[:])" | FileCheck --check-prefix=NAMES32 %s
# RUN: %kjitc --emit=llvm --target=cuda %s:many --sig="(float64[:], float64[:])" | FileCheck --check-prefix=NAMES64 %s
# The LLVM IR as lowered for the GPU, before libdevice is linked: math.*
# calls libdevice's __nv_ functions, the float32 ones (__nv_sinf) for
# float32 arguments and the float64 ones (__nv_sin) for float64, as Numba
# does; cuda.fma is LLVM's fma and cuda.cbrt is __nv_cbrt(f). This needs no
# CUDA toolkit; libdevice-math.py checks the linked PTX.

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

# LLVM:       call float @__nv_sinf(float
# LLVM:       declare float @__nv_sinf(float)

# NAMES32-DAG: call float @__nv_sinf(float
# NAMES32-DAG: call float @__nv_cosf(float
# NAMES32-DAG: call float @__nv_tanf(float
# NAMES32-DAG: call float @__nv_expf(float
# NAMES32-DAG: call float @__nv_logf(float
# NAMES32-DAG: call float @__nv_powf(float
# NAMES32-DAG: call float @__nv_atan2f(float
# NAMES32-DAG: call float @__nv_erff(float
# NAMES32-DAG: call float @__nv_tanhf(float
# NAMES32-DAG: call float @__nv_hypotf(float
# NAMES32-DAG: call float @__nv_fmodf(float
# NAMES32-DAG: call float @__nv_cbrtf(float
# NAMES32-DAG: call float @llvm.fma.f32(float
# NAMES32-NOT: double @__nv_

# NAMES64-DAG: call double @__nv_sin(double
# NAMES64-DAG: call double @__nv_cos(double
# NAMES64-DAG: call double @__nv_tan(double
# NAMES64-DAG: call double @__nv_exp(double
# NAMES64-DAG: call double @__nv_log(double
# NAMES64-DAG: call double @__nv_pow(double
# NAMES64-DAG: call double @__nv_atan2(double
# NAMES64-DAG: call double @__nv_erf(double
# NAMES64-DAG: call double @__nv_tanh(double
# NAMES64-DAG: call double @__nv_hypot(double
# NAMES64-DAG: call double @__nv_fmod(double
# NAMES64-DAG: call double @__nv_cbrt(double
# NAMES64-DAG: call double @llvm.fma.f64(double
# NAMES64-NOT: float @__nv_

