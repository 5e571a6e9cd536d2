# RUN: %kjitc --emit=ptx %s:histogram --sig="(float32[:], float32, float32, int32[:])" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %kjitc --emit=ptx %s:histogram --sig="(float64[:], float64, float64, uint64[:])" > %t.u64.ptx
# RUN: FileCheck --check-prefix=U64 %s < %t.u64.ptx
# RUN: %kjitc --emit=ptx %s:weighted --sig="(int32[:], float32[:], float32[:])" > %t.f32.ptx
# RUN: FileCheck --check-prefix=F32 %s < %t.f32.ptx
# An atomic histogram (grid-stride loop, cuda.atomic.add on a global array):
# one atomic add on global memory per element, of the array's dtype. The
# result of the add is not used, so the reduction form (red) is as good as
# atom. ptxas/histogram.test assembles these.

from numba import cuda, int32


@cuda.jit
def histogram(x, xmin, xmax, histogram_out):
    nbins = histogram_out.shape[0]
    bin_width = (xmax - xmin) / nbins

    start = cuda.grid(1)
    stride = cuda.gridsize(1)

    for i in range(start, x.shape[0], stride):
        bin_number = int32((x[i] - xmin) / bin_width)
        if bin_number >= 0 and bin_number < histogram_out.shape[0]:
            cuda.atomic.add(histogram_out, bin_number, 1)


@cuda.jit
def weighted(bins, w, out):
    i = cuda.grid(1)
    if i < bins.shape[0]:
        cuda.atomic.add(out, bins[i], w[i])

# CHECK:      .visible .entry histogram(
# CHECK:      .param .f32 histogram_param_3,
# CHECK-NEXT: .param .f32 histogram_param_4,
# CHECK:      [[LOOP:\$L__BB0_[0-9]+]]:
# CHECK:      cvt.rzi.s32.f64
# CHECK:      {{(atom|red)}}.global.add.u32 {{(%r[0-9]+, )?}}[{{%rd[0-9]+}}], 1;
# CHECK-NOT:  atom.global.cas
# CHECK:      ret;

# U64:        {{(atom|red)}}.global.add.u64 {{(%rd[0-9]+, )?}}[{{%rd[0-9]+}}], 1;

# F32:        ld.global.s32
# F32:        ld.global.f32 [[W:%f[0-9]+]],
# F32:        {{(atom|red)}}.global.add.f32 {{(%f[0-9]+, )?}}[{{%rd[0-9]+}}], [[W]];
# F32-NOT:    atom.global.cas
