"""kjit's type objects, spelled as Numba's: ``float32``, ``int64[:]``,
``float64[:, ::1]`` (C order), ``float32[::1, :]`` (Fortran order),
``int32(int32, int32)`` (a signature), ``UniTuple(int64, 2)``.

They are used to write signatures (``@jit(float64(float64[:]))``) and as
conversions inside kernels (``float32(x)``). A signature can also be a
string: ``"float64(float64[:], int64)"``.
"""

__all__ = [
    "Type", "Array", "Signature", "UniTuple", "Tuple", "void", "none",
    "boolean", "bool_", "b1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "intp", "uintp", "intc", "uintc", "float16", "float32", "float64", "double",
    "complex64", "complex128", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4",
    "f8", "c8", "c16",
]


class Type:
    """A scalar type. Calling it with types makes a signature; calling it
    with a value (in Python) converts like the NumPy scalar type."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, Type) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

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
            return np.dtype(self.name if self.name != "bool" else "bool").type(args[0])
        raise TypeError(f"{self.name}() takes types (a signature) or one value")


class Array(Type):
    def __init__(self, dtype, ndim, layout="A", readonly=False):
        self.dtype, self.ndim, self.layout, self.readonly = dtype, ndim, layout, readonly
        dims = [":"] * ndim
        if layout == "C":
            dims[-1] = "::1"
        elif layout == "F":
            dims[0] = "::1"
        super().__init__(f"{dtype}[{', '.join(dims)}]")

    def __getitem__(self, item):
        raise TypeError("an array type cannot be indexed again")


class Signature:
    """``return_type(arg_types...)``; ``str()`` gives the signature string."""

    def __init__(self, return_type, args):
        self.return_type, self.args = return_type, tuple(args)

    def __repr__(self):
        return f"{self.return_type}({', '.join(str(a) for a in self.args)})"

    __str__ = __repr__


class UniTuple(Type):
    def __init__(self, dtype, count):
        self.dtype, self.count = dtype, count
        super().__init__(f"UniTuple({dtype}, {count})")


class Tuple(Type):
    def __init__(self, types):
        self.types = tuple(types)
        super().__init__(f"Tuple({', '.join(str(t) for t in self.types)})")


void = Type("void")
none = Type("none")
boolean = bool_ = b1 = Type("bool")
int8 = i1 = Type("int8")
int16 = i2 = Type("int16")
int32 = i4 = intc = Type("int32")
int64 = i8 = intp = Type("int64")
uint8 = u1 = Type("uint8")
uint16 = u2 = Type("uint16")
uint32 = u4 = uintc = Type("uint32")
uint64 = u8 = uintp = Type("uint64")
float16 = f2 = Type("float16")
float32 = f4 = Type("float32")
float64 = f8 = double = Type("float64")
complex64 = c8 = Type("complex64")
complex128 = c16 = Type("complex128")
