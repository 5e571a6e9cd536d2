# RUN: %kjitc --emit=ptx %s:block_sum --sig="(float32[:], float32[:])" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# A shared-memory block reduction: each thread stores its element into a
# 128-float32 shared array (512 bytes), then a tree of halving steps, each
# ended by a barrier; thread 0 writes the block's sum. The barrier in the
# loop stays in the loop. ptxas/block-reduction.test assembles it.

from numba import cuda, float32

THREADS = 128


@cuda.jit
def block_sum(a, partial):
    tmp = cuda.shared.array(THREADS, dtype=float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    tmp[tid] = 0
    if i < a.shape[0]:
        tmp[tid] = a[i]
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tid < s:
            tmp[tid] += tmp[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = tmp[0]

# CHECK:      .visible .entry block_sum(
# CHECK:      .shared .align 16 .b8 [[TMP:[A-Za-z0-9_$]+]][512];
# CHECK:      mov.u64 {{%rd[0-9]+}}, [[TMP]];
# CHECK:      st.shared.u32 [{{%rd[0-9]+}}], {{%r[0-9]+}};
# CHECK:      ld.global.f32 [[A:%f[0-9]+]],
# CHECK-NEXT: st.shared.f32 [{{%rd[0-9]+}}], [[A]];
# CHECK:      bar.sync 0;
# The loop: its barrier, then the test that goes back to the top.
# CHECK:      bar.sync 0;
# CHECK-NEXT: shr.u64
# CHECK-DAG:  ld.shared.f32 [[L:%f[0-9]+]],
# CHECK-DAG:  ld.shared.f32 [[R:%f[0-9]+]],
# CHECK:      add{{(\.rn)?}}.f32 [[S:%f[0-9]+]], [[L]], [[R]];
# CHECK-NEXT: st.shared.f32 [{{%rd[0-9]+}}], [[S]];
