"""NumPy dtypes to kjit types and back, as Numba's ``numba.np.numpy_support``.

    >>> from kjit.np import numpy_support
    >>> numpy_support.from_dtype(np.dtype(np.float32))
    float32
    >>> numpy_support.as_dtype(kjit.types.int64)
    dtype('int64')

kjit has types for NumPy's bool, integer, float and complex dtypes, and
for structured dtypes whose fields are those, structured dtypes again, or
arrays of either (``Record``, as Numba's; a subarray dtype is a
``NestedArray``). String, datetime and object dtypes raise
``NumbaNotImplementedError``, as Numba does for a dtype it does not know.
"""
import numpy as np

from kjit import types
from kjit.errors import NumbaNotImplementedError

__all__ = ["from_dtype", "as_dtype", "is_arrayscalar", "map_layout", "carray", "farray", "FROM_DTYPE"]

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


def _float8_kind(dtype):
    from kjit import float8_host
    try:
        return float8_host.kind_of(dtype)
    except TypeError:
        return None


def _is_bfloat16(dtype):
    from kjit import bfloat16_host
    try:
        return bfloat16_host.is_bfloat16(dtype)
    except TypeError:
        return False


def from_dtype(dtype):
    """The kjit type of a NumPy dtype (or anything ``np.dtype()`` takes:
    ``np.float32``, ``"int64"``). A kjit type is returned as it is. A
    structured dtype gives a ``Record`` (one per layout: two dtypes that
    differ only in ``align=True`` give two records, as in Numba)."""
    if isinstance(dtype, types.Type):
        return dtype
    if _is_bfloat16(dtype):
        return types.bfloat16
    f8 = _float8_kind(dtype)
    if f8 is not None:
        return getattr(types, f8)
    if type(dtype) is type and issubclass(dtype, np.generic):
        dtype = np.dtype(dtype)
    elif not isinstance(dtype, np.dtype):
        try:
            dtype = np.dtype(dtype)
        except TypeError:
            raise NumbaNotImplementedError(dtype) from None
    if dtype.fields is not None:
        return _record(dtype)
    if dtype.subdtype is not None:
        base, shape = dtype.subdtype
        return types.NestedArray(from_dtype(base), shape)
    # Byte order does not change the kjit type (NumPy converts on copy).
    t = FROM_DTYPE.get(dtype.newbyteorder("=") if dtype.byteorder not in "=|" else dtype)
    if t is None:
        raise NumbaNotImplementedError(f"{dtype}: kjit has no type for this dtype "
                                       "(bool, integer, float and complex dtypes have one)")
    return t


# Records by (dtype, isalignedstruct): NumPy's dtype equality ignores
# align=True, which changes the record (Numba keys its cache the same way).
_RECORDS = {}


def _record(dtype):
    key = (dtype, dtype.isalignedstruct)
    rec = _RECORDS.get(key)
    if rec is None:
        from kjit import _kjit
        spec, name = _kjit.record_spec(dtype)
        if spec is None:
            raise NumbaNotImplementedError(f"{dtype}: kjit has no type for this structured dtype: {name}")
        fields = {}
        for fname in dtype.names:
            fdt, offset = dtype.fields[fname][:2]
            title = dtype.fields[fname][2] if len(dtype.fields[fname]) > 2 else None
            fields[fname] = types._RecordField(from_dtype(fdt), offset, None, title)
        rec = _RECORDS[key] = types.Record(dtype, spec, name, fields)
    return rec


def _dtype_of_layout(layout):
    def fmt(f):
        if isinstance(f, dict):
            return _dtype_of_layout(f)
        if isinstance(f, tuple):
            return (fmt(f[0]), f[1])
        return np.dtype(f)
    return np.dtype({"names": layout["names"], "formats": [fmt(f) for f in layout["formats"]],
                     "offsets": layout["offsets"], "itemsize": layout["itemsize"]}, align=layout["aligned"])


