# RUN: not %kjitc --emit=ptx %s:kernel --sig="(int32[:], float32[:], int32[:])" 2>&1 | FileCheck --strict-whitespace %s
# Warp votes take an integer mask and an integer or bool predicate (Numba's
# check and words); a float predicate is refused, the caret on it.

from numba import cuda


def kernel(mask, predicate, result):
    i = cuda.grid(1)
    result[i] = cuda.all_sync(mask[i], predicate[i])

# CHECK:      {{^}}{{.*}}vote-float-predicate.py:10:40: error: cuda.all_sync(): Predicate must be an integer or boolean, not float32{{$}}
