"""bfloat16 in the simulator, without ml_dtypes.

NumPy has no bfloat16: without ``ml_dtypes`` a bfloat16 host array is a
``uint16`` array tagged ``{"kjit": "bfloat16"}`` holding the bits
(kjit/bfloat16_host.py), which a kernel run as Python would read as
integers. The simulator gives kernels such arrays wrapped in
``BFloat16Array`` (kernel arguments, ``cuda.shared.array``,
``cuda.local.array``): an element read is a ``BFloat16Scalar``, an element
write rounds the value to bfloat16 once, to nearest even. Inside a
simulated kernel ``kjit.bfloat16(x)`` gives a ``BFloat16Scalar`` too.

A ``BFloat16Scalar`` computes as compiled kernels do (docs/types.md):

* bfloat16 with bfloat16, bool, int8 or uint8: bfloat16, computed in
  float32 and rounded once (a NaN stays a quiet NaN);
* with float16, int16 or float32: float32;
* with float64, a Python float or int, uint16, int32, uint32, int64 or
  uint64: float64; with complex64: complex64; with complex: complex128;
* ``x ** n`` for an integer ``n``: bfloat16; comparisons give bool;
  ``-x`` and ``abs(x)`` change the sign bit only;
* ``float32(x)`` (``np.float32(x)``), ``float(x)`` are exact; ``int(x)``
  truncates.

With ml_dtypes present, bfloat16 arrays are real ``ml_dtypes.bfloat16``
arrays, which compute as bfloat16 in NumPy: they are not wrapped.
"""
import math
import operator
import struct

import numpy as np

from kjit import bfloat16_host

__all__ = ["BFloat16Scalar", "BFloat16Array", "bits_of", "scalar", "needs_wrapping", "wrap", "unwrap"]

_F32 = struct.Struct("<f")
_U32 = struct.Struct("<I")
_TWO_128 = 2.0 ** 128


def _bits_of_float(v, nan_source):
    """bfloat16 bits of the Python float ``v`` rounded once to nearest
    even; a NaN keeps its sign and upper payload bits, quiet (as
    bfloat16_host.from_float: ``nan_source`` is what holds the payload)."""
    if v != v:
        b = int(np.float32(nan_source).view(np.uint32))
        return ((b >> 16) | 0x40) & 0xFFFF
    sign = 0x8000 if math.copysign(1.0, v) < 0 else 0
    a = abs(v)
    if a == math.inf:
        return sign | 0x7F80
    if a == 0.0:
        return sign
    e = math.frexp(a)[1]  # a = m * 2**e, 0.5 <= m < 1
    k = max(e - 8, -133)  # the weight of the last of 8 significant bits (2**-133: subnormals)
    q = math.ldexp(round(math.ldexp(a, -k)), k)  # round(): to nearest even, exactly
    if q >= _TWO_128:
        return sign | 0x7F80
    return sign | (_U32.unpack(_F32.pack(q))[0] >> 16)


def bits_of(value):
    """The bfloat16 bits of a number (a Python or NumPy number, a
    BFloat16Scalar, an ml_dtypes.bfloat16): its value rounded once to
    nearest even. Integers convert as through float64
    (bfloat16_host.from_float)."""
    if type(value) is BFloat16Scalar:
        return value.bits
    if isinstance(value, (int, np.integer, np.bool_)):
        return _bits_of_float(float(int(value)), 0.0)
    if isinstance(value, (complex, np.complexfloating)):
        value = value.real  # as NumPy stores a complex in a real array (compiled kernels refuse it)
    v = float(value)
    return _bits_of_float(v, value if v != v and isinstance(value, np.floating) else v)


def _float_of_bits(bits):
    return _F32.unpack(_U32.pack(bits << 16))[0]


def scalar(value):
    """``value`` rounded once to a BFloat16Scalar (``kjit.bfloat16(value)``
    in a simulated kernel)."""
    return BFloat16Scalar._make(bits_of(value))


