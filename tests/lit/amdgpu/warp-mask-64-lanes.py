# RUN: not %kjitc --emit=amdgcn --target=gfx90a %s:warp_sum --sig="(float32[::1],)" 2>&1 | FileCheck %s
# RUN: %kjitc --emit=amdgcn --target=gfx1030 %s:warp_sum --sig="(float32[::1],)" | FileCheck %s --check-prefix=RDNA
# A warp reduction written for 32 lanes (the 0xffffffff mask) is a located
# error on a 64-lane wavefront, where it would reduce only half of it; on a
# 32-lane RDNA GPU it compiles, the shuffles as ds_bpermute.

from numba import cuda


@cuda.jit
def warp_sum(x):
    i = cuda.grid(1)
    v = x[i]
    for off in (16, 8, 4, 2, 1):
        v += cuda.shfl_down_sync(0xffffffff, v, off)
    x[i] = v

# CHECK: warp-mask-64-lanes.py:15:34: error: cuda.shfl_down_sync(): the mask 0xffffffff names 32 lanes, but this GPU's wavefront has 64; use cuda.activemask(), or 0xffffffffffffffff for all 64 lanes
# CHECK-NEXT: File "{{.*}}warp-mask-64-lanes.py", line 15
# CHECK-NEXT:   v += cuda.shfl_down_sync(0xffffffff, v, off)
# CHECK-NEXT:                            ^^^^^^^^^^

# RDNA: warp_sum:
# RDNA: ds_bpermute_b32
# RDNA: .amdhsa_wavefront_size32 1
