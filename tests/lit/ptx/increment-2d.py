# RUN: %kjitc --emit=ptx %s:increment_a_2D_array --sig="(float32[:, :],)" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# cuda.grid(2) reads the x and y registers; a 2-d array is passed as its data
# pointer, two extents and two strides. `an_array[x, y] += 1` loads and
# stores the same global element. ptxas/increment-2d.test assembles it.

from numba import cuda


@cuda.jit
def increment_a_2D_array(an_array):
    x, y = cuda.grid(2)
    if x < an_array.shape[0] and y < an_array.shape[1]:
        an_array[x, y] += 1

# CHECK:      .visible .entry increment_a_2D_array(
# CHECK-NEXT:   .param .u64 increment_a_2D_array_param_0,
# CHECK-NEXT:   .param .u64 increment_a_2D_array_param_1,
# CHECK-NEXT:   .param .u64 increment_a_2D_array_param_2,
# CHECK-NEXT:   .param .u64 increment_a_2D_array_param_3,
# CHECK-NEXT:   .param .u64 increment_a_2D_array_param_4
# CHECK-NEXT: )
# CHECK-DAG:  mov.u32 [[TX:%r[0-9]+]], %tid.x;
# CHECK-DAG:  mov.u32 [[CX:%r[0-9]+]], %ctaid.x;
# CHECK-DAG:  mov.u32 [[NX:%r[0-9]+]], %ntid.x;
# CHECK-DAG:  mul.wide.u32 {{%rd[0-9]+}}, [[CX]], [[NX]];
# CHECK-DAG:  mov.u32 [[TY:%r[0-9]+]], %tid.y;
# CHECK-DAG:  mov.u32 [[CY:%r[0-9]+]], %ctaid.y;
# CHECK-DAG:  mov.u32 [[NY:%r[0-9]+]], %ntid.y;
# CHECK-DAG:  mad.lo.s32 {{%r[0-9]+}}, [[CY]], [[NY]], [[TY]];
# The shape is parameters 1 and 2, the strides 3 and 4.
# CHECK-DAG:  ld.param.u64 {{%rd[0-9]+}}, [increment_a_2D_array_param_1];
# CHECK-DAG:  ld.param.u64 {{%rd[0-9]+}}, [increment_a_2D_array_param_2];
# CHECK:      and.pred
# CHECK:      ld.param.u64 [[DATA:%rd[0-9]+]], [increment_a_2D_array_param_0];
# CHECK:      cvta.to.global.u64 {{%rd[0-9]+}}, [[DATA]];
# CHECK:      ld.global.f32 [[OLD:%f[0-9]+]], [[[ADDR:%rd[0-9]+]]];
# CHECK-NEXT: add{{(\.rn)?}}.f32 [[NEW:%f[0-9]+]], [[OLD]], 0f3F800000;
# CHECK-NEXT: st.global.f32 [[[ADDR]]], [[NEW]];
# CHECK:      ret;
