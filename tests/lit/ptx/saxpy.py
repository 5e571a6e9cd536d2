# RUN: %kjitc --emit=ptx %s:saxpy --sig="(float32, float32[:], float32[:], float32[:])" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %kjitc --emit=ptx %s:saxpy --sig="(float64, float64[:], float64[:], float64[:])" > %t.f64.ptx
# RUN: FileCheck --check-prefix=F64 %s < %t.f64.ptx
# SAXPY: a scalar parameter is passed as itself (.param .f32), each array as
# pointer, extent, stride. a * x[i] + y[i] is contracted into one fma, as
# nvcc and NVVM do by default. ptxas/saxpy.test assembles it.

from numba import cuda


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = a * x[i] + y[i]

# CHECK:      .visible .entry saxpy(
# CHECK-NEXT:   .param .f32 saxpy_param_0,
# CHECK-NEXT:   .param .u64 saxpy_param_1,
# CHECK-COUNT-7: .param .u64 saxpy_param_{{[0-9]+}},
# CHECK-NEXT:   .param .u64 saxpy_param_9
# CHECK-NEXT: )
# CHECK:      mul.wide.u32
# CHECK:      add.s64
# CHECK:      @%p{{[0-9]+}} bra
# CHECK-DAG:  ld.param.f32 [[A:%f[0-9]+]], [saxpy_param_0];
# CHECK-DAG:  ld.global.f32 [[X:%f[0-9]+]],
# CHECK-DAG:  ld.global.f32 [[Y:%f[0-9]+]],
# CHECK:      fma.rn.f32 [[R:%f[0-9]+]], [[X]], [[A]], [[Y]];
# CHECK-NEXT: mul.lo.s64
# CHECK-NEXT: add.s64
# CHECK-NEXT: st.global.f32 [{{%rd[0-9]+}}], [[R]];

# F64:       .param .f64 saxpy_param_0,
# F64:       ld.global.f64
# F64:       fma.rn.f64
# F64:       st.global.f64
