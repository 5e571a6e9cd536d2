"""kjit's type objects, spelled as Numba's: ``float32``, ``int64[:]``,
``float64[:, ::1]`` (C order), ``float32[::1, :]`` (Fortran order),
``int32(int32, int32)`` (a signature), ``UniTuple(int64, 2)``.

They are used to write signatures (``@jit(float64(float64[:]))``) and as
conversions inside kernels (``float32(x)``). A signature can also be a
string: ``"float64(float64[:], int64)"``.

Every scalar alias of ``numba.types`` names the same object as in Numba
(``intp is int64``, ``double is float64``, ``byte is uint8``,
``boolean is bool_``), and
``str()`` of a type is Numba's (``array(float32, 1d, C)``,
``UniTuple(int64 x 2)``). ``.name`` is the spelling kjit's signature parser
(compiler/Signature.cpp) reads (``float32[::1]``); ``str()`` of a
``Signature`` is made of those names, so it can always be compiled.
"""

__all__ = [
    "Type", "Number", "Integer", "Float", "Complex", "Boolean", "NoneType", "Array", "Signature",
    "BaseTuple", "UniTuple", "Tuple", "NamedTuple", "NamedUniTuple", "CPointer", "Record", "NestedArray",
    "void", "none", "unicode_type",
    "boolean", "bool_", "b1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "intp", "uintp", "intc", "uintc", "ssize_t", "size_t", "float16", "bfloat16", "float8_e4m3fn",
    "float8_e5m2", "float32", "float64",
    "double", "float_", "half", "complex64", "complex128", "complex_", "cfloat", "cdouble",
    "byte", "ubyte", "uchar", "char", "short", "ushort", "int_", "uint", "long_", "ulong",
    "longlong", "ulonglong", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4",
    "f8", "c8", "c16", "integer_domain", "real_domain", "complex_domain", "number_domain",
    "signed_domain", "unsigned_domain",
]


from collections import namedtuple


