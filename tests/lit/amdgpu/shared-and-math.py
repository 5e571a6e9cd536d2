# REQUIRES: rocm-device-libs
# RUN: %kjitc --emit=amdgcn --target=gfx1030 %s:smooth --sig="(float64[::1], float64[::1])" | FileCheck %s
# RUN: %kjitc --emit=hsaco --target=gfx1030 -o %t.hsaco %s:smooth --sig="(float64[::1], float64[::1])"
# RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=NOTES
# A shared array (LDS: 128 float64 = 1024 bytes), syncthreads (fences
# around s_barrier) and math through ocml (linked in-process, internal,
# inlined) on an RDNA GPU: 32-lane wavefronts.

import math

import numpy as np
from numba import cuda


@cuda.jit
def smooth(x, out):
    s = cuda.shared.array(128, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = x[i]
    cuda.syncthreads()
    out[i] = math.exp(s[(t + 1) % 128]) * math.sin(s[t])

# CHECK:      .amdgcn_target "amdgcn-amd-amdhsa--gfx1030"
# CHECK:      smooth:
# CHECK:      ds_write_b64
# CHECK:      s_barrier
# CHECK:      ds_read_b64
# CHECK-NOT:  __ocml_
# CHECK:      .amdhsa_group_segment_fixed_size 1024
# CHECK:      .amdhsa_wavefront_size32 1

# NOTES:      .group_segment_fixed_size: 1024
# NOTES:      .name: smooth
# NOTES:      .wavefront_size: 32
