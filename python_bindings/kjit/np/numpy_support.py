"""NumPy dtypes to kjit types and back, as Numba's ``numba.np.numpy_support``.

    >>> from kjit.np import numpy_support
    >>> numpy_support.from_dtype(np.dtype(np.float32))
    float32
    >>> numpy_support.as_dtype(kjit.types.int64)
    dtype('int64')

kjit has types for NumPy's bool, integer, float and complex dtypes only:
structured (record), string, datetime and object dtypes raise
``NumbaNotImplementedError``, as Numba does for a dtype it does not know.
"""
import numpy as np

from kjit import types
from kjit.errors import NumbaNotImplementedError

__all__ = ["from_dtype", "as_dtype", "is_arrayscalar", "map_layout", "FROM_DTYPE"]

FROM_DTYPE = {
    np.dtype("bool"): types.boolean,
    np.dtype("int8"): types.int8,
    np.dtype("int16"): types.int16,
    np.dtype("int32"): types.int32,
    np.dtype("int64"): types.int64,
    np.dtype("uint8"): types.uint8,
    np.dtype("uint16"): types.uint16,
    np.dtype("uint32"): types.uint32,
    np.dtype("uint64"): types.uint64,
    np.dtype("float16"): types.float16,
    np.dtype("float32"): types.float32,
    np.dtype("float64"): types.float64,
    np.dtype("complex64"): types.complex64,
    np.dtype("complex128"): types.complex128,
}

_AS_DTYPE = {t: d for d, t in FROM_DTYPE.items()}


def from_dtype(dtype):
    """The kjit type of a NumPy dtype (or anything ``np.dtype()`` takes:
    ``np.float32``, ``"int64"``). A kjit type is returned as it is."""
    if isinstance(dtype, types.Type):
        return dtype
    if type(dtype) is type and issubclass(dtype, np.generic):
        dtype = np.dtype(dtype)
    elif not isinstance(dtype, np.dtype):
        try:
            dtype = np.dtype(dtype)
        except TypeError:
            raise NumbaNotImplementedError(dtype) from None
    # Byte order does not change the kjit type (NumPy converts on copy).
    t = FROM_DTYPE.get(dtype.newbyteorder("=") if dtype.byteorder not in "=|" else dtype)
    if t is None:
        raise NumbaNotImplementedError(f"{dtype}: kjit has no type for this dtype "
                                       "(bool, integer, float and complex dtypes have one)")
    return t


def as_dtype(nbtype):
    """The NumPy dtype of a kjit scalar type (an array type gives its
    element's). ``TypeError`` for types without one, as in Numba."""
    if isinstance(nbtype, np.dtype):
        return nbtype
    if isinstance(nbtype, types.Array):
        nbtype = nbtype.dtype
    if not isinstance(nbtype, types.Type):
        # A Numba type object (numba installed beside kjit) or a name.
        name = str(nbtype)
        nbtype = getattr(types, "boolean" if name == "bool" else name, None)
        if not isinstance(nbtype, types.Type):
            raise TypeError(f"{name!r} cannot be represented as a NumPy dtype")
    d = _AS_DTYPE.get(nbtype)
    if d is None:
        raise NumbaNotImplementedError(f"{nbtype!r} cannot be represented as a NumPy dtype")
    return d


def is_arrayscalar(val):
    """Whether `val` is a NumPy scalar (``np.float32(1)``)."""
    return np.dtype(type(val)) in FROM_DTYPE if isinstance(val, np.generic) else False


def map_layout(val):
    """Numba's layout letter of a NumPy array: 'C', 'F' or 'A'."""
    if val.flags["C_CONTIGUOUS"]:
        return "C"
    if val.flags["F_CONTIGUOUS"]:
        return "F"
    return "A"