class Type:
    """A type. Calling a scalar type with types makes a signature; calling
    it with a value (in Python) converts like the NumPy scalar type. A
    scalar type indexed with slices makes an array type."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name

    __str__ = __repr__

    @property
    def key(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, Type) and type(self) is type(other) and self.key == other.key

    def __hash__(self):
        return hash((type(self).__name__, self.key))

    def __getitem__(self, item):
        if not isinstance(item, tuple):
            item = (item,)
        contiguous = [i for i, s in enumerate(item) if isinstance(s, slice) and s.step == 1]
        for s in item:
            if not isinstance(s, slice) or s.start is not None or s.stop is not None or s.step not in (None, 1):
                raise TypeError(f"array types are written {self.name}[:], {self.name}[:, ::1] or {self.name}[::1, :]")
        ndim = len(item)
        if not contiguous:
            layout = "A"
        elif contiguous == [ndim - 1]:
            layout = "C"
        elif contiguous == [0]:
            layout = "F"
        else:
            raise TypeError("only the first or the last axis can be contiguous (::1)")
        return Array(self, ndim, layout)

    def __call__(self, *args):
        if all(isinstance(a, Type) for a in args):
            return Signature(self, args)
        if len(args) == 1:
            import numpy as np
            return np.dtype(self.name).type(args[0])
        raise TypeError(f"{self.name}() takes types (a signature) or one value")


class NoneType(Type):
    """``none`` (and kjit's ``void``, the return type of kernels)."""


class Number(Type):
    """A scalar number type (Numba's ``types.Number``)."""


class Boolean(Type):
    """``boolean`` (``bool_``, ``b1``): str() is ``bool``."""
    bitwidth = 8


class Integer(Number):
    """``int8`` ... ``uint64``; ``.bitwidth`` and ``.signed`` as in Numba."""

    def __init__(self, name, bitwidth, signed):
        super().__init__(name)
        self.bitwidth, self.signed = bitwidth, signed


class Float(Number):
    """``float16``, ``float32``, ``float64``; ``.bitwidth``."""

    def __init__(self, name, bitwidth):
        super().__init__(name)
        self.bitwidth = bitwidth


class BFloat16(Float):
    """``bfloat16``: float32's range in 16 bits (8 significant bits). Called
    with a value in Python, it rounds it once to nearest even and gives an
    ``ml_dtypes.bfloat16`` scalar when ml_dtypes is present, else the
    rounded value as a Python float (NumPy has no bfloat16). In a kernel
    run by the CUDA simulator without ml_dtypes, it gives the simulator's
    bfloat16 scalar, which computes as bfloat16 (set_kernel_value)."""

    _kernel_value = None

    @classmethod
    def set_kernel_value(cls, fn):
        """The CUDA simulator's hook (kjit/cuda/simulator/kernelapi.py):
        ``fn(x)`` is ``x`` as the simulator's bfloat16 value inside a
        simulated kernel, None elsewhere; a call asks it first."""
        cls._kernel_value = staticmethod(fn)

    def __call__(self, *args):
        if len(args) == 1 and not isinstance(args[0], Type):
            if self._kernel_value is not None:
                v = self._kernel_value(args[0])
                if v is not None:
                    return v
            from kjit import bfloat16_host
            return bfloat16_host.scalar(args[0])
        return super().__call__(*args)


class Float8(Float):
    """``float8_e4m3fn``, ``float8_e5m2``: 8-bit floats, storage only in
    kernels and @jit functions (docs/types.md). Called with a value in
    Python, it rounds it (to nearest even, saturating) and gives ml_dtypes'
    scalar when ml_dtypes is present, else the rounded value as a float. In
    a kernel run by the CUDA simulator without ml_dtypes, it gives the
    simulator's float8 scalar (set_kernel_value)."""

    _kernel_value = None

    @classmethod
    def set_kernel_value(cls, fn):
        """The CUDA simulator's hook (kjit/cuda/simulator/kernelapi.py):
        ``fn(x, name)`` is ``x`` as the simulator's value of the 8-bit float
        ``name`` inside a simulated kernel, None elsewhere; a call asks it
        first."""
        cls._kernel_value = staticmethod(fn)

    def __call__(self, *args):
        if len(args) == 1 and not isinstance(args[0], Type):
            if self._kernel_value is not None:
                v = self._kernel_value(args[0], self.name)
                if v is not None:
                    return v
            from kjit import float8_host
            v = float(float8_host.to_float32(float8_host.from_float([float(args[0])], self.name))[0])
            try:
                import ml_dtypes
            except ImportError:
                return v
            return getattr(ml_dtypes, self.name)(v)
        return super().__call__(*args)


class Complex(Number):
    """``complex64``, ``complex128``; ``.underlying_float``, ``.bitwidth``."""

    def __init__(self, name, underlying_float):
        super().__init__(name)
        self.underlying_float = underlying_float
        self.bitwidth = 2 * underlying_float.bitwidth


class Array(Type):
    """``Array(dtype, ndim, layout, readonly=False)``: str() is Numba's
    ``array(float32, 1d, C)``; ``.name`` the signature spelling
    ``float32[::1]``. ``readonly`` is kept (typeof of a read-only NumPy
    array gives it) and shown; a signature passes the array by its name."""

    def __init__(self, dtype, ndim, layout="A", readonly=False, aligned=True):
        if layout not in ("C", "F", "A"):
            raise ValueError(f"an array's layout is 'C', 'F' or 'A', not {layout!r}")
        if not isinstance(dtype, Type) or isinstance(dtype, (Array, NoneType)):
            raise TypeError(f"an array's dtype is a scalar type, not {dtype!r}")
        self.dtype, self.ndim, self.layout, self.readonly = dtype, ndim, layout, readonly
        self.mutable, self.aligned = not readonly, aligned
        dims = [":"] * ndim
        if ndim and layout == "C":
            dims[-1] = "::1"
        elif ndim and layout == "F":
            dims[0] = "::1"
        super().__init__(f"{dtype.name}[{', '.join(dims)}]")

    def __repr__(self):
        text = f"array({self.dtype}, {self.ndim}d, {self.layout})"
        return "readonly " + text if self.readonly else text

    __str__ = __repr__

    @property
    def key(self):
        return (self.dtype.key, self.ndim, self.layout, self.readonly)

    @property
    def is_c_contig(self):
        return self.layout == "C" or (self.ndim <= 1 and self.layout == "F")

    @property
    def is_f_contig(self):
        return self.layout == "F" or (self.ndim <= 1 and self.layout == "C")

    def copy(self, dtype=None, ndim=None, layout=None, readonly=None):
        return Array(self.dtype if dtype is None else dtype, self.ndim if ndim is None else ndim,
                     self.layout if layout is None else layout,
                     self.readonly if readonly is None else readonly)

    def __getitem__(self, item):
        raise TypeError("an array type cannot be indexed again")

    def __call__(self, *args):
        if all(isinstance(a, Type) for a in args):
            return Signature(self, args)
        raise TypeError(f"{self}() takes types (a signature)")


class NestedArray(Array):
    """``NestedArray(dtype, shape)``: the type of a record's array field
    (``('j', np.float32, (3, 2))``), as Numba's: a C-contiguous array of
    that shape; str() is ``nestedarray(float32, (3, 2))``."""

    def __init__(self, dtype, shape):
        self.shape = tuple(int(n) for n in shape)
        super().__init__(dtype, len(self.shape), "C")
        self.nitems = 1
        for n in self.shape:
            self.nitems *= n

    def __repr__(self):
        return f"nestedarray({self.dtype}, {self.shape})"

    __str__ = __repr__

    @property
    def key(self):
        return (self.dtype.key, self.shape)


class _RecordField(namedtuple("_RecordField", "type,offset,alignment,title")):
    """A field of a ``Record``: its type, offset, alignment (None) and title."""


class Record(Type):
    """A NumPy structured dtype's element type (Numba's ``Record``), made by
    ``kjit.np.numpy_support.from_dtype(dtype)`` and by ``kjit.typeof`` of a
    structured scalar. ``.fields`` maps a name to ``(type, offset,
    alignment, title)``; ``.size`` is the itemsize, ``.aligned`` whether the
    dtype was made with ``align=True``; ``.dtype`` is the NumPy dtype.
    str() is Numba's name (``Record(a[type=float64;offset=0],...;16;True)``);
    ``.name``, the signature spelling, is the record's layout spec (kjit's
    compiler reads it: ``from_dtype(dt)[::1]`` works in a signature)."""

    mutable = True

    def __init__(self, dtype, spec, numba_name, fields):
        super().__init__(spec)
        self.dtype = dtype
        self._numba_name = numba_name
        self.fields = dict(fields)
        self.size = dtype.itemsize
        self.aligned = bool(dtype.isalignedstruct)
        self.bitwidth = self.size * 8

    def __repr__(self):
        return self._numba_name

    __str__ = __repr__

    def __len__(self):
        return len(self.fields)

    def offset(self, key):
        return self.fields[key].offset

    def typeof(self, key):
        return self.fields[key].type

    def alignof(self, key):
        return self.fields[key].alignment

    def has_titles(self):
        return any(f.title is not None for f in self.fields.values())

    def is_title(self, key):
        return self.fields[key].title == key

    @property
    def members(self):
        """(name, type) of each field, in order of offset."""
        return [(k, f.type) for k, f in sorted(self.fields.items(), key=lambda kv: kv[1].offset)]

    def __call__(self, *args):
        if all(isinstance(a, Type) for a in args):
            return Signature(self, args)
        raise TypeError(f"{self}() takes types (a signature)")


class Signature:
    """``return_type(arg_types...)``; ``str()`` gives the signature string
    (kjit's spelling, which the signature parser reads)."""

    def __init__(self, return_type, args):
        self.return_type, self.args = return_type, tuple(args)

    def __repr__(self):
        return f"{self.return_type.name}({', '.join(a.name for a in self.args)})"

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, Signature) and (self.return_type, self.args) == (other.return_type, other.args)

    def __hash__(self):
        return hash((self.return_type, self.args))