# ---- promotion --------------------------------------------------------------------------------
# What a bfloat16 meets, and the type both compute in (the compiler's rules,
# compiler/Conversion.cpp): "bf16" (float32, rounded to bfloat16), "f32",
# "f64", "c64", "c128".
_KIND = {bool: "bf16", np.bool_: "bf16", np.int8: "bf16", np.uint8: "bf16",
         np.float16: "f32", np.int16: "f32", np.float32: "f32",
         int: "f64", float: "f64", np.float64: "f64", np.uint16: "f64", np.int32: "f64", np.uint32: "f64",
         np.int64: "f64", np.uint64: "f64", np.longlong: "f64", np.ulonglong: "f64",
         np.complex64: "c64", complex: "c128", np.complex128: "c128"}
_CAST = {"f32": np.float32, "f64": np.float64, "c64": np.complex64, "c128": np.complex128}


def _kind(v):
    t = type(v)
    k = _KIND.get(t)
    if k is not None or t is BFloat16Scalar:
        return k or "bf16"
    if isinstance(v, np.generic) and bfloat16_host.is_bfloat16(v.dtype):
        return "bf16"  # an ml_dtypes.bfloat16
    for base, kind in ((bool, "bf16"), (int, "f64"), (float, "f64"), (complex, "c128")):
        if isinstance(v, base):
            return kind
    return None


def _f32(v):
    """A number as a float32 (a bfloat16 exactly, NaN payloads too)."""
    if type(v) is BFloat16Scalar:
        return np.float32(v._f) if v._f == v._f else np.uint32(v.bits << 16).view(np.float32)
    return np.float32(v)


_COMPARE = {operator.lt, operator.le, operator.eq, operator.ne, operator.gt, operator.ge}


def _rb(f):
    """A float32 rounded to bfloat16 (the value, as a float32): each
    bfloat16 operation of a compiled kernel ends so."""
    v = float(f)
    return np.float32(_float_of_bits(_bits_of_float(v, f if v != v else v)))


def _divmod(x, y):
    """(x // y, x % y) of two bfloat16 values (float32s), step by step as a
    compiled kernel computes them in bfloat16: Python's float divmod
    (compiler/LoweringExpressions.cpp, floatBinary), each step rounded."""
    zero = np.float32(0)
    mod = _rb(np.fmod(x, y))
    d = _rb(_rb(x - mod) / y)
    nonzero = mod != zero
    if nonzero and ((y < zero) != (mod < zero)):
        mod = _rb(mod + y)
        d = _rb(d - np.float32(1))
    if not nonzero:
        mod = np.copysign(zero, y)
    if y == zero:  # NumPy's x // 0.0 (kernels' error model): x / 0.0
        return _rb(x / y), mod
    fl = np.floor(d)
    if _rb(d - fl) > np.float32(0.5):
        fl = _rb(fl + np.float32(1))
    return (fl if d != zero else np.copysign(zero, _rb(x / y))), mod


def _powi(x, n):
    """x ** n for a bfloat16 x (a float32) and an integer n: by squaring,
    each product rounded to bfloat16 (compiled kernels' float ** int)."""
    e = abs(n)
    acc = np.float32(1)
    while e:
        if e & 1:
            acc = _rb(acc * x)
        e >>= 1
        x = _rb(x * x)
    return _rb(np.float32(1) / acc) if n < 0 else acc


def _binary(op, x, y):
    """``op(x, y)`` where x or y is a BFloat16Scalar; NotImplemented for
    what a bfloat16 does not compute with (arrays, strings ...)."""
    kx, ky = _kind(x), _kind(y)
    if kx is None or ky is None:
        return NotImplemented
    if op in _COMPARE:  # exact: every bfloat16 is a float64
        return op(float(x) if type(x) is BFloat16Scalar else x, float(y) if type(y) is BFloat16Scalar else y)
    if op is operator.pow and type(x) is BFloat16Scalar and isinstance(y, (int, np.integer, np.bool_)):
        return BFloat16Scalar._from_float32(_powi(_f32(x), int(y)))  # x ** n stays bfloat16
    if kx == "bf16" and ky == "bf16":
        if op is operator.floordiv or op is operator.mod or op is divmod:
            q, m = _divmod(_f32(x), _f32(y))
            if op is divmod:
                return BFloat16Scalar._from_float32(q), BFloat16Scalar._from_float32(m)
            return BFloat16Scalar._from_float32(q if op is operator.floordiv else m)
        return BFloat16Scalar._from_float32(op(_f32(x), _f32(y)))
    cast = _CAST[ky if kx == "bf16" else kx]
    return op(cast(float(x)) if type(x) is BFloat16Scalar else cast(x),
              cast(float(y)) if type(y) is BFloat16Scalar else cast(y))


