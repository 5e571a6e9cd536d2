# RUN: %kjitc --emit=ptx %s:float_atomics --sig="(float32[:], int64, float32, float32[:])" > %t.float32.ptx
# RUN: FileCheck --check-prefix=F32 %s < %t.float32.ptx
# RUN: %kjitc --emit=ptx %s:float_atomics --sig="(float64[:], int64, float64, float64[:])" > %t.float64.ptx
# RUN: FileCheck --check-prefix=F64 %s < %t.float64.ptx
# Atomics on float32 and float64 arrays: add is a native atom.global.add.f32
# / .f64 (sm_60 and later); sub is a compare-and-swap loop on the bits; max
# and min are CAS loops that keep NaN (max/min) or ignore it (nanmax/nanmin),
# each loop retrying until the swap sees the value it read.
# ptxas/atomics-float.test assembles both.

from numba import cuda


@cuda.jit
def float_atomics(a, i, v, out):
    out[0] = cuda.atomic.add(a, i, v)
    out[1] = cuda.atomic.sub(a, i, v)
    out[2] = cuda.atomic.max(a, i, v)
    out[3] = cuda.atomic.min(a, i, v)
    out[4] = cuda.atomic.nanmax(a, i, v)
    out[5] = cuda.atomic.nanmin(a, i, v)

# F32:      ld.param.f32 [[V:%f[0-9]+]], [float_atomics_param_4];
# F32:      atom.global.add.f32 {{%f[0-9]+}}, [[[P:%rd[0-9]+]]], [[V]];
# F32:      [[SUB:\$L__BB0_[0-9]+]]:
# F32-NEXT: sub{{(\.rn)?}}.f32 {{%f[0-9]+}}, {{%f[0-9]+}}, [[V]];
# F32:      atom.global.cas.b32 {{%r[0-9]+}}, [[[P]]],
# F32:      @%p{{[0-9]+}} bra [[SUB]];
# F32:      [[MAX:\$L__BB0_[0-9]+]]:
# F32:      setp.lt.f32 {{%p[0-9]+}}, {{%f[0-9]+}}, [[V]];
# F32:      atom.global.cas.b32 {{%r[0-9]+}}, [[[P]]],
# F32:      @%p{{[0-9]+}} bra [[MAX]];
# F32:      [[MIN:\$L__BB0_[0-9]+]]:
# F32:      setp.gt.f32 {{%p[0-9]+}}, {{%f[0-9]+}}, [[V]];
# F32:      atom.global.cas.b32 {{%r[0-9]+}}, [[[P]]],
# F32:      @%p{{[0-9]+}} bra [[MIN]];
# F32:      [[NANMAX:\$L__BB0_[0-9]+]]:
# F32:      setp.lt.f32 {{%p[0-9]+}}, {{%f[0-9]+}}, [[V]];
# F32:      atom.global.cas.b32 {{%r[0-9]+}}, [[[P]]],
# F32:      @%p{{[0-9]+}} bra [[NANMAX]];
# F32:      [[NANMIN:\$L__BB0_[0-9]+]]:
# F32:      setp.gt.f32 {{%p[0-9]+}}, {{%f[0-9]+}}, [[V]];
# F32:      atom.global.cas.b32 {{%r[0-9]+}}, [[[P]]],
# F32:      @%p{{[0-9]+}} bra [[NANMIN]];
# F32-NOT:  atom.
# F32:      ret;

# F64:      ld.param.f64 [[V:%fd[0-9]+]], [float_atomics_param_4];
# F64:      atom.global.add.f64 {{%fd[0-9]+}}, [[[P:%rd[0-9]+]]], [[V]];
# F64:      [[SUB:\$L__BB0_[0-9]+]]:
# F64-NEXT: sub{{(\.rn)?}}.f64 {{%fd[0-9]+}}, {{%fd[0-9]+}}, [[V]];
# F64:      atom.global.cas.b64 {{%rd[0-9]+}}, [[[P]]],
# F64:      @%p{{[0-9]+}} bra [[SUB]];
# F64:      [[MAX:\$L__BB0_[0-9]+]]:
# F64:      setp.lt.f64 {{%p[0-9]+}}, {{%fd[0-9]+}}, [[V]];
# F64:      atom.global.cas.b64 {{%rd[0-9]+}}, [[[P]]],
# F64:      @%p{{[0-9]+}} bra [[MAX]];
# F64:      [[MIN:\$L__BB0_[0-9]+]]:
# F64:      setp.gt.f64 {{%p[0-9]+}}, {{%fd[0-9]+}}, [[V]];
# F64:      atom.global.cas.b64 {{%rd[0-9]+}}, [[[P]]],
# F64:      @%p{{[0-9]+}} bra [[MIN]];
# F64:      [[NANMAX:\$L__BB0_[0-9]+]]:
# F64:      setp.lt.f64 {{%p[0-9]+}}, {{%fd[0-9]+}}, [[V]];
# F64:      atom.global.cas.b64 {{%rd[0-9]+}}, [[[P]]],
# F64:      @%p{{[0-9]+}} bra [[NANMAX]];
# F64:      [[NANMIN:\$L__BB0_[0-9]+]]:
# F64:      setp.gt.f64 {{%p[0-9]+}}, {{%fd[0-9]+}}, [[V]];
# F64:      atom.global.cas.b64 {{%rd[0-9]+}}, [[[P]]],
# F64:      @%p{{[0-9]+}} bra [[NANMIN]];
# F64-NOT:  atom.
# F64:      ret;