class BaseTuple(Type):
    """The tuple types (``UniTuple``, ``Tuple``, named tuples)."""

    def __len__(self):
        return len(self.types)

    def __iter__(self):
        return iter(self.types)

    @property
    def key(self):
        return tuple(t.key for t in self.types)


class UniTuple(BaseTuple):
    """``UniTuple(dtype, count)``: str() is Numba's ``UniTuple(int64 x 2)``."""

    def __init__(self, dtype, count):
        self.dtype, self.count = dtype, count
        self.types = (dtype,) * count
        super().__init__(f"UniTuple({dtype.name}, {count})")

    def __repr__(self):
        return f"UniTuple({self.dtype} x {self.count})"

    __str__ = __repr__


class Tuple(BaseTuple):
    """``Tuple((t1, t2, ...))`` (or ``Tuple([...])``); all alike gives a
    ``UniTuple``, as in Numba."""

    def __new__(cls, types):
        types = tuple(types)
        if cls is Tuple and types and all(t == types[0] for t in types):
            return UniTuple(types[0], len(types))
        return super().__new__(cls)

    def __init__(self, types):
        self.types = tuple(types)
        self.count = len(self.types)
        super().__init__(f"Tuple({', '.join(t.name for t in self.types)})")

    def __repr__(self):
        return f"Tuple({', '.join(str(t) for t in self.types)})"

    __str__ = __repr__


