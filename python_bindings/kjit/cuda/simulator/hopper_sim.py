"""Hopper's asynchronous operations in the simulator: mbarriers, the bulk
tensor copies (``cuda.tma``), ``cuda.wgmma`` and the rest, as the CPU device
runs them (runtime/host/CpuHopper.cpp): a copy completes when it is issued,
a product when it is computed, and a thread waiting on an mbarrier sleeps
until its phase completes (the launch's scheduler wakes it, and names a
wait that nothing can end as a deadlock).

An mbarrier is a uint64 of a shared array in the CPU device's encoding:
pending arrivals (bits 0-20), expected arrivals (21-41), transaction bytes
due plus 2**20 (42-62), the current phase's parity (63). Tensor maps are
the CPU device's 16 words (kjit/cuda/tensor_map.py), whose address is read
through ctypes: the simulator's device memory is the host's.
"""
import ctypes

import numpy as np

from kjit import bfloat16_host, float8_host

_FIELD = (1 << 21) - 1
_BIAS = 1 << 20
_MAGIC = 0x50414d544a4b4a4b


def _decode(w):
    w = int(w)
    return w & _FIELD, (w >> 21) & _FIELD, ((w >> 42) & _FIELD) - _BIAS, w >> 63


def _encode(pending, expected, tx, phase):
    return np.uint64((pending & _FIELD) | ((expected & _FIELD) << 21) | (((tx + _BIAS) & _FIELD) << 42)
                     | (phase << 63))


def _complete(pending, expected, tx, phase):
    if pending == 0 and tx == 0:
        return expected, expected, 0, phase ^ 1
    return pending, expected, tx, phase


def init(bars, i, count):
    bars[i] = _encode(count, count, 0, 0)


def arrive(bars, i, tx=0):
    pending, expected, t, phase = _decode(bars[i])
    if expected == 0:
        raise RuntimeError("cuda.mbarrier.arrive(): an arrival on an mbarrier that cuda.mbarrier.init() "
                           "has not initialised")
    bars[i] = _encode(*_complete(max(pending - 1, 0), expected, t + tx, phase))


def complete_tx(bars, i, nbytes):
    pending, expected, t, phase = _decode(bars[i])
    bars[i] = _encode(*_complete(pending, expected, t - nbytes, phase))


def phase_done(bars, i, parity):
    return _decode(bars[i])[3] != (int(parity) & 1)


# ---- tensor maps -------------------------------------------------------------------------
def swizzle(offsets, span):
    """Where a swizzle of ``span`` bytes puts byte offsets ``offsets`` of a tile."""
    if not span:
        return offsets
    mask = span // 16 - 1
    return offsets ^ (((offsets >> 7) & mask) << 4)


def _map(words, rank):
    w = [int(x) for x in np.asarray(words).reshape(-1)[:16]]
    if w[0] != _MAGIC:
        raise RuntimeError("cuda.tma: the tensor map was not made by cuda.make_tensor_map() for the simulator")
    if w[2] != rank:
        raise RuntimeError(f"cuda.tma: the tensor map has {w[2]} dimensions; the copy gives {rank} coordinates")
    dims = w[4:4 + rank]
    strides = w[9:9 + rank]
    box = [(w[14] >> (12 * k)) & 0xFFF for k in range(rank)]
    return w[1], w[3], dims, strides, box, w[15]


def _box_offsets(coords, dims, strides, box, item):
    """The byte offsets in the box (C order) and in the array of its
    elements, and which lie inside the array."""
    idx = np.indices(box).reshape(len(box), -1)
    pos = idx + np.asarray(coords, np.int64).reshape(-1, 1)
    inside = np.all((pos >= 0) & (pos < np.asarray(dims).reshape(-1, 1)), axis=0)
    src = (pos * np.asarray(strides, np.int64).reshape(-1, 1)).sum(axis=0)
    return np.arange(idx.shape[1], dtype=np.int64) * item, src, inside


