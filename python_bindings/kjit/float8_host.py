"""The 8-bit floats on the host: ``float8_e4m3fn`` and ``float8_e5m2``.

Kernels and ``@jit`` functions keep them in arrays and convert them
(``float32(x)``, ``float8_e4m3fn(x)``, storing into an array); they do no
arithmetic on them (docs/types.md). ``float8_e4m3fn`` has 4 exponent bits
and 3 fraction bits, no infinities, NaN ``0x7f`` and largest 448;
``float8_e5m2`` is float16's upper byte (infinities, largest 57344).
Conversions to them round to nearest even and saturate to the largest
finite value (infinities too), as PTX's ``cvt.rn.satfinite`` does; NaN
becomes the positive NaN 0x7f.

NumPy has no such dtypes. The host side of an 8-bit float array is
ml_dtypes' dtype of that name when ``ml_dtypes`` imports, otherwise a
``uint8`` dtype tagged ``metadata={"kjit": name}`` holding the bits, as for
bfloat16 (kjit/bfloat16_host.py). ``dtype(name)`` gives it,
``from_float(values, name)`` rounds into one, ``to_float32(a)`` reads one.
"""

import numpy as np

__all__ = ["NAMES", "dtype", "kind_of", "code_of", "from_float", "to_float32"]

NAMES = ("float8_e4m3fn", "float8_e5m2")
_FORMAT = {"float8_e4m3fn": (3, 7, 448.0, 0x7E), "float8_e5m2": (2, 15, 57344.0, 0x7B)}
_TAGGED = {n: np.dtype("u1", metadata={"kjit": n}) for n in NAMES}
_dtypes = {}


def _ml_dtypes():
    try:
        import ml_dtypes
    except ImportError:
        return None
    return ml_dtypes


def dtype(name):
    """The host dtype of ``name``'s arrays (``"float8_e4m3fn"`` or
    ``"float8_e5m2"``)."""
    if name not in _FORMAT:
        raise ValueError(f"no 8-bit float named {name!r} (kjit has {', '.join(NAMES)})")
    d = _dtypes.get(name)
    if d is None:
        ml = _ml_dtypes()
        d = _dtypes[name] = np.dtype(getattr(ml, name)) if ml is not None else _TAGGED[name]
    return d


def kind_of(dt):
    """The 8-bit float a NumPy dtype is to kjit, or None."""
    dt = np.dtype(dt)
    if dt.itemsize != 1 or dt.fields is not None:
        return None
    if dt.kind == "u":
        md = dt.metadata
        name = md.get("kjit") if md else None
        return name if name in _FORMAT else None
    # ml_dtypes' (a user type of NumPy's: its kind is not NumPy's own for
    # floats, whatever letter it shows, so the name and number tell it)
    return dt.name if dt.name in _FORMAT and dt.num >= 256 else None


def _decode_table(name):
    man, bias, _, _ = _FORMAT[name]
    b = np.arange(256, dtype=np.int64)
    sign = np.where(b & 0x80, -1.0, 1.0)
    e = (b >> man) & ((1 << (7 - man)) - 1)
    m = b & ((1 << man) - 1)
    v = np.where(e == 0, m * 2.0 ** (1 - bias - man), (1 + m / (1 << man)) * 2.0 ** (e - bias))
    if name == "float8_e5m2":
        v = np.where(e == 31, np.where(m == 0, np.inf, np.nan), v)
    else:
        v = np.where((b & 0x7F) == 0x7F, np.nan, v)
    return (sign * v).astype(np.float32)


def code_of(dt):
    """The dtype code kjit's argument keys give a dtype of bfloat16 ("y")
    or of an 8-bit float ("q" float8_e4m3fn, "r" float8_e5m2); "" for
    others (runtime/jit/TypeKeys.cpp; the binding asks for the dtypes NumPy
    cannot name)."""
    from kjit.bfloat16_host import is_bfloat16
    if is_bfloat16(dt):
        return "y"
    return {"float8_e4m3fn": "q", "float8_e5m2": "r"}.get(kind_of(dt), "")


_TABLES = {}


def to_float32(a):
    """The float32 values of an 8-bit float host array (exact)."""
    a = np.asarray(a)
    name = kind_of(a.dtype)
    if name is None:
        raise TypeError(f"to_float32 takes a float8_e4m3fn or float8_e5m2 array, not {a.dtype}")
    table = _TABLES.get(name)
    if table is None:
        table = _TABLES[name] = _decode_table(name)
    return table[a.view(np.uint8)]


def _round_to_odd_float32(f64):
    from kjit.bfloat16_host import _round_to_odd_float32 as odd
    return odd(f64)


def from_float(values, name):
    """An 8-bit float host array of ``values``, each rounded once to nearest
    even and saturated to the largest finite value (NaN stays NaN)."""
    man, bias, largest, largest_bits = _FORMAT[name]
    a = np.asarray(values)
    shape = a.shape
    if a.dtype in (np.float32, np.float16):
        f = a.astype(np.float32).ravel()
    else:
        f = _round_to_odd_float32(a.astype(np.float64).ravel())
    bits = f.view(np.uint32).astype(np.int64)
    sign = (bits >> 24) & 0x80
    mag = bits & 0x7FFFFFFF
    x = mag.astype(np.uint32).view(np.float32)
    drop = 23 - man
    rounded = (mag + ((1 << (drop - 1)) - 1) + ((mag >> drop) & 1)) >> drop
    normal = rounded - ((127 - bias) << man)
    with np.errstate(invalid="ignore", over="ignore"):
        sub = np.rint(x.astype(np.float64) * 2.0 ** (bias + man - 1))
        sub = np.where(np.isfinite(sub), sub, 0).astype(np.int64)
        r = np.where(x < 2.0 ** (1 - bias), sub, normal)
        r = np.where(x >= largest, largest_bits, r)
    r = np.where(np.isnan(x), 0x7F, r | sign)  # one NaN, positive
    return r.astype(np.uint8).reshape(shape).view(dtype(name))