class ListType(Type):
    """``ListType(dtype)``: a list of dtype (Numba's ``types.ListType``), as
    a @jitclass field's type; ``.name`` is the compiler's ``list(int64)``."""

    def __init__(self, dtype):
        self.dtype = dtype
        super().__init__(f"list({dtype.name})")

    def __repr__(self):
        return f"ListType[{self.dtype}]"

    __str__ = __repr__


class NamedTuple(BaseTuple):
    """``NamedTuple(types, cls)``: typeof of a ``collections.namedtuple``
    value (Numba's name); a signature passes it as a tuple of its types."""

    def __init__(self, types, cls):
        self.types, self.instance_class = tuple(types), cls
        self.fields = tuple(getattr(cls, "_fields", ()))
        self.count = len(self.types)
        super().__init__(f"Tuple({', '.join(t.name for t in self.types)})")

    def __repr__(self):
        return f"{self.instance_class.__name__}({', '.join(str(t) for t in self.types)})"

    __str__ = __repr__

    @property
    def key(self):
        return (self.instance_class, super().key)


NamedUniTuple = NamedTuple


class CPointer(Type):
    """``CPointer(dtype)``: Numba's pointer type. It can be written in a
    signature, but kjit compiles no pointer arguments: the signature parser
    refuses it ("unknown type 'CPointer'"). Pass an array instead."""

    def __init__(self, dtype, addrspace=None):
        self.dtype, self.addrspace = dtype, addrspace
        super().__init__(f"CPointer({dtype.name})")

    def __repr__(self):
        return f"{self.dtype}*"

    __str__ = __repr__

    @property
    def key(self):
        return (self.dtype.key, self.addrspace)


void = NoneType("void")
none = NoneType("none")
# Numba's str type: for List.empty_list and Dict.empty in @jit functions.
unicode_type = Type("unicode_type")
boolean = bool_ = b1 = Boolean("bool")
int8 = i1 = char = Integer("int8", 8, True)
int16 = i2 = short = Integer("int16", 16, True)
int32 = i4 = intc = Integer("int32", 32, True)
int64 = i8 = intp = ssize_t = int_ = long_ = longlong = Integer("int64", 64, True)
uint8 = u1 = byte = ubyte = uchar = Integer("uint8", 8, False)
uint16 = u2 = ushort = Integer("uint16", 16, False)
uint32 = u4 = uintc = Integer("uint32", 32, False)
uint64 = u8 = uintp = size_t = uint = ulong = ulonglong = Integer("uint64", 64, False)
float16 = f2 = half = Float("float16", 16)
bfloat16 = BFloat16("bfloat16", 16)
float8_e4m3fn = Float8("float8_e4m3fn", 8)
float8_e5m2 = Float8("float8_e5m2", 8)
float32 = f4 = float_ = Float("float32", 32)
float64 = f8 = double = Float("float64", 64)
complex64 = c8 = cfloat = Complex("complex64", float32)
complex128 = c16 = complex_ = cdouble = Complex("complex128", float64)

signed_domain = frozenset([int8, int16, int32, int64])
unsigned_domain = frozenset([uint8, uint16, uint32, uint64])
integer_domain = signed_domain | unsigned_domain
real_domain = frozenset([float32, float64])
complex_domain = frozenset([complex64, complex128])
number_domain = real_domain | integer_domain | complex_domain


def signature_list(arg):
    """The signatures a decorator's first argument names: none, one (a
    string, a ``Signature``, or, as in Numba, a tuple of argument types
    ``(float32[::1], int32)``), or several (a list, or a tuple of
    signatures)."""
    if arg is None:
        return ()
    if isinstance(arg, tuple) and arg and all(isinstance(t, Type) for t in arg):
        return (arg,)
    if isinstance(arg, (list, tuple)):
        return tuple(arg)
    return (arg,)


def signature_text(sig):
    """The signature string kjit's parser (compiler/Signature.cpp) reads, of
    a signature given as a string, a ``Signature`` or a tuple of argument
    types (no return type: ``"(float32[::1], int32)"``)."""
    if isinstance(sig, tuple) and all(isinstance(t, Type) for t in sig):
        return "(" + ", ".join(t.name for t in sig) + ")"
    if isinstance(sig, Type):
        return sig.name
    return str(sig)
