# RUN: %kjitc --emit=ptx %s:rel_diff_kernel --sig="(float32[:], float32[:], float32[:])" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %kjitc --emit=ptx %s:rel_diff --sig="(float32, float32)" --device > %t.dev.ptx
# RUN: FileCheck --check-prefix=DEV %s < %t.dev.ptx
# A scalar device function (what @vectorize(target="cuda") generates around
# the scalar kernel) called from a kernel: it is compiled with the kernel
# and inlined, in float32. Alone, with --device, it is a .visible .func that
# returns a status and stores the float32 result through its first
# parameter. ptxas/device-function.test assembles both.

from numba import cuda


@cuda.jit(device=True)
def rel_diff(x, y):
    return abs(x - y) / (abs(x) + abs(y))


@cuda.jit
def rel_diff_kernel(x, y, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = rel_diff(x[i], y[i])

# CHECK-NOT:  .func
# CHECK:      .visible .entry rel_diff_kernel(
# CHECK-NOT:  call
# CHECK:      ld.global.f32 [[X:%f[0-9]+]],
# CHECK:      ld.global.f32 [[Y:%f[0-9]+]],
# CHECK:      sub{{(\.rn)?}}.f32 [[D:%f[0-9]+]], [[X]], [[Y]];
# CHECK-DAG:  abs.f32 [[AD:%f[0-9]+]], [[D]];
# CHECK-DAG:  abs.f32 [[AX:%f[0-9]+]], [[X]];
# CHECK-DAG:  abs.f32 [[AY:%f[0-9]+]], [[Y]];
# CHECK:      add{{(\.rn)?}}.f32 [[DEN:%f[0-9]+]], [[AX]], [[AY]];
# CHECK:      div.rn.f32 [[Q:%f[0-9]+]], [[AD]], [[DEN]];
# CHECK:      st.global.f32 [{{%rd[0-9]+}}], [[Q]];
# CHECK-NOT:  call
# CHECK-NOT:  .f64

# DEV-NOT:    .entry
# DEV:        .visible .func (.param .b32 func_retval0) rel_diff(
# DEV-NEXT:     .param .b64 rel_diff_param_0,
# DEV-NEXT:     .param .b64 rel_diff_param_1,
# DEV-NEXT:     .param .b32 rel_diff_param_2,
# DEV-NEXT:     .param .b32 rel_diff_param_3
# DEV-NEXT:   )
# DEV-DAG:    ld.param.u64 [[RET:%rd[0-9]+]], [rel_diff_param_0];
# DEV-DAG:    ld.param.f32 {{%f[0-9]+}}, [rel_diff_param_2];
# DEV-DAG:    ld.param.f32 {{%f[0-9]+}}, [rel_diff_param_3];
# DEV:        div.rn.f32 [[Q:%f[0-9]+]],
# DEV:        st.f32 [[[RET]]], [[Q]];
# DEV:        st.param.b32 [func_retval0+0], {{%r[0-9]+}};
# DEV:        ret;
# DEV-NOT:    .entry
