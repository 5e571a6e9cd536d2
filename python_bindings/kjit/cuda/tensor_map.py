"""TMA tensor maps: what ``cuda.tma.load`` and ``cuda.tma.store`` copy.

``cuda.make_tensor_map(ary, box, swizzle=128)`` describes a device array (a
kjit device array, or anything with ``__cuda_array_interface__``: a PyTorch
tensor, a CuPy array) and the box one copy moves: ``box`` gives the box's
extent in each dimension, in index order (rows first), as the kernel's
coordinates are. On an NVIDIA GPU it is the driver's ``CUtensorMap``
(``cuTensorMapEncodeTiled``), on the CPU device and in the simulator kjit's
own 16 words. Either way the map is a 1-d uint64 device array that the
kernel takes as an argument; it holds the array's address, so it keeps the
array alive, and it describes that array only (make another for another).

Checked here, naming the argument, because the driver only answers
CUDA_ERROR_INVALID_VALUE: 1 to 5 dimensions; the last one contiguous, the
other strides multiples of 16 bytes; the address 16-byte aligned; each box
extent 1 to 256; the box's rows (last extent x item size) a multiple of 16
bytes and, with a swizzle, no longer than its span.
"""

import numpy as np

__all__ = ["make_tensor_map"]

# CUtensorMapDataType for each kjit dtype (8-bit floats travel as bytes).
_DTYPES = {"uint8": 0, "uint16": 1, "uint32": 2, "int32": 3, "uint64": 4, "int64": 5, "float16": 6,
           "float32": 7, "float64": 8, "bfloat16": 9, "int8": 0, "int16": 1,
           "float8_e4m3fn": 0, "float8_e5m2": 0}
_SWIZZLES = {0: 0, None: 0, 32: 1, 64: 2, 128: 3}
_L2 = {0: 0, None: 0, 64: 1, 128: 2, 256: 3}
_MAGIC = 0x50414d544a4b4a4b  # runtime/host/CpuHopper.h: kTensorMapMagic


def _dtype_name(ary, desc):
    from kjit import bfloat16_host, float8_host
    dt = getattr(ary, "dtype", None)
    if isinstance(dt, np.dtype):
        if bfloat16_host.is_bfloat16(dt):
            return "bfloat16", 2
        kind = float8_host.kind_of(dt)
        if kind:
            return kind, 1
        return dt.name, dt.itemsize
    typestr = desc["typestr"]
    if typestr == "<V2":
        return "bfloat16", 2
    dt = np.dtype(typestr)
    return dt.name, dt.itemsize


def _torch_float8(ary):
    """(address, shape, byte strides, name, 1) of a PyTorch float8 tensor,
    whose __cuda_array_interface__ has no typestr to give; None for any
    other array."""
    name = str(getattr(ary, "dtype", "")).removeprefix("torch.")
    if name not in ("float8_e4m3fn", "float8_e5m2") or not hasattr(ary, "data_ptr"):
        return None
    if not getattr(ary, "is_cuda", False):
        raise TypeError("cuda.make_tensor_map(): the tensor is on the host; TMA copies device memory")
    return (int(ary.data_ptr()), tuple(int(n) for n in ary.shape), tuple(int(s) for s in ary.stride()),
            name, 1)


def _describe(ary):
    torch_fp8 = _torch_float8(ary)
    if torch_fp8:
        return torch_fp8
    desc = getattr(ary, "__cuda_array_interface__", None)
    if desc is None:
        raise TypeError(f"cuda.make_tensor_map(): the array is a device array (or has "
                        f"__cuda_array_interface__), not {type(ary).__name__}")
    shape = tuple(int(n) for n in desc["shape"])
    name, item = _dtype_name(ary, desc)
    strides = desc.get("strides")
    if strides is None:
        strides, step = [], item
        for n in reversed(shape):
            strides.insert(0, step)
            step *= n
    return int(desc["data"][0]), shape, tuple(int(s) for s in strides), name, item