def _methods(op):
    def forward(self, other):
        return _binary(op, self, other)

    def reflected(self, other):
        return _binary(op, other, self)

    return forward, reflected


_UFUNC_BINARY = {np.add: operator.add, np.subtract: operator.sub, np.multiply: operator.mul,
                 np.true_divide: operator.truediv, np.floor_divide: operator.floordiv,
                 np.remainder: operator.mod, np.power: operator.pow, np.divmod: divmod,
                 np.less: operator.lt, np.less_equal: operator.le, np.equal: operator.eq,
                 np.not_equal: operator.ne, np.greater: operator.gt, np.greater_equal: operator.ge}


class ExactFloatValue:
    """The conversions of a narrow float value held as the float ``_f``
    (exact): float(), int(), complex(), bool(), math.trunc(), hash(), str().
    BFloat16Scalar and float8_values.Float8Scalar share them (a subclass
    that defines __eq__ names __hash__ again: Python drops it otherwise)."""

    __slots__ = ()

    def __float__(self):
        return self._f

    def __int__(self):
        return int(self._f)

    def __complex__(self):
        return complex(self._f)

    def __bool__(self):
        return self._f != 0.0

    def __trunc__(self):
        return math.trunc(self._f)

    def __hash__(self):
        return hash(self._f)

    def __str__(self):
        return str(self._f)


class BFloat16Scalar(ExactFloatValue):
    """A bfloat16 value (``bits``: its 16 bits) computing as bfloat16 does
    in compiled kernels (see the module's text)."""

    __slots__ = ("bits", "_f")
    __hash__ = ExactFloatValue.__hash__  # (it defines __eq__)

    def __init__(self, value=0.0):
        self.bits = bits_of(value)
        self._f = _float_of_bits(self.bits)

    @classmethod
    def _make(cls, bits):
        s = object.__new__(cls)
        s.bits = bits
        s._f = _float_of_bits(bits)
        return s

    @classmethod
    def from_bits(cls, bits):
        """The bfloat16 whose bits are ``bits`` (an integer below 2**16)."""
        return cls._make(int(bits) & 0xFFFF)

    @classmethod
    def _from_float32(cls, f):
        f = np.float32(f)
        v = float(f)
        return cls._make(_bits_of_float(v, f if v != v else v))

    # ---- conversions --------------------------------------------------------------------
    def __array__(self, dtype=None):
        # np.float32(x) (kjit.float32(x)) asks for this: exact, NaN payloads too
        a = np.array(self.bits << 16, np.uint32).view(np.float32)
        return a if dtype is None or np.dtype(dtype) == a.dtype else a.astype(dtype)

    def __floor__(self):
        return math.floor(self._f)

    def __ceil__(self):
        return math.ceil(self._f)

    def __round__(self, ndigits=None):
        if ndigits is None:
            return round(self._f)
        return scalar(round(self._f, ndigits))

    def __repr__(self):
        return f"bfloat16({self._f!r})"

    def __format__(self, spec):
        return format(self._f, spec)

    @property
    def real(self):
        return self

    @property
    def imag(self):
        return BFloat16Scalar._make(0)

    def conjugate(self):
        return self

    def is_integer(self):
        return self._f.is_integer()

    # ---- arithmetic ---------------------------------------------------------------------
    __add__, __radd__ = _methods(operator.add)
    __sub__, __rsub__ = _methods(operator.sub)
    __mul__, __rmul__ = _methods(operator.mul)
    __truediv__, __rtruediv__ = _methods(operator.truediv)
    __floordiv__, __rfloordiv__ = _methods(operator.floordiv)
    __mod__, __rmod__ = _methods(operator.mod)
    __divmod__, __rdivmod__ = _methods(divmod)
    __lt__, __gt__ = _methods(operator.lt)[0], _methods(operator.gt)[0]
    __le__, __ge__ = _methods(operator.le)[0], _methods(operator.ge)[0]
    __eq__, __ne__ = _methods(operator.eq)[0], _methods(operator.ne)[0]

    def __pow__(self, other, modulo=None):
        if modulo is not None:
            return NotImplemented
        return _binary(operator.pow, self, other)

    def __rpow__(self, other):
        return _binary(operator.pow, other, self)

    def __neg__(self):
        return BFloat16Scalar._make(self.bits ^ 0x8000)

    def __pos__(self):
        return self

    def __abs__(self):
        return BFloat16Scalar._make(self.bits & 0x7FFF)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """NumPy scalars and functions meeting a bfloat16: arithmetic by the
        rules above (``np.float32(2) * x`` is float32), other functions
        (``np.sqrt(x)``) of its float32 value."""
        if method != "__call__" or kwargs:
            return NotImplemented
        op = _UFUNC_BINARY.get(ufunc)
        if op is not None and len(inputs) == 2:
            return _binary(op, *inputs)
        if ufunc is np.negative:
            return -inputs[0]
        if ufunc is np.absolute:
            return abs(inputs[0])
        if ufunc is np.positive:
            return inputs[0]
        return ufunc(*(np.float32(v._f) if type(v) is BFloat16Scalar else v for v in inputs))


