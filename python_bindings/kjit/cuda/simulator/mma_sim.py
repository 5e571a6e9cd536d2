"""cuda.mma_sync, cuda.ldmatrix and cuda.cp_async in the simulator.

``mma_sync`` and ``ldmatrix`` are operations of a whole warp: each lane
hands its part to the launch (scheduler.py, ``warp_op``), which calls
``mma_m16n8k16`` or ``ldmatrix`` once the 32 lanes are there, with every
lane's part, and gives each lane its own result. The fragments are laid out
as PTX's mma.sync.aligned.m16n8k16.row.col and ldmatrix.sync.aligned.m8n8
lay them out (g = lane >> 2, t = lane & 3):

* A (16x16, M x K), a[i] (i < 8): row g + 8 * ((i >> 1) & 1), column
  2t + (i & 1) + 8 * (i >> 2);
* B (16x8, K x N), b[i] (i < 4): row 2t + (i & 1) + 8 * (i >> 1), column g;
* C and D (16x8), c[i] (i < 4): row g + 8 * (i >> 1), column 2t + (i & 1).

D[m][n] is C[m][n] plus the products A[m][k] * B[k][n] in order of k, each
step one float32 rounding of the exact sum (a float32 fma, as the CPU
device computes it). ldmatrix reads the rows when the warp's lanes are all
there, and gives elements of the array's own type. ``cp_async`` copies the
bytes at once (``cp_async_commit`` and ``cp_async_wait`` have nothing to
wait for). The type checks are the compiler's (compiler/builtins/MmaSync.cpp),
which compiles every kernel before it runs here; what depends on values
(places in arrays, lanes that take part) is checked here.
"""
import numpy as np

from kjit.cuda.simulator import bfloat16_values as bf16v
from kjit.cuda.simulator import float8_values as f8v

MMA_SHAPE = "m16n8k16"


def lane_parts(shape, a, b, c):
    """A lane's operands of mma_sync, checked, as float64 tuples (what the
    lane hands to the warp)."""
    if shape != MMA_SHAPE:
        raise ValueError(f'cuda.mma_sync(): the shape is "{MMA_SHAPE}" (kjit\'s mma.sync has that shape only), '
                         f"not {shape!r}")
    for name, v, n in (("a", a, 8), ("b", b, 4), ("c", c, 4)):
        if len(v) != n:
            raise TypeError(f"cuda.mma_sync(): {name} is a tuple of {n} values, not {len(v)}")
    return tuple(float(x) for x in a), tuple(float(x) for x in b), tuple(float(x) for x in c)


def _fma_f32(acc, prod):
    """float32(acc + prod), the sum exact then rounded once (acc float32,
    prod an exact float64 product): the float64 sum rounded to odd, which
    then rounds to float32 as the exact sum does."""
    s = acc + prod
    bb = s - acc
    err = (acc - (s - bb)) + (prod - bb)  # s + err == acc + prod exactly (TwoSum)
    inexact = (err != 0) & np.isfinite(s) & np.isfinite(err)
    if inexact.any():
        even = (s.view(np.int64) & 1) == 0
        fix = inexact & even
        s = np.where(fix, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)
    with np.errstate(over="ignore", invalid="ignore"):
        return s.astype(np.float32).astype(np.float64)


def mma_m16n8k16(parts):
    """The results of mma_sync for the 32 lanes, ``parts[lane]`` being the
    lane's (a, b, c) of lane_parts: a list of 32 tuples of 4 float32."""
    A = np.zeros((16, 16))
    B = np.zeros((16, 8))
    C = np.zeros((16, 8))
    for lane in range(32):
        a, b, c = parts[lane]
        g, t = lane >> 2, lane & 3
        for i in range(8):
            A[g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)] = a[i]
        for i in range(4):
            B[2 * t + (i & 1) + 8 * (i >> 1), g] = b[i]
            C[g + 8 * (i >> 1), 2 * t + (i & 1)] = c[i]
    with np.errstate(all="ignore"):
        D = C.astype(np.float32).astype(np.float64)
        for k in range(16):
            D = _fma_f32(D, np.outer(A[:, k], B[k, :]))
    out = []
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        out.append(tuple(np.float32(D[g + 8 * (i >> 1), 2 * t + (i & 1)]) for i in range(4)))
    return out


