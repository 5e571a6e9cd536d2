"""CUDA's vector types, as Numba has them: ``cuda.float32x4(1.0, 2.0, 3.0,
4.0)`` in a kernel makes a value with fields ``x``, ``y``, ``z``, ``w``
(``float32x1`` ... ``float32x4``, for int8 ... uint64, float32 and float64),
also under CUDA's names (``cuda.float4``, ``cuda.double2``, ``cuda.short2``,
``cuda.int3``, ``cuda.ulonglong4`` ...). A constructor takes as many
elements as the type has, each a number or a smaller vector of the same base
type whose fields it spreads: ``cuda.float32x4(v2, 1.0, 2.0)``.

In kernels a vector is a named tuple of its fields (kjit's compiler types the
constructor); on the host and in the simulator the same constructors make
``VectorValue`` objects.

``vector_types`` maps each name (``"float32x4"``) to its ``VectorType``
(``name``, ``base_type``, ``attr_names``, ``num_elements``,
``user_facing_object``), as ``numba.cuda.vector_types.vector_types`` does.
"""
import itertools

import numpy as np

from kjit import types as _types

_PREFIXES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float32", "float64")
_FIELDS = ("x", "y", "z", "w")

# CUDA C's names, by the NumPy type of the same width on this machine.
_ALIASES = {
    "char": np.byte, "short": np.short, "int": np.intc, "long": np.int_,
    "longlong": np.longlong, "uchar": np.ubyte, "ushort": np.ushort, "uint": np.uintc,
    "ulong": np.uint, "ulonglong": np.ulonglong, "float": np.single, "double": np.double,
}


class VectorValue:
    """A vector made on the host or in the simulator: its fields are
    attributes (``v.x`` ...)."""

    __slots__ = ("_type", "_values")

    def __init__(self, vtype, values):
        self._type = vtype
        self._values = tuple(values)

    def __getattr__(self, name):
        try:
            return self._values[_FIELDS.index(name, 0, len(self._values))]
        except ValueError:
            raise AttributeError(f"{self._type.name} has no field {name!r}") from None

    def __iter__(self):
        return iter(self._values)

    def __eq__(self, other):
        return isinstance(other, VectorValue) and other._type is self._type and other._values == self._values

    def __hash__(self):
        return hash((self._type.name, self._values))

    def __repr__(self):
        return f"{self._type.name}({', '.join(repr(v) for v in self._values)})"


class VectorConstructor:
    """``cuda.float32x4`` and the other constructors (what kernels call)."""

    def __init__(self, vtype):
        self._vtype = vtype
        self.__name__ = vtype.name
        self.aliases = []
        # kjit's compiler types calls of it (compiler/builtins/Cuda.cpp).
        self._kjit_declared = "kjit.cuda." + vtype.name

    def __call__(self, *args):
        vt = self._vtype
        scalar = vt.base_type
        values = []
        for a in args:
            if isinstance(a, VectorValue):
                if a._type.base_type is not scalar:
                    raise TypeError(f"{vt.name}() takes {scalar} elements or vectors of them, "
                                    f"not {a._type.name}")
                values.extend(a._values)
            else:
                values.append(scalar(a))
        if len(values) != vt.num_elements:
            raise TypeError(f"{vt.name}() takes {vt.num_elements} element"
                            f"{'s' if vt.num_elements != 1 else ''}, {len(values)} given")
        return VectorValue(vt, values)

    def __repr__(self):
        return f"<{self._vtype.name}>"


class VectorType:
    """One vector type: ``name``, ``base_type`` (a kjit scalar type),
    ``attr_names``, ``num_elements`` and ``user_facing_object`` (its
    constructor)."""

    def __init__(self, name, base_type, attr_names):
        self.name = name
        self.base_type = base_type
        self.attr_names = attr_names
        self.num_elements = len(attr_names)
        self.user_facing_object = VectorConstructor(self)

    def __repr__(self):
        return self.name

    def __str__(self):
        return self.name


vector_types = {}
for _prefix, _n in itertools.product(_PREFIXES, (1, 2, 3, 4)):
    _name = f"{_prefix}x{_n}"
    vector_types[_name] = VectorType(_name, getattr(_types, _prefix), _FIELDS[:_n])
for _alias, _np in _ALIASES.items():
    _prefix = np.dtype(_np).name
    for _n in (1, 2, 3, 4):
        vector_types[f"{_prefix}x{_n}"].user_facing_object.aliases.append(f"{_alias}{_n}")


def constructors():
    """Every constructor by each of its names (``float32x4``, ``float4``)."""
    names = {}
    for vt in vector_types.values():
        ctor = vt.user_facing_object
        names[vt.name] = ctor
        for alias in ctor.aliases:
            names[alias] = ctor
    return names