def _aligned(coords, item):
    if (coords[-1] * item) % 16:
        raise RuntimeError(f"cuda.tma: the innermost coordinate {coords[-1]} is {coords[-1] * item} bytes into a "
                           f"row; a tensor copy starts at a multiple of 16 bytes (a GPU stops with "
                           f"CUDA_ERROR_ILLEGAL_INSTRUCTION)")


def _fits(tile, box, item):
    need = item * int(np.prod(box))
    if need > np.asarray(tile).nbytes:
        raise RuntimeError(f"cuda.tma: the tensor map's box is {need} bytes; the shared tile holds "
                           f"{np.asarray(tile).nbytes}")


def _bytes_of(ary):
    a = np.asarray(ary)
    if not a.flags.c_contiguous:
        raise RuntimeError("cuda.tma: the shared tile is not C-contiguous")
    return a.reshape(-1).view(np.uint8)


def _global(addr, src, inside, item):
    span = int(src[inside].max()) + item if inside.any() else 0
    return np.ctypeslib.as_array((ctypes.c_uint8 * max(span, 1)).from_address(addr))


def _copy(words, coords, tile):
    """What a tensor copy between the map's array and a shared tile touches:
    the tile's bytes, the array's (through its address), the element size,
    and per element of the box its offsets in the array and (swizzled) in
    the tile, and whether it lies inside the array."""
    coords = tuple(int(c) for c in coords)
    addr, item, dims, strides, box, span = _map(words, len(coords))
    _fits(tile, box, item)
    _aligned(coords, item)
    boff, glob, inside = _box_offsets(coords, dims, strides, box, item)
    return _bytes_of(tile), _global(addr, glob, inside, item), item, glob, swizzle(boff, span), inside


def tma_load(dst, words, coords, bars, i):
    out, mem, item, glob, phys, inside = _copy(words, coords, dst)
    for b in range(item):
        vals = np.zeros(len(phys), np.uint8)
        vals[inside] = mem[glob[inside] + b]
        out[phys + b] = vals
    complete_tx(bars, i, len(phys) * item)


def tma_store(words, coords, src_tile):
    data, mem, item, glob, phys, inside = _copy(words, coords, src_tile)
    for b in range(item):
        mem[glob[inside] + b] = data[phys[inside] + b]


# ---- wgmma -------------------------------------------------------------------------------
def _operand(tile, rows, k, what):
    """Columns of step k (16 16-bit values, or 32 8-bit ones) of the first
    ``rows`` rows of a K-major tile (rows of 128 bytes, 128-byte swizzle)
    as float64."""
    t = np.asarray(tile)
    item = t.dtype.itemsize
    if item not in (1, 2) or (item == 1 and float8_host.kind_of(t.dtype) is None):
        raise RuntimeError("cuda.wgmma.mma_async(): the tiles hold 16-bit values or 8-bit floats")
    per = 128 // item
    if t.ndim != 2 or t.shape[0] < rows or t.shape[1] != per or t.strides != (128, item):
        raise RuntimeError(f"cuda.wgmma.mma_async(): {what} is a {' x '.join(map(str, t.shape))} tile with "
                           f"strides {t.strides} bytes; wgmma reads {rows} rows of {per} {8 * item}-bit values (a "
                           f"C-contiguous tile whose rows are 128 bytes)")
    raw = _bytes_of(tile)
    steps = 16 if item == 2 else 32
    r = np.arange(rows).reshape(-1, 1)
    c = np.arange(steps * k, steps * k + steps).reshape(1, -1)
    off = swizzle(r * 128 + c * item, 128)
    if item == 1:
        return float8_host.to_float32(raw[off].view(t.dtype)).astype(np.float64)
    return _decode_values(raw, off, t.dtype)