# ---- arrays -------------------------------------------------------------------------------------
def _bits_array(value):
    """The bfloat16 bits (uint16) of an array-like value, each rounded once."""
    if isinstance(value, BFloat16Array):
        return value._a.view(np.uint16)
    a = np.asarray(value)
    if bfloat16_host.is_bfloat16(a.dtype):
        return a.view(np.uint16)
    if a.dtype == object:
        return np.vectorize(bits_of, otypes=[np.uint16])(a)
    return np.asarray(bfloat16_host.from_float(a)).view(np.uint16)


class BFloat16Array:
    """A bfloat16 array (a tagged uint16 NumPy array of bits, ``bits``) as a
    simulated kernel sees it: elements are BFloat16Scalar, stores round to
    bfloat16; slices are views, wrapped too."""

    __slots__ = ("_a",)

    def __init__(self, bits):
        self._a = bits

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
    T = property(lambda self: BFloat16Array(self._a.T))

    def __len__(self):
        return len(self._a)

    def __getitem__(self, index):
        v = self._a[index]
        if isinstance(v, np.ndarray):
            return BFloat16Array(v)
        return BFloat16Scalar._make(int(v))

    def __setitem__(self, index, value):
        if type(value) is BFloat16Scalar:
            self._a[index] = value.bits
        elif isinstance(value, (int, float, complex, np.generic)) and not isinstance(value, np.void):
            self._a[index] = bits_of(value)
        else:
            self._a[index] = _bits_array(value)

    def __iter__(self):
        for i in range(len(self._a)):
            yield self[i]

    def __array__(self, dtype=None):
        return self._a if dtype is None else self._a.astype(dtype)

    def copy(self):
        return BFloat16Array(self._a.copy())

    def transpose(self, *axes):
        return BFloat16Array(self._a.transpose(*axes))

    def reshape(self, *shape, **kwargs):
        return BFloat16Array(self._a.reshape(*shape, **kwargs))

    def ravel(self):
        return BFloat16Array(self._a.ravel())

    def __repr__(self):
        return f"BFloat16Array({bfloat16_host.to_float32(self._a)!r})"


def needs_wrapping(a):
    """Whether ``a`` is a NumPy array of bfloat16 bits (the tagged uint16
    dtype), which a kernel reads through a BFloat16Array."""
    return isinstance(a, np.ndarray) and a.dtype.kind == "u" and bfloat16_host.is_bfloat16(a.dtype)


def wrap(a):
    """``a`` as a simulated kernel sees it: a BFloat16Array for an array of
    bfloat16 bits, else ``a``."""
    return BFloat16Array(a) if needs_wrapping(a) else a


def unwrap(a):
    """The NumPy array of a BFloat16Array, else ``a``."""
    return a._a if isinstance(a, BFloat16Array) else a
