"""float8_e4m3fn and float8_e5m2 in the simulator, without ml_dtypes.

NumPy has no 8-bit floats: without ``ml_dtypes`` a float8 host array is a
``uint8`` array tagged ``{"kjit": name}`` holding the bits
(kjit/float8_host.py), which a kernel run as Python would read as integers.
The simulator gives kernels such arrays wrapped in ``Float8Array`` (kernel
arguments, ``cuda.shared.array``, ``cuda.local.array``,
``cuda.const.array_like``): an element read is a ``Float8Scalar``, an
element write rounds the value once to nearest even and saturates to the
largest finite value (448, 57344; infinities too), NaN giving the byte
0x7f, as compiled kernels do (``float8_host.from_float``). Inside a
simulated kernel ``kjit.float8_e4m3fn(x)`` (``float8_e5m2(x)``) gives a
``Float8Scalar`` too.

The types are storage only (docs/types.md): the compiler refuses
arithmetic and comparisons on them before the simulator runs a kernel, so a
``Float8Scalar`` only converts: ``float32(x)`` (``np.float32(x)``),
``float(x)``, ``float16(x)`` and storing it into any array are exact (a
NaN keeps its sign, an e5m2 NaN its payload, as compiled),
``int(x)`` truncates, storing it into an array of the other 8-bit float
rounds it. NumPy functions and operators refuse it.

With ml_dtypes present, float8 arrays are real ml_dtypes arrays and are
passed as they are.
"""
import math

import numpy as np

from kjit import float8_host
from kjit.cuda.simulator.bfloat16_values import ExactFloatValue

__all__ = ["Float8Scalar", "Float8Array", "bits_of", "scalar", "needs_wrapping", "wrap", "unwrap"]

# name: (fraction bits, exponent bias, largest finite value, its bits)
_FORMAT = {"float8_e4m3fn": (3, 7, 448.0, 0x7E), "float8_e5m2": (2, 15, 57344.0, 0x7B)}
_NAN = 0x7F


def _bits_of_float(v, name):
    """The bits of the Python float ``v`` as ``name``: rounded once to nearest
    even, saturated to the largest finite value, NaN 0x7f."""
    man, bias, largest, largest_bits = _FORMAT[name]
    if v != v:
        return _NAN
    sign = 0x80 if math.copysign(1.0, v) < 0 else 0
    a = abs(v)
    if a >= largest:  # infinities too: cvt.rn.satfinite
        return sign | largest_bits
    if a == 0.0:
        return sign
    emin = 1 - bias  # the exponent of the smallest normal value
    e = math.frexp(a)[1] - 1  # 2**e <= a < 2**(e + 1)
    k = max(e, emin) - man  # the weight of the last fraction bit (subnormals: 2**(emin - man))
    n = round(math.ldexp(a, -k))  # round(): to nearest even, exactly
    # n * 2**k: a subnormal's n is its fraction; a normal's n is 2**man + fraction (or 2**(man + 1) when
    # it rounded up to the next binade, which the same sum encodes)
    if e < emin:
        return sign | n
    return sign | (((e - emin) << man) + n)


def bits_of(value, name):
    """The ``name`` bits of a number (a Python or NumPy number, a
    Float8Scalar, a bfloat16 value): its value rounded once to nearest even
    and saturated (float8_host.from_float)."""
    if type(value) is Float8Scalar:
        if value.name == name:
            return value.bits
        return _bits_of_float(value._f, name)
    if isinstance(value, (int, np.integer, np.bool_)):
        i = int(value)
        return _bits_of_float(float(max(-(1 << 20), min(i, 1 << 20))), name)  # any |i| >= 2**20 saturates
    if isinstance(value, (complex, np.complexfloating)):
        value = value.real  # as NumPy stores a complex in a real array (compiled kernels refuse it)
    return _bits_of_float(float(value), name)


def scalar(value, name):
    """``value`` rounded once to a Float8Scalar of type ``name``
    (``kjit.float8_e4m3fn(value)`` in a simulated kernel)."""
    return Float8Scalar._make(bits_of(value, name), name)


def _float32_bits(name):
    """The float32 bits (uint32) of each of ``name``'s 256 bytes: the
    values of float8_host.to_float32, a NaN keeping its sign and (e5m2, as
    float16's upper byte) its payload, as compiled kernels convert them."""
    b = np.arange(256, dtype=np.uint8)
    f = float8_host.to_float32(b.view(float8_host._TAGGED[name])).view(np.uint32).copy()
    nan = np.isnan(f.view(np.float32))
    sign = (b.astype(np.uint32) & 0x80) << 24
    if name == "float8_e5m2":
        payload = 0x7F800000 | ((b.astype(np.uint32) & 0x3) << 21)
    else:
        payload = np.full(256, 0x7FC00000, np.uint32)
    f[nan] = (sign | payload)[nan]
    return f


_F32 = {name: _float32_bits(name) for name in _FORMAT}
_TABLES = {name: [float(v) for v in _F32[name].view(np.float32)] for name in _FORMAT}


