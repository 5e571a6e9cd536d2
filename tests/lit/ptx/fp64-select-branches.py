# REQUIRES: ptxas
# RUN: %kjitc --emit=ptx %s:sinexp --sig="(float32[:], float32[:])" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: %kjitc --emit=ptx %s:pick --sig="(float64[:], float64[:])" > %t.pick.ptx
# RUN: FileCheck --check-prefix=PICK %s < %t.pick.ptx
# RUN: %ptxas -arch=sm_90 %t.pick.ptx -o %t.pick.cubin
# float64 arithmetic stays under its branch on NVIDIA GPUs (as NVVM keeps
# it): LLVM's O3 flattens short if/else arms into selects, and a SELP.F64
# takes an FP64 issue slot as each speculated arm does, so libdevice's sin
# ran about 4 % more FP64 instructions per call than numba-cuda's. The only
# 64-bit float select left in sin is libdevice's choice between two
# constant coefficients; an if/else over float64 arithmetic in the kernel
# is a branch too.

import math
from numba import cuda


@cuda.jit
def sinexp(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        v = x[i]
        acc = 0.0
        for k in range(64):
            acc += math.sin(v * k) * math.exp(-v * k * 0.01)
        out[i] = acc


@cuda.jit
def pick(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        x = a[i]
        if x > 0.5:
            y = x * x + 1.0
        else:
            y = x / 3.0
        out[i] = y

# CHECK:      .visible .entry sinexp(
# CHECK:      selp.f64 {{.*}}, 0d3DE5DB65F9785EBA, 0dBDA8FF8320FD8164
# CHECK-NOT:  selp.f64 {{%fd[0-9]+}}, {{%fd[0-9]+}}, {{%fd[0-9]+}}
# CHECK:      ret;

# PICK:       .visible .entry pick(
# PICK-NOT:   selp.f64
# PICK:       div.rn.f64
# PICK-NOT:   selp.f64
# PICK:       ret;
