# RUN: %kjitc --emit=ptx %s:shared_local --sig="(float32[:], float32[:])" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %kjitc --emit=ir --target=cuda %s:shared_local --sig="(float32[:], float32[:])" | FileCheck --check-prefix=IR %s
# Static shared arrays (shapes from module constants, 1-d and 2-d) are
# .shared variables of the kernel, of the shape's size in bytes, accessed
# with ld.shared/st.shared; a local array is the kernel's .local depot,
# accessed with ld.local/st.local. Both are C-contiguous arrays.
# ptxas/shared-local.test assembles it.

from numba import cuda, float32, float64, int32

N = 64
SHAPE = (4, 8)


@cuda.jit
def shared_local(a, out):
    s1 = cuda.shared.array(N, dtype=float32)
    s2 = cuda.shared.array(SHAPE, dtype=int32)
    loc = cuda.local.array(8, dtype=float64)
    t = cuda.threadIdx.x
    s1[t] = a[t]
    s2[t % 4, t % 8] = t
    for k in range(8):
        loc[k] = a[t + k]
    cuda.syncthreads()
    acc = float32(0)
    for k in range(8):
        acc += float32(loc[(t + k) % 8])
    out[t] = s1[N - 1 - t] + float32(s2[1, 2]) + acc

# CHECK:      .visible .entry shared_local(
# CHECK:      .local .align 8 .b8 __local_depot0[64];
# CHECK:      .shared .align 16 .b8 [[S1:[A-Za-z0-9_$]+]][256];
# CHECK:      .shared .align 16 .b8 [[S2:[A-Za-z0-9_$]+]][128];
# CHECK:      mov.u64 %SPL, __local_depot0;
# CHECK:      ld.global.f32 [[A:%f[0-9]+]],
# CHECK:      mov.u64 [[P1:%rd[0-9]+]], [[S1]];
# CHECK:      st.shared.f32 [{{%rd[0-9]+}}], [[A]];
# CHECK:      mov.u64 {{%rd[0-9]+}}, [[S2]];
# CHECK:      st.shared.u32 [{{%rd[0-9]+}}], {{%r[0-9]+}};
# CHECK-COUNT-8: st.local.f64
# CHECK:      bar.sync 0;
# CHECK-COUNT-8: ld.local.f64
# CHECK:      ld.shared.f32
# s2[1, 2]: (1 * 8 + 2) * 4 bytes in.
# CHECK:      ld.shared.u32 {{%r[0-9]+}}, [[[S2]]+40];
# CHECK:      st.global.f32
# CHECK-NEXT: ret;

# IR:      {{^}}def shared_local(a: array(float32, 1d, A), out: array(float32, 1d, A)) -> none{{$}}
# IR-NEXT: {{^}}  s1: array(float32, 1d, C) = (shared.array 64) : array(float32, 1d, C){{$}}
# IR-NEXT: {{^}}  s2: array(int32, 2d, C) = (shared.array 4 8) : array(int32, 2d, C){{$}}
# IR-NEXT: {{^}}  loc: array(float64, 1d, C) = (local.array 8) : array(float64, 1d, C){{$}}
