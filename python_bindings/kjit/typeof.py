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

``type_of_name(text)`` reads a type back from the name the JIT driver
writes for it (``"array(float32, 1d, C)"``, ``"UniTuple(int64 x 2)"``): the
keys of a kernel's ``overloads`` on every device.
"""
from kjit import types as _t

__all__ = ["typeof", "type_of_name"]


def _layout(c_contig, f_contig):
    return "C" if c_contig else "F" if f_contig else "A"


def _from_interface(iface):
    import numpy as np
    from kjit.np.numpy_support import from_dtype
    from kjit.bfloat16_host import dtype_of_typestr
    dtype = dtype_of_typestr(iface["typestr"])
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


_SCALARS = {t.name: t for t in (_t.boolean, _t.int8, _t.int16, _t.int32, _t.int64, _t.uint8, _t.uint16,
                                _t.uint32, _t.uint64, _t.float16, _t.bfloat16, _t.float8_e4m3fn, _t.float8_e5m2, _t.float32, _t.float64, _t.complex64,
                                _t.complex128)}


def _split_top(text):
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def type_of_name(name):
    """The kjit type of a type name as the driver writes it ("array(float32,
    1d, C)", "UniTuple(int64 x 2)"): the keys of ``kernel.overloads``."""
    name = name.strip()
    if name in _SCALARS:
        return _SCALARS[name]
    if name.startswith("key:"):  # a type that holds records, by its key
        from kjit.np.numpy_support import _type_of_key
        return _type_of_key(name[4:])
    readonly = name.startswith("readonly ")
    body = name[len("readonly "):] if readonly else name
    if body.startswith("array(") and body.endswith(")"):
        parts = _split_top(body[6:-1])
        if len(parts) == 3 and parts[1].endswith("d"):
            return _t.Array(type_of_name(parts[0]), int(parts[1][:-1]), parts[2], readonly)
    if name.startswith("UniTuple(") and " x " in name:
        dtype, count = name[9:-1].rsplit(" x ", 1)
        return _t.UniTuple(type_of_name(dtype), int(count))
    if name.startswith("Tuple(") and name.endswith(")"):
        return _t.Tuple([type_of_name(p) for p in _split_top(name[6:-1])])
    return _t.Type(name)
