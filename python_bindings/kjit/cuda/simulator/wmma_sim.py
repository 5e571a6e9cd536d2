"""cuda.wmma in the simulator: 16x16x16 warp matrix products.

Each simulated thread holds its fragments' whole 16x16 matrices and computes
the product itself (the warp's threads all compute the same one), so no
exchange between threads is needed. ``fragment[i]`` and ``len(fragment)``
follow the CPU device's mapping: element ``j`` of lane ``l`` is element
``8 * l + j`` of the matrix in row-major order (a and b fragments of
float16 hold 16 elements a lane, each value twice: ``j`` and ``j + 8``), as
compiler/Wmma.h describes. Products accumulate in order of k, each step one
float32 rounding of the exact product plus the sum (the CPU device's fmaf;
results agree with it exactly whenever no sum is rounded twice, e.g. for
integer-valued data).
"""
import numpy as np

from kjit import bfloat16_host


def _values(a):
    """The float64 values of a 2-d array (bfloat16 ones too)."""
    arr = np.asarray(a)
    if bfloat16_host.is_bfloat16(arr.dtype):
        return bfloat16_host.to_float32(arr).astype(np.float64)
    return arr.astype(np.float64)


def _elem_name(a):
    if bfloat16_host.is_bfloat16(np.asarray(a).dtype):
        return "bfloat16"
    return np.asarray(a).dtype.name


class Fragment:
    """One lane's view of a warp's fragment (the whole matrix is kept)."""

    __slots__ = ("use", "dtype", "layout", "tile", "_lane")

    def __init__(self, use, dtype, layout, tile, lane):
        self.use, self.dtype, self.layout, self.tile, self._lane = use, dtype, layout, tile, lane

    def __len__(self):
        return 16 if self.use != "accumulator" and self.dtype == "float16" else 8

    def __getitem__(self, i):
        j = i % 8 if len(self) == 16 else i
        if not 0 <= i < len(self):
            raise IndexError("fragment index out of range")
        e = 8 * self._lane + j
        v = self.tile[e >> 4, e & 15]
        return np.float32(v) if self.dtype == "float32" else v

    def __repr__(self):
        return f"wmma.{self.use}[16x16x16,{self.dtype}]"


def _check_shape(shape):
    if tuple(shape) != (16, 16, 16):
        raise TypeError("cuda.wmma: the shape must be (16, 16, 16) (kjit's wmma has that shape only)")


def _block(a, r, c, col):
    v = _values(a)
    blk = v[r:r + 16, c:c + 16]
    if blk.shape != (16, 16):
        raise IndexError(f"cuda.wmma: the 16x16 block at ({r}, {c}) is outside the array of shape {v.shape}")
    return blk.T.copy() if col else blk.copy()


def make(lane_of):
    """The wmma namespace's functions; ``lane_of()`` gives the running
    thread's lane."""

    def load_matrix_sync(use, shape, ary, offset, layout="row"):
        _check_shape(shape)
        use = {"a": "matrix_a", "b": "matrix_b", "c": "accumulator"}.get(use, use)
        if use not in ("matrix_a", "matrix_b", "accumulator"):
            raise TypeError('cuda.wmma.load_matrix_sync(): the use is "a", "b" or "accumulator"')
        col = layout in ("col", "col_major")
        dt = _elem_name(ary)
        tile = _block(ary, int(offset[0]), int(offset[1]), col)
        return Fragment(use, dt, "col" if col else "row", tile, lane_of())

    def fill_fragment(shape, dtype, value):
        _check_shape(shape)
        return Fragment("accumulator", "float32", "row",
                        np.full((16, 16), np.float32(value), dtype=np.float64), lane_of())

    def mma_sync(a, b, c):
        if a.use != "matrix_a" or b.use != "matrix_b" or c.use != "accumulator":
            raise TypeError("cuda.wmma.mma_sync() takes a matrix_a, a matrix_b and an accumulator fragment")
        acc = c.tile.astype(np.float32)
        for k in range(16):
            acc = (acc.astype(np.float64) + np.outer(a.tile[:, k], b.tile[k, :])).astype(np.float32)
        return Fragment("accumulator", "float32", "row", acc.astype(np.float64), lane_of())

    def store_matrix_sync(ary, offset, frag, layout="row"):
        col = layout in ("col", "col_major")
        r, c = int(offset[0]), int(offset[1])
        t = frag.tile.T if col else frag.tile
        tgt = ary[r:r + 16, c:c + 16]
        if np.shape(tgt) != (16, 16):
            raise IndexError(f"cuda.wmma: the 16x16 block at ({r}, {c}) is outside the array")
        ary[r:r + 16, c:c + 16] = t.astype(np.float32)

    return dict(load_matrix_sync=load_matrix_sync, fill_fragment=fill_fragment, mma_sync=mma_sync,
                store_matrix_sync=store_matrix_sync)
