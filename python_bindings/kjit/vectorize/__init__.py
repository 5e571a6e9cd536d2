"""``@vectorize`` and ``@guvectorize``: an element-wise (or core-dimension)
function made into a function over arrays.

    @vectorize(["float32(float32, float32)", "float64(float64, float64)"], target="cuda")
    def add(a, b):
        return a + b

    d_out = add(d_a, d_b)             # device arrays in: a device array out
    add(d_a, d_b, out=d_out)          # into an existing array
    out = add(a, b)                   # NumPy arrays in: copied, a NumPy array out
    add(d_a, 1.5)                     # scalars are broadcast; so are shapes (NumPy's rules)
    total = add.reduce(d_a)           # a binary function as a reduction (cuda.reduce)

By area:

- cpu_ufunc.py: target 'cpu' (the default) and 'parallel': a ``DUFunc``
  around a NumPy ufunc whose loops are compiled (``_CPULoops``), the
  signatures' loops or, without signatures, a loop per new input types, as
  Numba's do;
- cuda_ufunc.py: target 'cuda': a ``CUDAUFunc``, whose scalar function
  compiles as a device function and each call shape gets a kernel of its
  own. The signature used is the first whose argument types every input
  converts to safely (Python numbers convert to any type of their kind, as
  NumPy 2 does); without signatures, the input's own types. Inputs are
  converted in the kernel, so device arrays of another dtype are not
  copied. It runs wherever kjit.cuda kernels run: the GPU, the CPU device,
  the simulator;
- gufunc.py: ``@guvectorize`` makes a ``GUFunc`` over a NumPy generalized
  ufunc, for the CPU (docs/vectorize.md);
- cuda_gufunc.py: ``@guvectorize(target='cuda')`` makes a ``CUDAGUFunc``:
  a kernel per call shape, one thread per loop index, which calls the
  function (a device function) on the core slices; on every device;
- signatures.py: type names, type signatures and gufunc layouts, read once
  for all of them.

This package's name is also the decorator's: ``kjit.vectorize`` stays the
decorator when the package is imported (kjit/__init__.py).
"""
import warnings

from kjit import dispatcher as _dispatcher
from kjit import serialize as _serialize
from kjit import types as kt
from kjit.errors import UnrecognizedOptionsError
from kjit.vectorize.signatures import _parse_signature, parse_signature  # noqa: F401
from kjit.vectorize.cpu_ufunc import _SCALAR_FUNCTIONS, DUFunc, _CPULoops, scalar_function_of  # noqa: F401
from kjit.vectorize.cuda_ufunc import CUDAUFunc  # noqa: F401
from kjit.vectorize.gufunc import GUFunc  # noqa: F401
from kjit.vectorize.cuda_gufunc import CUDAGUFunc  # noqa: F401

def vectorize(ftylist_or_function=(), **kws):
    """``@vectorize``, ``@vectorize([signatures], target='cuda')``."""
    if callable(ftylist_or_function) and not isinstance(ftylist_or_function, (str, kt.Type, kt.Signature)):
        return _make(ftylist_or_function, (), kws)
    sigs = ftylist_or_function
    if isinstance(sigs, (str, kt.Signature)):
        sigs = [sigs]

    def wrap(func):
        return _make(func, tuple(sigs), kws)

    return wrap


def guvectorize(*args, **kws):
    """``@guvectorize([signatures], layout)``, ``@guvectorize(layout)``
    (dynamic: compiled per argument types, outputs given at the call)."""
    if len(args) == 1:
        sigs, layout = (), args[0]
    elif len(args) == 2:
        sigs, layout = args
    else:
        raise TypeError("guvectorize() takes one or two positional arguments: [signatures,] layout")
    if isinstance(sigs, (str, kt.Signature)):
        sigs = [sigs]
    target = kws.get("target", "cpu")
    if target == "cuda":
        # Numba's checks and words (options, return types) at the decorator.
        def cuda_wrap(func):
            g = CUDAGUFunc(func, layout, sigs, kws)
            g._kjit_origin = (func, (tuple(sigs), layout), dict(kws), "guvectorize")
            return g

        return cuda_wrap
    unknown = set(kws) - _OPTIONS
    if unknown:
        raise TypeError(f"unknown @guvectorize option(s): {', '.join(sorted(unknown))}")
    if target not in ("cpu", "parallel"):
        raise ValueError(f"@guvectorize: unknown target {target!r} (kjit has 'cpu' and 'parallel')")
    if kws.get("nopython") is False:
        raise TypeError("nopython=False is not supported: kjit compiles in nopython mode only")

    def wrap(func):
        g = GUFunc(func, layout, target == "parallel", kws, dynamic=not sigs)
        for sig in sigs:
            g.add(sig)
        g._kjit_origin = (func, (tuple(sigs), layout), dict(kws), "guvectorize")
        return g

    return wrap


_OPTIONS = {"target", "identity", "cache", "nopython", "fastmath", "boundscheck"}


def _make(func, sigs, kws):
    unknown = set(kws) - _OPTIONS
    target = kws.get("target", "cpu")
    if unknown:
        raise UnrecognizedOptionsError(
            f"Unrecognized options. {target} vectorize target does not support option: "
            f"{', '.join(repr(o) for o in sorted(unknown))} (unknown @vectorize option(s))")
    if target == "cuda" and "nopython" in kws:
        warnings.warn("nopython kwarg for cuda target is redundant", RuntimeWarning, stacklevel=3)
    if target not in ("cpu", "parallel", "cuda"):
        raise ValueError(f"@vectorize: unknown target {target!r} (kjit has 'cpu', 'parallel' and 'cuda')")
    if kws.get("nopython") is False:
        raise TypeError("nopython=False is not supported: kjit compiles in nopython mode only")
    signatures = [_parse_signature(s) for s in sigs]
    if target != "cuda":
        loops = _CPULoops(func, target == "parallel", kws)
        for ret, args in signatures:
            loops.add(ret, args)
        # With signatures, as Numba's: no more loops are compiled, and
        # NumPy's rules pick among these.
        u = DUFunc(loops, frozen=bool(signatures))
    else:
        u = CUDAUFunc(func, signatures, bool(kws.get("fastmath")), kws.get("identity"))
    u._kjit_origin = (func, tuple(sigs), dict(kws), "vectorize")
    return u


def _reduce_vectorized(self):
    return _serialize.reduce_vectorized(self, _rebuild_vectorized)


def _rebuild_vectorized(key, func, args, kws, kind):
    """A pickled @vectorize or @guvectorize object, made again here (kjit/serialize.py)."""
    return _serialize.rebuild_vectorized(vectorize, guvectorize, key, func, args, kws, kind)


def _classify(v):
    """What a jitted function that names `v` sees (kjit.dispatcher's
    resolver asks): a @vectorize ufunc for the CPU, called on scalars, is
    its scalar function (arrays: call it from Python); None for other values."""
    scalar = scalar_function_of(v)
    if scalar is not None:
        return ("jit", scalar)
    if isinstance(v, GUFunc):
        return ("unsupported", f"@guvectorize function {v.__name__} (call it from Python)")
    return None


# The functions, ufuncs and dtypes _classify answers for, by id: (value, its
# @jit function). The binding reads them instead of calling _classify
# (python_bindings/src/py_globals.cpp): @vectorize's ufuncs.
_classify._kjit_claims = _SCALAR_FUNCTIONS
_dispatcher.register_classifier(_classify)


for _cls in (DUFunc, CUDAUFunc, GUFunc, CUDAGUFunc):
    _cls.__reduce__ = _reduce_vectorized
del _cls