# ---- ldmatrix -----------------------------------------------------------------------------------
def ldmatrix_address(lane, smem, index, num):
    """A lane's part of ldmatrix, checked: (the array's elements in C
    order, the place of the first of the 8 that the lane supplies), or None
    for a lane whose address is ignored. The 8 are smem[row, col:col + 8];
    in a C-contiguous array they may run on into the next row, as in
    memory."""
    if isinstance(num, bool) or num not in (1, 2, 4):
        raise ValueError(f"cuda.ldmatrix(): the number of 8x8 matrices is 1, 2 or 4, not {num!r}")
    if getattr(smem, "ndim", None) != 2 or getattr(smem, "itemsize", None) != 2:
        raise TypeError("cuda.ldmatrix(): the matrix is a 2-d array of a 16-bit type (float16, bfloat16, int16, "
                        "uint16)")
    if not isinstance(index, tuple) or len(index) != 2:
        raise TypeError("cuda.ldmatrix(): the place in a 2-d array is a tuple of 2 integers")
    if lane >= 8 * num:
        return None
    row, col = int(index[0]), int(index[1])
    rows, cols = smem.shape
    flat = smem.flags.c_contiguous
    if not (0 <= row < rows and 0 <= col < cols) or (row * cols + col + 8 > rows * cols if flat else col + 8 > cols):
        raise IndexError(f"cuda.ldmatrix(): the 8 elements at ({row}, {col}) are outside the array of shape "
                         f"{tuple(smem.shape)}")
    if flat:
        return smem.reshape(-1), row * cols + col
    return smem[row], col


def ldmatrix(row_of, lane, num, trans):
    """Lane ``lane``'s result of ldmatrix: a tuple of 2 * num elements,
    ``row_of(l)`` being the 8 elements of the row that lane l supplies."""
    g, t = lane >> 2, lane & 3
    out = []
    for j in range(num):
        if trans:
            out += [row_of(8 * j + 2 * t)[g], row_of(8 * j + 2 * t + 1)[g]]
        else:
            r = row_of(8 * j + g)
            out += [r[2 * t], r[2 * t + 1]]
    return tuple(out)


def check_same_ldmatrix(args):
    """Refuses an ldmatrix whose lanes give different (num, trans): one
    instruction of the warp has one form."""
    if len(set(args)) > 1:
        forms = sorted(set(args))
        raise ValueError("cuda.ldmatrix(): the lanes of a warp give different numbers of matrices or trans: "
                         + ", ".join(f"({n}, trans={t})" for n, t in forms))


def read_row(address):
    """The 8 elements of a lane's row (its part, of ldmatrix_address), in
    the array's element type."""
    elements, start = address
    return [elements[start + c] for c in range(8)]


# ---- cp_async -----------------------------------------------------------------------------------
def _index(name, ary, index):
    if not isinstance(index, tuple):
        index = (index,)
    if len(index) != ary.ndim:
        raise TypeError(f"cuda.cp_async(): the index of {name} has {len(index)} entries; the array has "
                        f"{ary.ndim} dimensions")
    idx = tuple(int(i) for i in index)
    for i, n in zip(idx, ary.shape):
        if not 0 <= i < n:
            raise IndexError(f"cuda.cp_async(): the index {idx} of {name} is outside its shape {tuple(ary.shape)}")
    return idx


def _run(name, ary, index, nbytes):
    """The elements that hold the nbytes bytes from ``ary[index]`` on (a
    view): in C order through a C-contiguous array (on into the next rows,
    as in memory), else along the last axis."""
    a = f8v.unwrap(bf16v.unwrap(ary))
    idx = _index(name, a, index)
    if nbytes % a.itemsize:
        raise ValueError(f"cuda.cp_async(): {nbytes} bytes are not whole elements of {name} "
                         f"({a.dtype.name}, {a.itemsize} bytes)")
    n = nbytes // a.itemsize
    if a.flags.c_contiguous:
        start = int(np.ravel_multi_index(idx, a.shape))
        if start + n > a.size:
            raise IndexError(f"cuda.cp_async(): the {nbytes} bytes from {name}{list(idx)} run past the end of the "
                             f"array (shape {tuple(a.shape)})")
        return a.reshape(-1)[start:start + n]
    if idx[-1] + n > a.shape[-1]:
        raise IndexError(f"cuda.cp_async(): the {nbytes} bytes from {name}{list(idx)} run past the end of its row "
                         f"(shape {tuple(a.shape)}, not C-contiguous)")
    return a[idx[:-1]][idx[-1]:idx[-1] + n]


def cp_async(dst, dst_index, src, src_index, nbytes):
    """Copies nbytes bytes from src at src_index onward to dst at dst_index
    onward, at once."""
    if nbytes not in (4, 8, 16) or isinstance(nbytes, bool):
        raise ValueError(f"cuda.cp_async(): the number of bytes is 4, 8 or 16, not {nbytes!r}")
    s = _run("src", src, src_index, nbytes)
    d = _run("dst", dst, dst_index, nbytes)
    d[...] = np.ascontiguousarray(s).view(np.uint8).view(d.dtype)
