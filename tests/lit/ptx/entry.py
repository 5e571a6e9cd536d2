# RUN: %kjitc --emit=ptx %s:entry --sig="(int32, float64, boolean, float64[:], float32[:, ::1], int16[:, :, :])" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %kjitc --emit=ptx %s:entry --sig="(int32, float64, boolean, float64[:], float32[:, ::1], int16[:, :, :])" --cc=80 > %t.80.ptx
# RUN: FileCheck --check-prefix=CC80 %s < %t.80.ptx
# RUN: %kjitc --emit=ptx %s:with_tuple --sig="(UniTuple(int64, 2), int64[:])" > %t.tuple.ptx
# RUN: FileCheck --check-prefix=TUPLE %s < %t.tuple.ptx
# RUN: %kjitc --emit=ptx %s:scale --sig="(float64, int32)" --device > %t.dev.ptx
# RUN: FileCheck --check-prefix=DEV %s < %t.dev.ptx
# RUN: %kjitc --emit=llvm --target=cuda %s:entry --sig="(int32, float64, boolean, float64[:], float32[:, ::1], int16[:, :, :])" | FileCheck --check-prefix=LLVM %s
# The kernel entry point (written with `from kjit import cuda`): a
# .visible .entry named after the function, for the target of --cc
# (default sm_90), with one parameter per scalar argument in its own type
# (bool is .u8), and each array flattened into its data pointer followed by
# its extents and its strides in bytes (1 + 2 * ndim .u64 parameters), as
# Numba passes them; a tuple is one aligned aggregate parameter. The kernel
# is annotated as a kernel in nvvm.annotations. A device function compiled
# alone (--device) is a .visible .func returning a status, its result
# stored through the first parameter. ptxas/entry.test assembles these.

from kjit import cuda


@cuda.jit
def entry(n, x, flag, a, b, c):
    if flag:
        a[0] = n + x
    b[0, 0] = c[0, 0, 0]


@cuda.jit
def with_tuple(t, a):
    a[0] = t[0] + t[1]


@cuda.jit(device=True)
def scale(x, k):
    return x * k

# CHECK:      .version {{[0-9]+\.[0-9]+}}
# CHECK-NEXT: .target sm_90
# CHECK-NEXT: .address_size 64
# CHECK:      // .globl entry
# CHECK:      .visible .entry entry(
# CHECK-NEXT:   .param .u32 entry_param_0,
# CHECK-NEXT:   .param .f64 entry_param_1,
# CHECK-NEXT:   .param .u8 entry_param_2,
# a: data, shape, stride.
# CHECK-NEXT:   .param .u64 entry_param_3,
# CHECK-NEXT:   .param .u64 entry_param_4,
# CHECK-NEXT:   .param .u64 entry_param_5,
# b: data, 2 extents, 2 strides.
# CHECK-NEXT:   .param .u64 entry_param_6,
# CHECK-NEXT:   .param .u64 entry_param_7,
# CHECK-NEXT:   .param .u64 entry_param_8,
# CHECK-NEXT:   .param .u64 entry_param_9,
# CHECK-NEXT:   .param .u64 entry_param_10,
# c: data, 3 extents, 3 strides.
# CHECK-NEXT:   .param .u64 entry_param_11,
# CHECK-NEXT:   .param .u64 entry_param_12,
# CHECK-NEXT:   .param .u64 entry_param_13,
# CHECK-NEXT:   .param .u64 entry_param_14,
# CHECK-NEXT:   .param .u64 entry_param_15,
# CHECK-NEXT:   .param .u64 entry_param_16,
# CHECK-NEXT:   .param .u64 entry_param_17
# CHECK-NEXT: )
# CHECK-NEXT: {
# CHECK-DAG:  ld.param.u64 [[A:%rd[0-9]+]], [entry_param_3];
# CHECK-DAG:  cvta.to.global.u64 {{%rd[0-9]+}}, [[A]];
# CHECK-DAG:  ld.param.u64 [[B:%rd[0-9]+]], [entry_param_6];
# CHECK-DAG:  cvta.to.global.u64 {{%rd[0-9]+}}, [[B]];
# CHECK-DAG:  ld.param.u64 [[C:%rd[0-9]+]], [entry_param_11];
# CHECK-DAG:  cvta.to.global.u64 {{%rd[0-9]+}}, [[C]];
# CHECK-DAG:  ld.param.u8 {{%rs[0-9]+}}, [entry_param_2];
# CHECK-DAG:  ld.param.u32 {{%r[0-9]+}}, [entry_param_0];
# CHECK-DAG:  ld.param.f64 {{%fd[0-9]+}}, [entry_param_1];
# CHECK-DAG:  ld.global.u16
# CHECK-DAG:  st.global.f32
# CHECK-DAG:  st.global.f64
# CHECK:      ret;

# CC80:       .target sm_80
# CC80:       .visible .entry entry(

# TUPLE:      .visible .entry with_tuple(
# TUPLE-NEXT:   .param .align 8 .b8 with_tuple_param_0[16],
# TUPLE-NEXT:   .param .u64 with_tuple_param_1,
# TUPLE-NEXT:   .param .u64 with_tuple_param_2,
# TUPLE-NEXT:   .param .u64 with_tuple_param_3
# TUPLE-NEXT: )
# TUPLE-DAG:  ld.param.u64 {{%rd[0-9]+}}, [with_tuple_param_0];
# TUPLE-DAG:  ld.param.u64 {{%rd[0-9]+}}, [with_tuple_param_0+8];

# DEV-NOT:    .entry
# DEV:        // .globl scale
# DEV:        .visible .func (.param .b32 func_retval0) scale(
# DEV-NEXT:     .param .b64 scale_param_0,
# DEV-NEXT:     .param .b64 scale_param_1,
# DEV-NEXT:     .param .b64 scale_param_2,
# DEV-NEXT:     .param .b32 scale_param_3
# DEV-NEXT:   )
# DEV-DAG:    ld.param.u64 [[RET:%rd[0-9]+]], [scale_param_0];
# DEV-DAG:    ld.param.f64 {{%fd[0-9]+}}, [scale_param_2];
# DEV-DAG:    ld.param.u32 [[K:%r[0-9]+]], [scale_param_3];
# DEV-DAG:    cvt.rn.f64.s32 {{%fd[0-9]+}}, [[K]];
# DEV:        mul{{(\.rn)?}}.f64 [[R:%fd[0-9]+]], {{%fd[0-9]+}}, {{%fd[0-9]+}};
# DEV:        st.f64 [[[RET]]], [[R]];
# DEV:        st.param.b32 [func_retval0+0], {{%r[0-9]+}};
# DEV-NEXT:   ret;
# DEV-NOT:    .entry

# LLVM:       define void @entry(i32 %n, double %x, i1 %flag, ptr noundef %a.data, i64 %a.shape0, i64 %a.stride0, ptr noundef %b.data, i64 %b.shape0, i64 %b.shape1, i64 %b.stride0, i64 %b.stride1, ptr noundef %c.data, i64 %c.shape0, i64 %c.shape1, i64 %c.shape2, i64 %c.stride0, i64 %c.stride1, i64 %c.stride2)
# LLVM:       !nvvm.annotations = !{![[MD:[0-9]+]]}
# LLVM:       ![[MD]] = !{ptr @entry, !"kernel", i32 1}