class Float8Scalar(ExactFloatValue):
    """A float8_e4m3fn or float8_e5m2 value (``bits``: its byte, ``name``:
    its type's name): converts exactly, computes nothing (see the module's
    text)."""

    __slots__ = ("bits", "name", "_f")

    def __init__(self, value=0.0, name="float8_e4m3fn"):
        if name not in _FORMAT:
            raise ValueError(f"no 8-bit float named {name!r}")
        self.bits = bits_of(value, name)
        self.name = name
        self._f = _TABLES[name][self.bits]

    @classmethod
    def _make(cls, bits, name):
        s = object.__new__(cls)
        s.bits = bits
        s.name = name
        s._f = _TABLES[name][bits]
        return s

    @classmethod
    def from_bits(cls, bits, name):
        """The ``name`` value whose byte is ``bits``."""
        return cls._make(int(bits) & 0xFF, name)

    # ---- conversions (exact) ------------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        # np.float32(x) (kjit.float32(x)) and stores into NumPy arrays ask for this
        a = _F32[self.name][self.bits:self.bits + 1].reshape(()).view(np.float32).copy()
        return a if dtype is None or np.dtype(dtype) == a.dtype else a.astype(dtype)

    def __repr__(self):
        return f"{self.name}({self._f!r})"

    def __format__(self, spec):
        return format(self._f, spec)

    # No arithmetic and no comparisons: the compiler refuses them (storage only). NumPy's
    # operators and functions refuse the value too, rather than computing with its float32.
    __array_ufunc__ = None


# ---- arrays -------------------------------------------------------------------------------------
def _bits_array(value, name):
    """The ``name`` bits (uint8) of an array-like value, each rounded once."""
    if isinstance(value, Float8Array):
        if value.name == name:
            return value._a.view(np.uint8)
        value = float8_host.to_float32(value._a)
    a = np.asarray(value)
    other = float8_host.kind_of(a.dtype)
    if other == name:
        return a.view(np.uint8)
    if other is not None:
        a = float8_host.to_float32(a)
    elif a.dtype == object:
        return np.vectorize(lambda v: bits_of(v, name), otypes=[np.uint8])(a)
    elif a.dtype.kind == "c":
        a = a.real
    elif a.dtype.kind == "u" and a.dtype.metadata and a.dtype.metadata.get("kjit") == "bfloat16":
        from kjit import bfloat16_host
        a = bfloat16_host.to_float32(a)
    return np.asarray(float8_host.from_float(a, name)).view(np.uint8)


class Float8Array:
    """A float8 array (a tagged uint8 NumPy array of bits, ``bits``) as a
    simulated kernel sees it: elements are Float8Scalar, stores round to the
    type; slices are views, wrapped too."""

    __slots__ = ("_a", "name")

    def __init__(self, bits, name=None):
        self._a = bits
        self.name = name or float8_host.kind_of(bits.dtype)

    @property
    def bits(self):
        return self._a

    shape = property(lambda self: self._a.shape)
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: self._a.size)
    dtype = property(lambda self: self._a.dtype)
    strides = property(lambda self: self._a.strides)
    itemsize = property(lambda self: self._a.itemsize)
    nbytes = property(lambda self: self._a.nbytes)
    flags = property(lambda self: self._a.flags)
    T = property(lambda self: Float8Array(self._a.T, self.name))

    def __len__(self):
        return len(self._a)

    def __getitem__(self, index):
        v = self._a[index]
        if isinstance(v, np.ndarray):
            return Float8Array(v, self.name)
        return Float8Scalar._make(int(v), self.name)

    def __setitem__(self, index, value):
        if type(value) is Float8Scalar:
            self._a[index] = value.bits if value.name == self.name else _bits_of_float(value._f, self.name)
        elif isinstance(value, (int, float, complex, np.generic)) and not isinstance(value, np.void):
            self._a[index] = bits_of(value, self.name)
        elif hasattr(value, "__float__") and not hasattr(value, "__len__"):
            self._a[index] = bits_of(value, self.name)  # a bfloat16 value ...
        else:
            self._a[index] = _bits_array(value, self.name)

    def __iter__(self):
        for i in range(len(self._a)):
            yield self[i]

    def __array__(self, dtype=None, copy=None):
        return self._a if dtype is None else self._a.astype(dtype)

    def copy(self):
        return Float8Array(self._a.copy(), self.name)

    def transpose(self, *axes):
        return Float8Array(self._a.transpose(*axes), self.name)

    def reshape(self, *shape, **kwargs):
        return Float8Array(self._a.reshape(*shape, **kwargs), self.name)

    def ravel(self):
        return Float8Array(self._a.ravel(), self.name)

    def __repr__(self):
        return f"Float8Array({self.name}, {float8_host.to_float32(self._a)!r})"


def needs_wrapping(a):
    """Whether ``a`` is a NumPy array of float8 bits (a tagged uint8
    dtype), which a kernel reads through a Float8Array."""
    return isinstance(a, np.ndarray) and a.dtype.kind == "u" and float8_host.kind_of(a.dtype) is not None


def wrap(a):
    """``a`` as a simulated kernel sees it: a Float8Array for an array of
    float8 bits, else ``a``."""
    return Float8Array(a) if needs_wrapping(a) else a


def unwrap(a):
    """The NumPy array of a Float8Array, else ``a``."""
    return a._a if isinstance(a, Float8Array) else a
