# RUN: %kjitc --emit=ptx %s:fast_matmul --sig="(float32[:, :], float32[:, :], float32[:, :])" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: FileCheck --check-prefix=BAR %s < %t.ptx
# The shared-memory tiled matrix product of Numba's documentation: two
# TPB x TPB float32 tiles in .shared memory (TPB is a module constant),
# loaded from global memory between two barriers. The inner loop over the
# tile (a constant trip count) is unrolled into fmas on ld.shared.
# ptxas/matmul-shared.test assembles it.

from numba import cuda, float32

TPB = 16


@cuda.jit
def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)

    x, y = cuda.grid(2)

    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x

    tmp = float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]

        cuda.syncthreads()

        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]

        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp

# 16 * 16 * 4 bytes each, in the kernel's .shared window.
# CHECK:      .visible .entry fast_matmul(
# CHECK-COUNT-15: .param .u64 fast_matmul_param_{{[0-9]+}}
# CHECK-NEXT: )
# CHECK-NEXT: {
# CHECK:      .shared .align 16 .b8 [[SA:[A-Za-z0-9_$]+]][1024];
# CHECK:      .shared .align 16 .b8 [[SB:[A-Za-z0-9_$]+]][1024];
# CHECK-DAG:  mov.u32 {{%r[0-9]+}}, %nctaid.x;
# CHECK-DAG:  mov.u64 {{%rd[0-9]+}}, [[SA]];
# CHECK-DAG:  mov.u64 {{%rd[0-9]+}}, [[SB]];
# CHECK-DAG:  ld.shared.f32
# CHECK-DAG:  fma.rn.f32
# CHECK-DAG:  st.shared.u32 [{{%rd[0-9]+}}], {{%r[0-9]+}};
# CHECK-DAG:  ld.global.f32 [[FROMA:%f[0-9]+]],
# CHECK-DAG:  st.shared.f32 [{{%rd[0-9]+}}], [[FROMA]];
# CHECK-DAG:  st.global.f32
# CHECK:      ret;

# Both cuda.syncthreads() calls, and no other barrier.
# BAR-COUNT-2: bar.sync 0;
# BAR-NOT:     bar.
