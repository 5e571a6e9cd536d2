# RUN: %kjitc --emit=ptx %s:inc_dec --sig="(uint32[:], int64, uint32, uint32[:])" > %t.u32.ptx
# RUN: FileCheck --check-prefix=INC32 %s < %t.u32.ptx
# RUN: %kjitc --emit=ptx %s:inc_dec --sig="(uint64[:], int64, uint64, uint64[:])" > %t.u64.ptx
# RUN: FileCheck --check-prefix=INC64 %s < %t.u64.ptx
# RUN: %kjitc --emit=ptx %s:cas --sig="(int32[:], int64, int32, int32, int32[:])" > %t.cas32.ptx
# RUN: FileCheck --check-prefix=CAS32 %s < %t.cas32.ptx
# RUN: %kjitc --emit=ptx %s:cas --sig="(uint64[:], int64, uint64, uint64, uint64[:])" > %t.cas64.ptx
# RUN: FileCheck --check-prefix=CAS64 %s < %t.cas64.ptx
# RUN: %kjitc --emit=ptx %s:atomic_2d --sig="(float32[:, :], float32)" > %t.2d.ptx
# RUN: FileCheck --check-prefix=TWOD %s < %t.2d.ptx
# RUN: %kjitc --emit=ptx %s:shared_atomics --sig="(int32[:], float32[:])" > %t.shared.ptx
# RUN: FileCheck --check-prefix=SHARED %s < %t.shared.ptx
# RUN: %kjitc --emit=ir --target=cuda %s:cas --sig="(int32[:], int64, int32, int32, int32[:])" | FileCheck --check-prefix=IR %s
# The other atomics:
# - inc and dec (uint32, uint64) with Numba's wrap-around rules, as
#   compare-and-swap loops: inc stores old >= v ? 0 : old + 1, dec stores
#   (old == 0 or old > v) ? v : old - 1;
# - compare_and_swap(a, old, new) on a[0] and cas(a, i, old, new): one
#   atom.cas each, returning the old value;
# - on a 2-d array the index is a tuple;
# - on a shared array the atomics are atom.shared.
# ptxas/atomics-other.test assembles them all.

from numba import cuda, float32, int32


@cuda.jit
def inc_dec(a, i, v, out):
    out[0] = cuda.atomic.inc(a, i, v)
    out[1] = cuda.atomic.dec(a, i, v)


@cuda.jit
def cas(a, i, old, new, out):
    out[0] = cuda.atomic.compare_and_swap(a, old, new)
    out[1] = cuda.atomic.cas(a, i, old, new)


@cuda.jit
def atomic_2d(a, v):
    x, y = cuda.grid(2)
    cuda.atomic.add(a, (x, y), v)
    cuda.atomic.max(a, (y, x), v)


@cuda.jit
def shared_atomics(keys, out):
    counts = cuda.shared.array(32, dtype=int32)
    sums = cuda.shared.array(32, dtype=float32)
    t = cuda.threadIdx.x
    counts[t] = 0
    sums[t] = 0
    cuda.syncthreads()
    k = keys[cuda.grid(1)] % 32
    cuda.atomic.add(counts, k, 1)
    cuda.atomic.add(sums, k, float32(0.5))
    cuda.syncthreads()
    out[t] = float32(counts[t]) + sums[t]

# INC32:      ld.param.u32 [[V:%r[0-9]+]], [inc_dec_param_4];
# INC32:      ld.global.u32 {{%r[0-9]+}}, [[[P:%rd[0-9]+]]];
# INC32-NEXT: [[INC:\$L__BB0_[0-9]+]]:
# INC32-NEXT: add.s32 [[PLUS:%r[0-9]+]], [[OLD:%r[0-9]+]], 1;
# INC32-NEXT: setp.ge.u32 [[WRAP:%p[0-9]+]], [[OLD]], [[V]];
# INC32-NEXT: selp.b32 [[NEW:%r[0-9]+]], 0, [[PLUS]], [[WRAP]];
# INC32-NEXT: atom.global.cas.b32 {{%r[0-9]+}}, [[[P]]], [[OLD]], [[NEW]];
# INC32:      @%p{{[0-9]+}} bra [[INC]];
# INC32:      [[DEC:\$L__BB0_[0-9]+]]:
# INC32-NEXT: add.s32 {{%r[0-9]+}}, [[OLD:%r[0-9]+]], -1;
# INC32-DAG:  setp.eq.s32 {{%p[0-9]+}}, [[OLD]], 0;
# INC32-DAG:  setp.gt.u32 {{%p[0-9]+}}, [[OLD]], [[V]];
# INC32:      atom.global.cas.b32 {{%r[0-9]+}}, [[[P]]], [[OLD]],
# INC32:      @%p{{[0-9]+}} bra [[DEC]];
# INC32-NOT:  atom.
# INC32:      ret;

