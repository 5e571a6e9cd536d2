"""``kjit.typeof(value)``: the kjit type of a Python value, as Numba's
``numba.typeof``.

    >>> kjit.typeof(np.zeros(3, np.float32))
    array(float32, 1d, C)
    >>> kjit.typeof((1, 2.0))
    Tuple(int64, float64)

Numbers (``int`` is int64, or uint64 above its range; ``float`` float64;
``complex`` complex128), NumPy scalars, NumPy arrays (layout C, F or A;
read-only arrays give a ``readonly`` array type), tuples and named tuples
of those, ``None``, and device arrays (anything with
``__cuda_array_interface__``). Anything else raises ``ValueError``, as in
Numba.
"""
from kjit import types as _t

__all__ = ["typeof"]


def _layout(c_contig, f_contig):
    return "C" if c_contig else "F" if f_contig else "A"


def _from_interface(iface):
    import numpy as np
    from kjit.np.numpy_support import from_dtype
    dtype = np.dtype(iface["typestr"])
    shape = tuple(iface["shape"])
    strides = iface.get("strides")
    if strides is None:
        layout = "C"
    else:
        probe = np.lib.stride_tricks.as_strided(np.empty(0, dtype), shape=shape, strides=strides)
        layout = _layout(probe.flags.c_contiguous, probe.flags.f_contiguous)
    readonly = bool(iface["data"][1]) if iface.get("data") else False
    return _t.Array(from_dtype(dtype), len(shape), layout, readonly=readonly)


def typeof(val, purpose=None):
    """The kjit type of `val` (``purpose`` is accepted for Numba's
    signature and ignored)."""
    if val is None:
        return _t.none
    if isinstance(val, bool):
        return _t.boolean
    if isinstance(val, int):
        if -2**63 <= val < 2**63:
            return _t.int64
        if 0 <= val < 2**64:
            return _t.uint64
        raise ValueError(f"Int value is too large: {val}")
    if isinstance(val, float):
        return _t.float64
    if isinstance(val, complex):
        return _t.complex128
    if isinstance(val, tuple):
        elems = tuple(typeof(v) for v in val)
        if hasattr(type(val), "_fields"):
            return _t.NamedTuple(elems, type(val))
        return _t.Tuple(elems)
    numba_type = getattr(type(val), "_numba_type_", None)
    if numba_type is not None:
        return val._numba_type_
    import numpy as np
    from kjit.np.numpy_support import from_dtype
    if isinstance(val, np.ndarray):
        return _t.Array(from_dtype(val.dtype), val.ndim,
                        _layout(val.flags.c_contiguous, val.flags.f_contiguous),
                        readonly=not val.flags.writeable)
    if isinstance(val, np.generic):
        return from_dtype(val.dtype)
    iface = getattr(val, "__cuda_array_interface__", None)
    if iface is not None:
        return _from_interface(iface)
    raise ValueError(f"cannot determine kjit type of {type(val)}")
