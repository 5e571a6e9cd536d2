# RUN: %kjitc --emit=ptx %s:votes --sig="(int32[:], int32[:])" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %kjitc --emit=ptx %s:match64 --sig="(float64[:], int32[:])" > %t.64.ptx
# RUN: FileCheck --check-prefix=M64 %s < %t.64.ptx
# RUN: %kjitc --emit=ir --target=cuda %s:votes --sig="(int32[:], int32[:])" | FileCheck --check-prefix=IR %s
# Warp votes and masks: all_sync/any_sync/eq_sync are vote.sync.all/any/uni
# on a predicate (bool results), ballot_sync is vote.sync.ballot.b32
# (int32), match_any_sync is match.any.sync.b32 (b64 for 64-bit values,
# through the bits of a float64), activemask is activemask.b32 and
# lanemask_lt reads %lanemask_lt (both uint32, as in Numba).
# ptxas/warp-vote.test assembles them.

from numba import cuda


@cuda.jit
def votes(a, out):
    i = cuda.threadIdx.x
    p = a[i] > 0
    out[0] = cuda.all_sync(0xffffffff, p)
    out[1] = cuda.any_sync(0xffffffff, p)
    out[2] = cuda.eq_sync(0xffffffff, p)
    out[3] = cuda.ballot_sync(0xffffffff, p)
    out[4] = cuda.match_any_sync(0xffffffff, a[i])
    out[5] = cuda.activemask()
    out[6] = cuda.lanemask_lt()


@cuda.jit
def match64(a, out):
    i = cuda.threadIdx.x
    out[i] = cuda.match_any_sync(0xffffffff, a[i])

# CHECK:      setp.gt.s32 [[P:%p[0-9]+]], {{%r[0-9]+}}, 0;
# CHECK-NEXT: vote.sync.all.pred [[ALL:%p[0-9]+]], [[P]], -1;
# CHECK-NEXT: selp.u32 [[R:%r[0-9]+]], 1, 0, [[ALL]];
# CHECK-NEXT: st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK-NEXT: vote.sync.any.pred [[ANY:%p[0-9]+]], [[P]], -1;
# CHECK-NEXT: selp.u32 [[R:%r[0-9]+]], 1, 0, [[ANY]];
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK-NEXT: vote.sync.uni.pred [[UNI:%p[0-9]+]], [[P]], -1;
# CHECK-NEXT: selp.u32 [[R:%r[0-9]+]], 1, 0, [[UNI]];
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK-NEXT: vote.sync.ballot.b32 [[R:%r[0-9]+]], [[P]], -1;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK:      match.any.sync.b32 [[R:%r[0-9]+]], {{%r[0-9]+}}, -1;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK-NEXT: activemask.b32 [[R:%r[0-9]+]];
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK-NEXT: mov.u32 [[R:%r[0-9]+]], %lanemask_lt;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK-NEXT: ret;

# M64:        ld.global.u64 [[V:%rd[0-9]+]],
# M64:        match.any.sync.b64 [[R:%r[0-9]+]], [[V]], -1;
# M64:        st.global.u32 [{{%rd[0-9]+}}], [[R]];

# The result types, and the vote modes.
# IR:      {{^}}  p: bool = (> (int64 (load a (int64 i))) 0){{$}}
# IR-NEXT: {{^}}  (store out 0) = (int32 (vote_sync.all -1 p) : bool){{$}}
# IR-NEXT: {{^}}  (store out 1) = (int32 (vote_sync.any -1 p) : bool){{$}}
# IR-NEXT: {{^}}  (store out 2) = (int32 (vote_sync.uni -1 p) : bool){{$}}
# IR-NEXT: {{^}}  (store out 3) = (vote_sync.ballot -1 p) : int32{{$}}
# IR-NEXT: {{^}}  (store out 4) = (match_any_sync -1 (load a (int64 i))) : int32{{$}}
# IR-NEXT: {{^}}  (store out 5) = (int32 (activemask) : uint32){{$}}
# IR-NEXT: {{^}}  (store out 6) = (int32 (lanemask_lt) : uint32){{$}}
# IR-NOT:  {{.}}