# INC64:      ld.param.u64 [[V:%rd[0-9]+]], [inc_dec_param_4];
# INC64:      [[INC:\$L__BB0_[0-9]+]]:
# INC64-NEXT: add.s64 {{%rd[0-9]+}}, [[OLD:%rd[0-9]+]], 1;
# INC64-NEXT: setp.ge.u64 {{%p[0-9]+}}, [[OLD]], [[V]];
# INC64:      atom.global.cas.b64
# INC64:      @%p{{[0-9]+}} bra [[INC]];
# INC64:      [[DEC:\$L__BB0_[0-9]+]]:
# INC64-NEXT: add.s64 {{%rd[0-9]+}}, [[OLD:%rd[0-9]+]], -1;
# INC64-DAG:  setp.eq.s64 {{%p[0-9]+}}, [[OLD]], 0;
# INC64-DAG:  setp.gt.u64 {{%p[0-9]+}}, [[OLD]], [[V]];
# INC64:      atom.global.cas.b64
# INC64:      @%p{{[0-9]+}} bra [[DEC]];

# CAS32-DAG:  ld.param.u32 [[OLD:%r[0-9]+]], [cas_param_4];
# CAS32-DAG:  ld.param.u32 [[NEW:%r[0-9]+]], [cas_param_5];
# CAS32:      atom.global.cas.b32 {{%r[0-9]+}}, [{{%rd[0-9]+}}], [[OLD]], [[NEW]];
# CAS32:      atom.global.cas.b32 {{%r[0-9]+}}, [{{%rd[0-9]+}}], [[OLD]], [[NEW]];
# CAS32-NOT:  atom.
# CAS32-NOT:  @%p{{[0-9]+}} bra

# CAS64-DAG:  ld.param.u64 [[OLD:%rd[0-9]+]], [cas_param_4];
# CAS64-DAG:  ld.param.u64 [[NEW:%rd[0-9]+]], [cas_param_5];
# CAS64:      atom.global.cas.b64 {{%rd[0-9]+}}, [{{%rd[0-9]+}}], [[OLD]], [[NEW]];
# CAS64:      atom.global.cas.b64 {{%rd[0-9]+}}, [{{%rd[0-9]+}}], [[OLD]], [[NEW]];

# TWOD:       .param .f32 atomic_2d_param_5
# TWOD:       ld.param.f32 [[V:%f[0-9]+]], [atomic_2d_param_5];
# TWOD:       atom.global.add.f32 {{%f[0-9]+}}, [{{%rd[0-9]+}}], [[V]];
# TWOD:       [[MAX:\$L__BB0_[0-9]+]]:
# TWOD:       atom.global.cas.b32
# TWOD:       @%p{{[0-9]+}} bra [[MAX]];

# SHARED:     .shared .align 16 .b8 [[COUNTS:[A-Za-z0-9_$]+]][128];
# SHARED:     .shared .align 16 .b8 [[SUMS:[A-Za-z0-9_$]+]][128];
# SHARED:     bar.sync 0;
# SHARED:     atom.shared.add.u32 {{%r[0-9]+}}, [{{%rd[0-9]+}}], 1;
# SHARED:     atom.shared.add.f32 {{%f[0-9]+}}, [{{%rd[0-9]+}}], 0f3F000000;
# SHARED:     bar.sync 0;
# SHARED-NOT: atom.global

# IR:      {{^}}def cas(a: array(int32, 1d, A), i: int64, old: int32, new: int32, out: array(int32, 1d, A)) -> none{{$}}
# IR-NEXT: {{^}}  (store out 0) = (atomic.cas a 0 old new) : int32{{$}}
# IR-NEXT: {{^}}  (store out 1) = (atomic.cas a i old new) : int32{{$}}
# IR-NOT:  {{.}}