def make_tensor_map(ary, box, swizzle=128, l2_promotion=128, oob_fill="zero", *, _kind=None):
    """A tensor map over ``ary`` for copies of ``box`` (one extent a
    dimension, rows first). ``swizzle`` (0, 32, 64 or 128 bytes) is the
    layout the box takes in shared memory: 128 with a box of 64 16-bit
    values a row is the layout ``cuda.wgmma.mma_async`` reads. Elements of a
    box outside the array read as zeros (``oob_fill="zero"``) and are not
    written by a store."""
    from kjit import devices
    from kjit.cuda import active
    addr, shape, strides, name, item = _describe(ary)
    rank = len(shape)
    box = tuple(box) if isinstance(box, (tuple, list)) else (box,)
    if not 1 <= rank <= 5:
        raise ValueError(f"cuda.make_tensor_map(): a tensor map has 1 to 5 dimensions; this array has {rank}")
    if len(box) != rank:
        raise ValueError(f"cuda.make_tensor_map(): box has {len(box)} extents; the array has {rank} dimensions")
    if name not in _DTYPES:
        raise TypeError(f"cuda.make_tensor_map(): TMA does not copy {name} arrays")
    if swizzle not in _SWIZZLES:
        raise ValueError(f"cuda.make_tensor_map(): swizzle is 0, 32, 64 or 128 (bytes), not {swizzle!r}")
    if l2_promotion not in _L2:
        raise ValueError(f"cuda.make_tensor_map(): l2_promotion is 0, 64, 128 or 256 (bytes), not {l2_promotion!r}")
    if oob_fill not in ("zero", "nan"):
        raise ValueError(f"cuda.make_tensor_map(): oob_fill is 'zero' or 'nan', not {oob_fill!r}")
    for k, b in enumerate(box):
        if not isinstance(b, (int, np.integer)) or not 1 <= b <= 256:
            raise ValueError(f"cuda.make_tensor_map(): box[{k}] is {b!r}; each extent is 1 to 256")
    if strides[-1] != item:
        raise ValueError(f"cuda.make_tensor_map(): the last dimension must be contiguous (stride {item} bytes, "
                         f"not {strides[-1]})")
    for k, s in enumerate(strides[:-1]):
        if s % 16 or s <= 0:
            raise ValueError(f"cuda.make_tensor_map(): stride {k} is {s} bytes; TMA needs positive multiples of 16 "
                             f"(pad the rows)")
    if addr % 16:
        raise ValueError("cuda.make_tensor_map(): the array's address is not 16-byte aligned")
    row = box[-1] * item
    if row % 16:
        raise ValueError(f"cuda.make_tensor_map(): a box row is {row} bytes (box[-1] x {item}); TMA needs a "
                         f"multiple of 16")
    if swizzle and row > swizzle:
        raise ValueError(f"cuda.make_tensor_map(): a box row is {row} bytes, more than the {swizzle}-byte swizzle "
                         f"span")
    kind = _kind or devices.compiled_kind()  # (the simulator's: "cpu")
    if kind == "cuda":
        from kjit import _kjit
        raw = _kjit.cuda_tensor_map_encode(
            _DTYPES[name], addr, list(reversed(shape)), list(reversed(strides[:-1])), list(reversed(box)),
            _SWIZZLES[swizzle], _L2[l2_promotion], 0 if oob_fill == "zero" else 1)
        words = np.frombuffer(raw, np.uint64).copy()
    elif kind == "cpu":
        words = cpu_words(addr, shape, strides, item, box, swizzle or 0)
    else:
        raise NotImplementedError(f"cuda.make_tensor_map(): TMA is an NVIDIA GPU's; not on the {kind} device")
    tm = active.host_api().to_device(words)
    tm._kjit_tensor_map = (ary, box, swizzle)  # keeps the array alive
    return tm


def cpu_words(addr, shape, strides, item, box, swizzle):
    """kjit's tensor map for the CPU device and the simulator (runtime/host/CpuHopper.h)."""
    w = np.zeros(16, np.uint64)
    w[0], w[1], w[2], w[3] = _MAGIC, addr, len(shape), item
    packed = 0
    for k in range(len(shape)):
        w[4 + k] = shape[k]
        w[9 + k] = strides[k]
        packed |= int(box[k]) << (12 * k)
    w[14] = packed
    w[15] = swizzle
    return w
