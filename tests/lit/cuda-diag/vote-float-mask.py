# RUN: not %kjitc --emit=ptx %s:kernel --sig="(float32[:], int32[:], int32[:])" 2>&1 | FileCheck --strict-whitespace %s
# Warp votes take an integer mask (Numba's check and words).

from numba import cuda


def kernel(mask, predicate, result):
    i = cuda.grid(1)
    result[i] = cuda.any_sync(mask[i], predicate[i])

# CHECK:      {{^}}{{.*}}vote-float-mask.py:9:31: error: cuda.any_sync(): Mask type must be an integer, not float32{{$}}
