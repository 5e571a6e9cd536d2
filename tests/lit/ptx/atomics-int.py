# RUN: %kjitc --emit=ptx %s:int_atomics --sig="(int32[:], int64, int32, int32[:])" > %t.int32.ptx
# RUN: FileCheck --check-prefix=I32 %s < %t.int32.ptx
# RUN: %kjitc --emit=ptx %s:int_atomics --sig="(uint32[:], int64, uint32, uint32[:])" > %t.uint32.ptx
# RUN: FileCheck --check-prefix=U32 %s < %t.uint32.ptx
# RUN: %kjitc --emit=ptx %s:int_atomics --sig="(int64[:], int64, int64, int64[:])" > %t.int64.ptx
# RUN: FileCheck --check-prefix=I64 %s < %t.int64.ptx
# RUN: %kjitc --emit=ptx %s:int_atomics --sig="(uint64[:], int64, uint64, uint64[:])" > %t.uint64.ptx
# RUN: FileCheck --check-prefix=U64 %s < %t.uint64.ptx
# Every integer atomic on each integer dtype Numba supports (int32, uint32,
# int64, uint64), in program order, on one global element: atomicrmw
# becomes atom.global.<op>; sub is an add of the negated value; and/or/xor/
# exch are untyped (.b32/.b64); max/min are signed or unsigned by dtype, and
# nanmax/nanmin on integers are max/min. Each returns the old value (it is
# stored, so atom, not red). ptxas/atomics-int.test assembles all four.

from numba import cuda


@cuda.jit
def int_atomics(a, i, v, out):
    out[0] = cuda.atomic.add(a, i, v)
    out[1] = cuda.atomic.sub(a, i, v)
    out[2] = cuda.atomic.and_(a, i, v)
    out[3] = cuda.atomic.or_(a, i, v)
    out[4] = cuda.atomic.xor(a, i, v)
    out[5] = cuda.atomic.exch(a, i, v)
    out[6] = cuda.atomic.max(a, i, v)
    out[7] = cuda.atomic.min(a, i, v)
    out[8] = cuda.atomic.nanmax(a, i, v)
    out[9] = cuda.atomic.nanmin(a, i, v)

# I32:      .param .u32 int_atomics_param_4,
# I32:      ld.param.u32 [[V:%r[0-9]+]], [int_atomics_param_4];
# I32:      atom.global.add.u32 {{%r[0-9]+}}, [[[P:%rd[0-9]+]]], [[V]];
# I32:      neg.s32 temp, [[V]];
# I32-NEXT: atom.global.add.u32 {{%r[0-9]+}}, [[[P]]], temp;
# I32:      atom.global.and.b32 {{%r[0-9]+}}, [[[P]]], [[V]];
# I32:      atom.global.or.b32 {{%r[0-9]+}}, [[[P]]], [[V]];
# I32:      atom.global.xor.b32 {{%r[0-9]+}}, [[[P]]], [[V]];
# I32:      atom.global.exch.b32 {{%r[0-9]+}}, [[[P]]], [[V]];
# I32:      atom.global.max.s32 {{%r[0-9]+}}, [[[P]]], [[V]];
# I32:      atom.global.min.s32 {{%r[0-9]+}}, [[[P]]], [[V]];
# I32:      atom.global.max.s32 {{%r[0-9]+}}, [[[P]]], [[V]];
# I32:      atom.global.min.s32 {{%r[0-9]+}}, [[[P]]], [[V]];
# I32-NOT:  atom.
# I32-NOT:  red.

# U32:      .param .u32 int_atomics_param_4,
# U32:      ld.param.u32 [[V:%r[0-9]+]], [int_atomics_param_4];
# U32:      atom.global.add.u32 {{%r[0-9]+}}, [[[P:%rd[0-9]+]]], [[V]];
# U32:      neg.s32 temp, [[V]];
# U32-NEXT: atom.global.add.u32 {{%r[0-9]+}}, [[[P]]], temp;
# U32:      atom.global.and.b32 {{%r[0-9]+}}, [[[P]]], [[V]];
# U32:      atom.global.or.b32 {{%r[0-9]+}}, [[[P]]], [[V]];
# U32:      atom.global.xor.b32 {{%r[0-9]+}}, [[[P]]], [[V]];
# U32:      atom.global.exch.b32 {{%r[0-9]+}}, [[[P]]], [[V]];
# U32:      atom.global.max.u32 {{%r[0-9]+}}, [[[P]]], [[V]];
# U32:      atom.global.min.u32 {{%r[0-9]+}}, [[[P]]], [[V]];
# U32:      atom.global.max.u32 {{%r[0-9]+}}, [[[P]]], [[V]];
# U32:      atom.global.min.u32 {{%r[0-9]+}}, [[[P]]], [[V]];
# U32-NOT:  atom.
# U32-NOT:  red.

# I64:      .param .u64 int_atomics_param_4,
# I64:      ld.param.u64 [[V:%rd[0-9]+]], [int_atomics_param_4];
# I64:      atom.global.add.u64 {{%rd[0-9]+}}, [[[P:%rd[0-9]+]]], [[V]];
# I64:      neg.s64 temp, [[V]];
# I64-NEXT: atom.global.add.u64 {{%rd[0-9]+}}, [[[P]]], temp;
# I64:      atom.global.and.b64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# I64:      atom.global.or.b64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# I64:      atom.global.xor.b64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# I64:      atom.global.exch.b64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# I64:      atom.global.max.s64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# I64:      atom.global.min.s64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# I64:      atom.global.max.s64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# I64:      atom.global.min.s64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# I64-NOT:  atom.
# I64-NOT:  red.

# U64:      .param .u64 int_atomics_param_4,
# U64:      ld.param.u64 [[V:%rd[0-9]+]], [int_atomics_param_4];
# U64:      atom.global.add.u64 {{%rd[0-9]+}}, [[[P:%rd[0-9]+]]], [[V]];
# U64:      neg.s64 temp, [[V]];
# U64-NEXT: atom.global.add.u64 {{%rd[0-9]+}}, [[[P]]], temp;
# U64:      atom.global.and.b64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# U64:      atom.global.or.b64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# U64:      atom.global.xor.b64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# U64:      atom.global.exch.b64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# U64:      atom.global.max.u64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# U64:      atom.global.min.u64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# U64:      atom.global.max.u64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# U64:      atom.global.min.u64 {{%rd[0-9]+}}, [[[P]]], [[V]];
# U64-NOT:  atom.
# U64-NOT:  red.