def _place(rank, n):
    """Rows and columns of thread ``rank``'s n/2 accumulator elements."""
    w, lane = rank // 32, rank % 32
    g, t = lane >> 2, lane & 3
    idx = np.arange(n // 2)
    j, i = idx // 4, idx % 4
    return 16 * w + g + 8 * (i >> 1), 8 * j + 2 * t + (i & 1)


def _operand_n(tile, n, k):
    """Rows 16k..16k+15 of an N-major tile (n/64 blocks of kt rows of 64
    values, 128-byte swizzle) as an n x 16 float64 array (B transposed)."""
    t = np.asarray(tile)
    blocks = (n + 63) // 64
    if (t.ndim != 3 or t.shape[0] < blocks or t.shape[2] != 64 or t.shape[1] % 16 or
            t.strides != (t.shape[1] * 128, 128, 2)):
        raise RuntimeError(f"cuda.wgmma.mma_async(): b (transposed) is a {' x '.join(map(str, t.shape))} tile "
                           f"with strides {t.strides} bytes; wgmma reads {blocks} blocks of rows of 64 16-bit "
                           f"values (a C-contiguous tile of 128-byte rows, kt a multiple of 16)")
    if not 0 <= k < t.shape[1] // 16:
        raise RuntimeError(f"cuda.wgmma.mma_async(): k is {k}; the tiles hold k = 0 to {t.shape[1] // 16 - 1}")
    raw = _bytes_of(tile)
    col = np.arange(n).reshape(-1, 1)
    r = np.arange(16 * k, 16 * k + 16).reshape(1, -1)
    off = (col // 64) * (t.shape[1] * 128) + swizzle(r * 128 + (col % 64) * 2, 128)
    return _decode_values(raw, off, t.dtype)


def _decode_values(raw, off, dtype):
    bits = raw[off].astype(np.uint16) | (raw[off + 1].astype(np.uint16) << 8)
    if bfloat16_host.is_bfloat16(dtype):
        return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
    return bits.view(np.float16).astype(np.float64)


def round_a(values, b):
    """A thread's 8 register values of wgmma's a, rounded to b's type."""
    v = np.array([float(x) for x in values], np.float32)
    if bfloat16_host.is_bfloat16(np.asarray(b).dtype):
        return tuple(bfloat16_host.to_float32(bfloat16_host.from_float(v)).astype(np.float64))
    return tuple(v.astype(np.float16).astype(np.float64))


class WarpSlice:
    """wgmma's a in registers, gathered: the warp's 16 x 16 slice."""

    def __init__(self, matrix):
        self.matrix = matrix


def warp_slice(parts):
    """The warp's 16 x 16 slice of a from its lanes' 8 values each (the
    accumulator's layout: value i of lane 4g + t is row g + 8((i >> 1) & 1),
    column 2t + (i & 1) + 8(i >> 2))."""
    A = np.zeros((16, 16))
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        for i in range(8):
            A[g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)] = parts[lane][i]
    return WarpSlice(A)


def mma_async(acc, a, b, k, rank):
    n = 2 * len(acc)
    rows, cols = _place(rank, n)
    if isinstance(a, WarpSlice):
        A = np.zeros((64, 16))
        w = rank // 32
        A[16 * w:16 * w + 16] = a.matrix
    else:
        A = _operand(a, 64, int(k), "a")
    B = _operand_n(b, n, int(k)) if np.asarray(b).ndim == 3 else _operand(b, n, int(k), "b")
    s = np.asarray(acc, np.float32)
    for kk in range(A.shape[1]):
        s = (A[rows, kk] * B[cols, kk] + s.astype(np.float64)).astype(np.float32)
    return tuple(np.float32(x) for x in s)


def store(out, place, acc, rank):
    rows, cols = _place(rank, 2 * len(acc))
    r0, c0 = int(place[0]), int(place[1])
    bf16 = bfloat16_host.is_bfloat16(np.asarray(out).dtype)
    for v, r, c in zip(acc, rows, cols):
        r, c = r0 + int(r), c0 + int(c)
        if 0 <= r < out.shape[0] and 0 <= c < out.shape[1]:
            if bf16:
                out[r, c] = bfloat16_host.from_float(np.float32(v))
            else:
                out[r, c] = v
