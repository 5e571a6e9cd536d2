# RUN: %kjitc --emit=ptx %s:shuffles --sig="(int32[:], int32, int32[:])" > %t.i32.ptx
# RUN: FileCheck --check-prefix=B32 %s < %t.i32.ptx
# RUN: %kjitc --emit=ptx %s:shuffles --sig="(float32[:], int32, float32[:])" > %t.f32.ptx
# RUN: FileCheck --check-prefix=B32 %s < %t.f32.ptx
# RUN: %kjitc --emit=ptx %s:shuffles --sig="(float64[:], int32, float64[:])" > %t.f64.ptx
# RUN: FileCheck --check-prefix=B64 %s < %t.f64.ptx
# RUN: %kjitc --emit=ir --target=cuda %s:shuffles --sig="(float32[:], int32, float32[:])" | FileCheck --check-prefix=IR %s
# Warp shuffles: shfl_sync, shfl_up_sync, shfl_down_sync and shfl_xor_sync
# are shfl.sync.idx/up/down/bfly with Numba's clamp operands (0 for up, 31
# for the others) and the given member mask. 32-bit values (int32, and
# float32 through its bits) take one shuffle; 64-bit values two (low and
# high halves). The result has the type of the value. ptxas/warp-shuffle.test
# assembles them.

from numba import cuda


@cuda.jit
def shuffles(a, lane, out):
    i = cuda.threadIdx.x
    v = a[i]
    out[0] = cuda.shfl_sync(0xffffffff, v, lane)
    out[1] = cuda.shfl_up_sync(0xffffffff, v, 1)
    out[2] = cuda.shfl_down_sync(0xffffffff, v, 2)
    out[3] = cuda.shfl_xor_sync(0xffff, v, 16)

# B32:      ld.param.u32 [[LANE:%r[0-9]+]], [shuffles_param_3];
# B32:      ld.global.u32 [[V:%r[0-9]+]],
# B32-NEXT: shfl.sync.idx.b32 [[R:%r[0-9]+]], [[V]], [[LANE]], 31, -1;
# B32-NEXT: st.global.u32 [{{%rd[0-9]+}}], [[R]];
# B32-NEXT: shfl.sync.up.b32 [[R:%r[0-9]+]], [[V]], 1, 0, -1;
# B32:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# B32-NEXT: shfl.sync.down.b32 [[R:%r[0-9]+]], [[V]], 2, 31, -1;
# B32:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# B32-NEXT: shfl.sync.bfly.b32 [[R:%r[0-9]+]], [[V]], 16, 31, 65535;
# B32:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# B32-NEXT: ret;

# B64:      ld.param.u32 [[LANE:%r[0-9]+]], [shuffles_param_3];
# B64:      ld.global.u64
# B64:      shfl.sync.idx.b32 {{%r[0-9]+}}, [[LO:%r[0-9]+]], [[LANE]], 31, -1;
# B64:      shfl.sync.idx.b32 {{%r[0-9]+}}, [[HI:%r[0-9]+]], [[LANE]], 31, -1;
# B64:      st.global.u64
# B64:      shfl.sync.up.b32 {{%r[0-9]+}}, [[LO]], 1, 0, -1;
# B64-NEXT: shfl.sync.up.b32 {{%r[0-9]+}}, [[HI]], 1, 0, -1;
# B64:      st.global.u64
# B64:      shfl.sync.down.b32 {{%r[0-9]+}}, [[LO]], 2, 31, -1;
# B64-NEXT: shfl.sync.down.b32 {{%r[0-9]+}}, [[HI]], 2, 31, -1;
# B64:      st.global.u64
# B64:      shfl.sync.bfly.b32 {{%r[0-9]+}}, [[LO]], 16, 31, 65535;
# B64-NEXT: shfl.sync.bfly.b32 {{%r[0-9]+}}, [[HI]], 16, 31, 65535;
# B64:      st.global.u64
# B64-NEXT: ret;

# In the typed IR the mask is converted to int32, the result is float32, and
# the shuffle's mode is shown.
# IR:      {{^}}  (store out 0) = (shfl_sync.idx -1 v lane) : float32{{$}}
# IR-NEXT: {{^}}  (store out 1) = (shfl_sync.up -1 v 1) : float32{{$}}
# IR-NEXT: {{^}}  (store out 2) = (shfl_sync.down -1 v 2) : float32{{$}}
# IR-NEXT: {{^}}  (store out 3) = (shfl_sync.bfly 65535 v 16) : float32{{$}}