def _dtype_of_spec(spec):
    """The NumPy dtype of a record spec (the compiler's spelling of a record)."""
    from kjit import _kjit
    return _dtype_of_layout(_kjit.record_layout(spec))


def _record_from_bytes(spec, data):
    """A record returned by a @jit function: a structured scalar holding a
    copy of its bytes."""
    return np.frombuffer(bytearray(data), dtype=_dtype_of_spec(spec))[0]


def _type_of_key(key):
    """The kjit type of one argument's type key (kernel.overloads' types that
    hold records)."""
    from kjit import _kjit

    def build(d):
        kind = d[0]
        if kind == "record":
            return from_dtype(_dtype_of_spec(d[1]))
        if kind == "array":
            return types.Array(build(d[1]), d[2], d[3], readonly=d[4])
        if kind == "tuple":
            return types.Tuple([build(e) for e in d[1]])
        if kind == "none":
            return types.none
        return getattr(types, "boolean" if d[1] == "bool" else d[1])
    return build(_kjit.key_type(key))


def as_dtype(nbtype):
    """The NumPy dtype of a kjit scalar or record type (an array type gives
    its element's). ``TypeError`` for types without one, as in Numba."""
    if isinstance(nbtype, np.dtype):
        return nbtype
    if isinstance(nbtype, types.NestedArray):
        return np.dtype((as_dtype(nbtype.dtype), nbtype.shape))
    if isinstance(nbtype, types.Array):
        nbtype = nbtype.dtype
    if isinstance(nbtype, types.Record):
        return nbtype.dtype
    if not isinstance(nbtype, types.Type):
        # A Numba type object (numba installed beside kjit) or a name.
        name = str(nbtype)
        nbtype = getattr(types, "boolean" if name == "bool" else name, None)
        if not isinstance(nbtype, types.Type):
            raise TypeError(f"{name!r} cannot be represented as a NumPy dtype")
    if nbtype is types.bfloat16:
        from kjit import bfloat16_host
        return bfloat16_host.dtype()
    if nbtype in (types.float8_e4m3fn, types.float8_e5m2):
        from kjit import float8_host
        return float8_host.dtype(nbtype.name)
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


# NumPy's version as (major, minor), as numba.np.numpy_support has it.
numpy_version = tuple(int(p) for p in np.__version__.split(".")[:2])


def _pointer_array(ptr, shape, dtype, order):
    import ctypes
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    shape = tuple(int(n) for n in shape)
    if isinstance(ptr, ctypes._Pointer):
        pointee = np.dtype(ptr._type_)
        if dtype is not None and np.dtype(as_dtype(dtype) if isinstance(dtype, types.Type) else dtype) != pointee:
            raise TypeError(f"mismatching dtype '{dtype}' for pointer {ptr}")
        dtype, address = pointee, ctypes.cast(ptr, ctypes.c_void_p).value or 0
    elif isinstance(ptr, ctypes.c_void_p):
        address = ptr.value or 0
    elif isinstance(ptr, (int, np.integer)):
        address = int(ptr)
    else:
        raise TypeError(f"expected a ctypes pointer or an address, got {type(ptr).__name__}")
    if dtype is None:
        raise TypeError("a dtype is needed for an untyped pointer")
    dtype = np.dtype(as_dtype(dtype) if isinstance(dtype, types.Type) else dtype)
    size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    buf = (ctypes.c_char * size).from_address(address) if size else bytearray()
    return np.ndarray(shape, dtype, buffer=buf, order=order)


def carray(ptr, shape, dtype=None):
    """A NumPy array over the memory at ``ptr`` (a ctypes pointer, or an
    address with ``dtype``), in C order, as Numba's ``carray`` on the host;
    the memory is not copied. (In kernels, where Numba also offers it over a
    ``CPointer``, kjit has no pointers yet.)"""
    return _pointer_array(ptr, shape, dtype, "C")


def farray(ptr, shape, dtype=None):
    """As ``carray``, in Fortran order."""
    return _pointer_array(ptr, shape, dtype, "F")
