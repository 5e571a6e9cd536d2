"""What ``@vectorize`` and ``@guvectorize`` read from their arguments: type
names ("float32"), type signatures ("float32(float32, int32)",
"void(float64[:, :], int64)") and gufunc layouts ("(m,n),(n)->(m)").
One helper reads each kind:

- ``_scalar_type``: a type name or a kjit type, as a scalar type;
- ``parse_signature``: a type signature, as kjit types (both decorators);
- ``_parse_layout``: a gufunc layout, as dimension names.
"""
import re

import numpy as np

from kjit import _kjit
from kjit import types as kt


def _named_type(name):
    """The kjit type named `name` ("float32", "bool", "void"), or None."""
    t = getattr(kt, "boolean" if name == "bool" else name, None)  # "bool": how signatures print it
    return t if isinstance(t, kt.Type) and not isinstance(t, kt.Array) else None


def _scalar_type(name_or_type):
    if isinstance(name_or_type, kt.Type):
        return name_or_type
    name = name_or_type.strip()
    t = _named_type(name)
    if t is None or t.name in ("void", "none"):
        raise TypeError(f"@vectorize: {name_or_type.strip()!r} is not a scalar type (float32, int64, ...)")
    return t


def _type_of(described, what):
    """The kjit type of _kjit.parse_signature's (name, ndim)."""
    name, ndim = described
    t = _named_type(name) if ndim >= 0 else None
    if t is None:
        raise TypeError(f"{what}: {name!r} is not a scalar type (float32, int64, ...)")
    return kt.Array(t, ndim) if ndim else t


def parse_signature(sig, what, example):
    """(return type, argument types) of a type signature: a kjit Signature
    (float32(float32, int32)) or a string ("float32(float32, int32)",
    "void(float64[:, :], int64)"); array arguments are kt.Array, a string
    without a return type gives None. `what` and `example` name the
    decorator and a signature it takes, for the error message. The one
    place kjit.vectorize reads a signature string: it is the compiler's
    parser (compiler/Signature.cpp), through _kjit.parse_signature."""
    if isinstance(sig, kt.Signature):
        return sig.return_type, tuple(sig.args)
    if not isinstance(sig, str) or "(" not in sig or not sig.rstrip().endswith(")"):
        raise TypeError(f"{what}: a signature is written {example!r}, not {sig!r}")
    try:
        ret, args = _kjit.parse_signature(sig)  # the compiler's parser, the one every decorator uses
    except TypeError as e:
        raise TypeError(f"{what}: {e}") from None
    return (_type_of(ret, what) if ret is not None else None), tuple(_type_of(a, what) for a in args)


def _parse_signature(sig):
    """(return type, argument types) of a @vectorize signature, all scalars."""
    ret, args = parse_signature(sig, "@vectorize", "float32(float32, float32)")
    if ret is None:
        raise TypeError(f"@vectorize: the signature {sig!r} needs a return type")
    for t in (ret,) + args if isinstance(sig, str) else ():
        if isinstance(t, kt.Array) or t.name in ("void", "none"):
            _scalar_type(str(t))  # raises "... is not a scalar type"
    return _scalar_type(ret), tuple(_scalar_type(a) for a in args)


def _parse_gu_signature(sig):
    """[(scalar type, ndim)] of "void(float64[:, :], int64, float64[:])"."""
    ret, args = parse_signature(sig, "@guvectorize", "void(float64[:], float64[:])")
    if ret is not None and str(ret) not in ("void", "none"):
        raise TypeError(f"@guvectorize: a signature returns void, not {ret}")
    return [(_scalar_type(a.dtype), a.ndim) if isinstance(a, kt.Array) else (_scalar_type(a), 0) for a in args]


def _dtype(t):
    return np.dtype("bool" if t.name == "bool" else t.name)


_DIMS = re.compile(r"\(([^()]*)\)")


def _parse_layout(layout):
    """"(m,n),(n)->(m)" -> ([("m", "n"), ("n",)], [("m",)])."""
    if not isinstance(layout, str) or layout.count("->") != 1:
        raise TypeError(f"@guvectorize: a layout is written '(n),()->(n)', not {layout!r}")
    sides = []
    for side in layout.replace(" ", "").split("->"):
        groups = _DIMS.findall(side)
        if not groups or _DIMS.sub("", side).strip(",") or "".join(f"({g})" for g in groups) != side.replace(",(", "("):
            raise TypeError(f"@guvectorize: a layout is written '(n),()->(n)', not {layout!r}")
        dims = []
        for g in groups:
            names = tuple(n for n in g.split(",") if n)
            if any(not n.isidentifier() for n in names):
                raise TypeError(f"@guvectorize: dimension names in {layout!r} must be identifiers")
            dims.append(names)
        sides.append(dims)
    return sides[0], sides[1]
