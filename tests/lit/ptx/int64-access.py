# RUN: %kjitc --emit=ptx %s:copy --sig="(int64[:], int64[:])" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %kjitc --emit=llvm --target=cuda %s:copy --sig="(int64[:], int64[:])" | FileCheck --check-prefix=LLVM %s
# An int64 (or uint64) array element is 8-byte aligned and should be one
# 64-bit load and one 64-bit store, as float64 elements are. Today the
# accesses are lowered with `align 4` (the default DataLayout's i64 ABI
# alignment: the NVPTX layout is set only after lowering), so NVPTX splits
# each into two 32-bit halves (ld.global.u32 x 2, st.global.u32 x 2): slower,
# and a concurrent reader can see a torn value. An expected failure until

from numba import cuda


@cuda.jit
def copy(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a[i] + 1

# CHECK:      .visible .entry copy(
# CHECK:      ld.global.u64 [[V:%rd[0-9]+]],
# CHECK:      add.s64 [[W:%rd[0-9]+]], [[V]], 1;
# CHECK:      st.global.u64 [{{%rd[0-9]+}}], [[W]];
# CHECK-NOT:  ld.global.u32
# CHECK-NOT:  st.global.u32

# LLVM:       load i64, ptr %{{.*}}, align 8
# LLVM:       store i64 %{{.*}}, ptr %{{.*}}, align 8
