# RUN: %kjitc --emit=ptx %s:dynamic --sig="(float32[:], int32[:])" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %kjitc --emit=ir --target=cuda %s:dynamic --sig="(float32[:], int32[:])" | FileCheck --check-prefix=IR %s
# cuda.shared.array(0, dtype) is dynamic shared memory, sized by the launch:
# an .extern .shared array with no size, and its length is
# %dynamic_smem_size / itemsize (a shift by 2 for float32).
# ptxas/dynamic-shared.test assembles it (an expected failure today: see
# tests/lit/CUDA_BUGS.txt).

from numba import cuda, float32


@cuda.jit
def dynamic(a, out):
    buf = cuda.shared.array(0, dtype=float32)
    t = cuda.threadIdx.x
    buf[t] = a[t]
    cuda.syncthreads()
    out[t] = buf.shape[0]

# CHECK:      .extern .shared .align 16 .b8 [[DYN:[^ ]+]][];
# CHECK:      .visible .entry dynamic(
# CHECK-NOT:  .shared
# CHECK:      mov.u32 [[BYTES:%r[0-9]+]], %dynamic_smem_size;
# CHECK:      shr.u32 [[N:%r[0-9]+]], [[BYTES]], 2;
# CHECK:      mov.u64 {{%rd[0-9]+}}, [[DYN]];
# CHECK:      st.shared.f32
# CHECK:      bar.sync 0;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[N]];

# IR:      {{^}}  buf: array(float32, 1d, C) = (shared.array) : array(float32, 1d, C){{$}}
