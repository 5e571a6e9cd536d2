"""bfloat16 on the host.

``bfloat16`` is a 16-bit float with float32's sign and exponent and 7
stored fraction bits: the upper half of a float32. Kernels and ``@jit``
functions compute with it as numba-cuda computes with ``float16``
(``kjit.bfloat16`` converts, arithmetic stays bfloat16 and rounds to
nearest even; see docs/types.md).

NumPy has no bfloat16 dtype. The host side of a bfloat16 array is:

* ``ml_dtypes.bfloat16`` (the dtype JAX, recent PyTorch and CuPy use)
  when ``ml_dtypes`` can be imported: host arrays then compute as
  bfloat16 in NumPy too;
* otherwise a ``uint16`` dtype tagged ``metadata={"kjit": "bfloat16"}``:
  the arrays hold the bits, NumPy treats them as integers, and
  ``to_float32`` / ``from_float`` convert.

``dtype()`` gives whichever it is. Device arrays copied to the host come
back with it; arrays of either dtype are bfloat16 to kjit.
"""

import numpy as np

__all__ = ["dtype", "is_bfloat16", "from_float", "to_float32", "scalar", "ml_dtypes_present"]

_TAG = {"kjit": "bfloat16"}
_TAGGED = np.dtype("<u2", metadata=_TAG)
_dtype = None


def _ml_dtypes():
    try:
        import ml_dtypes
    except ImportError:
        return None
    return ml_dtypes


def ml_dtypes_present():
    """Whether ``ml_dtypes`` is importable (bfloat16 host arrays are then
    real bfloat16 arrays)."""
    return dtype() is not _TAGGED


def dtype():
    """The host dtype of bfloat16 arrays: ``ml_dtypes.bfloat16`` when
    importable, else the tagged ``uint16``."""
    global _dtype
    if _dtype is None:
        ml = _ml_dtypes()
        _dtype = np.dtype(ml.bfloat16) if ml is not None else _TAGGED
    return _dtype


def is_bfloat16(dt):
    """Whether a NumPy dtype is one kjit reads as bfloat16."""
    dt = np.dtype(dt)
    if dt.kind == "u" and dt.itemsize == 2:
        md = dt.metadata
        return bool(md) and md.get("kjit") == "bfloat16"
    return dt.kind == "V" and dt.itemsize == 2 and dt.name == "bfloat16" and dt.fields is None


def _bits_of_float32(f32):
    """bfloat16 bits of float32 values, to nearest even (NaN stays NaN)."""
    b = np.ascontiguousarray(f32, dtype=np.float32).view(np.uint32)
    nan = (b & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
    rounded = (b + np.uint32(0x7FFF) + ((b >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)
    quiet = (b >> np.uint32(16)) | np.uint32(0x40)
    return np.where(nan, quiet, rounded).astype(np.uint16)


def _round_to_odd_float32(f64):
    """float64 -> float32 rounding to odd, so that rounding on to bfloat16
    rounds once (as a float64 -> bfloat16 conversion should)."""
    f64 = np.asarray(f64, dtype=np.float64)
    with np.errstate(over="ignore"):
        f = f64.astype(np.float32)
    back = f.astype(np.float64)
    inexact = (back != f64) & ~np.isnan(f64)
    bits = f.view(np.uint32).copy()
    away = np.abs(back) > np.abs(f64)
    bits = np.where(inexact & away, bits - np.uint32(1), bits)
    bits = np.where(inexact, bits | np.uint32(1), bits)
    return bits.view(np.float32)


def from_float(values):
    """A bfloat16 host array of ``values`` (anything ``np.asarray`` takes),
    each rounded once to nearest even."""
    a = np.asarray(values)
    shape = a.shape
    if a.dtype == np.float64 or a.dtype.kind in "iub":
        f32 = _round_to_odd_float32(a.astype(np.float64, copy=False))
    else:
        f32 = a.astype(np.float32)
    bits = _bits_of_float32(np.ravel(f32)).reshape(shape)
    return bits.view(dtype())


def to_float32(a):
    """The float32 values of a bfloat16 host array (exact)."""
    a = np.asarray(a)
    if not is_bfloat16(a.dtype):
        raise TypeError(f"to_float32 takes a bfloat16 array, not {a.dtype}")
    bits = np.ascontiguousarray(a).view(np.uint16).astype(np.uint32) << np.uint32(16)
    return bits.view(np.float32).reshape(a.shape)


def scalar(value):
    """``value`` rounded once to bfloat16: an ``ml_dtypes.bfloat16`` scalar
    when ml_dtypes is present, else a Python float."""
    f = float(to_float32(from_float(np.float64(value)))[()])
    ml = _ml_dtypes()
    return ml.bfloat16(f) if ml is not None else f


def dtype_of_typestr(typestr, owner=None):
    """The dtype a ``__cuda_array_interface__`` typestr stands for:
    ``"<V2"`` is bfloat16 (as ml_dtypes, JAX and PyTorch since 2025 write
    it), and so is ``"<f2"`` from an object whose ``dtype`` is PyTorch's
    bfloat16 (PyTorch 2.5 wrote it so); otherwise NumPy's reading."""
    if typestr in ("<V2", "|V2"):
        return dtype()
    if typestr == "<f2" and owner is not None and str(getattr(owner, "dtype", "")) == "torch.bfloat16":
        return dtype()
    return np.dtype(typestr)


def typestr_of(dt):
    """The ``__cuda_array_interface__`` typestr of a dtype (bfloat16:
    ``"<V2"``)."""
    return "<V2" if is_bfloat16(dt) else np.dtype(dt).str
