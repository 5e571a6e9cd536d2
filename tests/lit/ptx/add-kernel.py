# RUN: %kjitc --emit=ptx %s:add_kernel --sig="(float32[:], float32[:], float32[:])" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# The grid-stride loop of Numba's CUDA documentation. Each 1-d array
# argument is passed flattened, as Numba passes it: the data pointer, the
# shape and the stride (three .u64 parameters). The data is global memory.
# cuda.grid(1) is %ctaid.x * %ntid.x + %tid.x in 32 bits; cuda.gridsize(1)
# is %ntid.x * %nctaid.x. ptxas/add-kernel.test assembles this PTX.

from numba import cuda


@cuda.jit
def add_kernel(x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = x[i] + y[i]

# CHECK:      .version {{[0-9]+\.[0-9]+}}
# CHECK-NEXT: .target sm_90
# CHECK-NEXT: .address_size 64
# CHECK:      .visible .entry add_kernel(
# CHECK-NEXT:   .param .u64 add_kernel_param_0,
# CHECK-NEXT:   .param .u64 add_kernel_param_1,
# CHECK-NEXT:   .param .u64 add_kernel_param_2,
# CHECK-NEXT:   .param .u64 add_kernel_param_3,
# CHECK-NEXT:   .param .u64 add_kernel_param_4,
# CHECK-NEXT:   .param .u64 add_kernel_param_5,
# CHECK-NEXT:   .param .u64 add_kernel_param_6,
# CHECK-NEXT:   .param .u64 add_kernel_param_7,
# CHECK-NEXT:   .param .u64 add_kernel_param_8
# CHECK-NEXT: )
# CHECK-DAG:  mov.u32 [[TID:%r[0-9]+]], %tid.x;
# CHECK-DAG:  mov.u32 [[CTAID:%r[0-9]+]], %ctaid.x;
# CHECK-DAG:  mov.u32 [[NTID:%r[0-9]+]], %ntid.x;
# CHECK:      mul.wide.u32 {{%rd[0-9]+}}, [[CTAID]], [[NTID]];
# The stride, outside the loop.
# CHECK:      mov.u32 [[NCTAID:%r[0-9]+]], %nctaid.x;
# CHECK:      mul.wide.u32 {{%rd[0-9]+}}, [[NTID]], [[NCTAID]];
# The loop: the index never goes negative (it starts at cuda.grid(1) and
# grows), so no wraparound; the three addresses advance by their strides.
# CHECK:      [[LOOP:\$L__BB0_[0-9]+]]:
# CHECK-NEXT: ld.global.f32
# CHECK-NEXT: ld.global.f32
# CHECK-NEXT: add{{(\.rn)?}}.f32
# CHECK-NEXT: st.global.f32
# CHECK-NEXT: add.s64
# CHECK-NEXT: add.s64
# CHECK-NEXT: add.s64
# CHECK-NEXT: add.s64
# CHECK-NEXT: setp.lt.s64
# CHECK-NEXT: @%p{{[0-9]+}} bra [[LOOP]];
# CHECK:      ret;
# CHECK-NOT:  .extern
