"""``@jit`` / ``@njit``: compile numeric Python for the CPU.

The decorator captures the function's source, file and first line; the
compiled code comes from kjit's C++ pipeline (parse, type, lower to LLVM, JIT)
through ``_kjit.Dispatcher``, whose ``__call__`` is the whole call path.
Globals the body names are resolved here, at compile time, and frozen:
numbers, tuples of numbers and strings become constants; modules, NumPy
functions, dtypes, exception classes and other kjit functions resolve by name.
"""
import builtins
import cmath
import inspect
import math
import sys
import types as _pytypes

import numpy as np

from kjit import _kjit
from kjit import types as kt
from kjit.errors import _exception_name

__all__ = ["jit", "njit", "prange", "literal_unroll", "Dispatcher"]

_OPTIONS = {"nopython", "nogil", "cache", "parallel", "fastmath", "boundscheck", "error_model",
            "inline", "looplift", "forceobj", "locals", "no_cpython_wrapper", "no_cfunc_wrapper",
            "debug", "_nrt",
            "_cuda"}  # @cuda.jit's code-generation options (kjit/cuda/compiler.py)


def prange(*args):
    """``range`` that ``@jit(parallel=True)`` may run in parallel."""
    return range(*args)


def literal_unroll(container):
    """In a kernel, ``for x in literal_unroll(tup):`` runs the body once per
    element of the tuple, typed for that element; in Python, the tuple."""
    return container


_MODULES = {math: "math", cmath: "cmath", np: "numpy"}
_NUMBA_SCALARS = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                  "float16", "float32", "float64", "complex64", "complex128"}


def _module_name(mod):
    if mod in _MODULES:
        return _MODULES[mod]
    name = mod.__name__
    if name in ("kjit", "numba"):
        return "kjit"
    if name in ("kjit.cuda", "numba.cuda") or name.startswith("kjit.cuda."):
        return "kjit.cuda"
    return None


class _Resolver:
    """Answers the compiler's questions about the names a function uses."""

    def __init__(self, func):
        self.func = func
        self.dispatcher = None  # set by the Dispatcher: the function's own name
        self.globals = func.__globals__
        self.closure = {}
        if func.__closure__:
            for name, cell in zip(func.__code__.co_freevars, func.__closure__):
                try:
                    self.closure[name] = cell.cell_contents
                except ValueError:  # an empty cell: assigned later
                    pass

    def __call__(self, name):
        if name in self.closure:
            return self.classify(self.closure[name])
        if name in self.globals:
            return self.classify(self.globals[name])
        if hasattr(builtins, name):
            return self.classify(getattr(builtins, name))
        if name == self.func.__name__ and self.dispatcher is not None:
            # Recursion while the decorator is still compiling: the global
            # is not bound yet.
            return ("jit", self.dispatcher)
        return None

    def classify(self, v):
        if v is None:
            return ("none", None)
        if isinstance(v, (bool, np.bool_)):
            return ("bool", bool(v))
        if isinstance(v, (int, np.integer)):
            return ("int", int(v))
        if isinstance(v, (float, np.floating)):
            return ("float", float(v))
        if isinstance(v, (complex, np.complexfloating)):
            return ("complex", complex(v))
        if isinstance(v, str):
            return ("str", v)
        if isinstance(v, tuple):
            return ("tuple", v)
        if isinstance(v, Dispatcher):
            return ("jit", v)
        declared = getattr(v, "_kjit_declared", None)  # cuda.declare_device
        if isinstance(declared, str) and not isinstance(v, type):
            return ("function", declared)
        if type(v).__name__ == "CUDAKernel" and hasattr(v, "_dispatcher"):
            return ("jit", v._dispatcher)
        if self.dispatcher is not None and v is self.func:
            return ("jit", self.dispatcher)
        if isinstance(v, _pytypes.ModuleType):
            name = _module_name(v)
            return ("module", name) if name else ("unsupported", f"module {v.__name__}")
        if isinstance(v, kt.Type) and not isinstance(v, (kt.Array, kt.UniTuple, kt.Tuple)):
            return ("dtype", v.name)
        if type(v).__module__.startswith("numba.core.types") and str(v) in _NUMBA_SCALARS:
            return ("dtype", "bool" if str(v) == "bool" else str(v))  # numba.float32 & co
        if isinstance(v, type):
            if issubclass(v, np.generic):
                return ("dtype", np.dtype(v).name)
            if issubclass(v, BaseException):
                return ("exception", _exception_name(v))
            if v in (int, float, bool, complex, range, enumerate, zip):
                return ("function", "builtins." + v.__name__)
            return ("unsupported", f"class {v.__name__}")
        if v is prange:
            return ("function", "kjit.prange")
        if v is literal_unroll:
            return ("function", "kjit.literal_unroll")
        vec = sys.modules.get("kjit.vectorize")
        if vec is not None:
            # A @vectorize ufunc for the CPU: called on scalars, its scalar
            # function (arrays: call it from Python).
            scalar = vec.scalar_function_of(v)
            if scalar is not None:
                return ("jit", scalar)
            if isinstance(v, vec.GUFunc):
                return ("unsupported", f"@guvectorize function {v.__name__} (call it from Python)")
        if isinstance(v, (_pytypes.BuiltinFunctionType, np.ufunc, _pytypes.FunctionType)):
            mod = getattr(v, "__module__", None) or ("numpy" if isinstance(v, np.ufunc) else None)
            name = getattr(v, "__name__", "")
            if v is getattr(builtins, name, None):
                return ("function", "builtins." + name)
            if mod == "math" or v is getattr(math, name, None):
                return ("function", "math." + name)
            if mod == "cmath" or v is getattr(cmath, name, None):
                return ("function", "cmath." + name)
            if isinstance(v, np.ufunc) or v is getattr(np, name, None):
                return ("function", "numpy." + name)
            if name in ("prange", "literal_unroll") and (mod or "").startswith("numba"):
                return ("function", "kjit." + name)
            return ("unsupported", f"function {getattr(v, '__qualname__', name)} (not a kjit function: decorate it with @jit)")
        if getattr(type(v), "__name__", "") == "prange":
            return ("function", "kjit.prange")
        if isinstance(v, np.ndarray):
            if v.ndim == 0 or v.dtype.kind not in "biufc":
                return ("unsupported", f"numpy.ndarray of {v.ndim} dimensions and dtype {v.dtype}")
            # Frozen, as in Numba: a read-only copy of today's contents.
            c = np.ascontiguousarray(v)
            return ("array", (c.dtype.name, tuple(c.shape), c.tobytes()))
        return ("unsupported", type(v).__name__)


# A kjit function is a _kjit.Dispatcher: its type's call slot is the C++ call
# path (argument types, specialisation lookup or compilation, the call). The
# Python-level conveniences below are attached to that class; subclassing it
# in Python would put the interpreter's generic call machinery back in front.
Dispatcher = _kjit.Dispatcher


def _make_dispatcher(func, options, signatures=()):
    unknown = set(options) - _OPTIONS
    if unknown:
        raise TypeError(f"unknown @jit option(s): {', '.join(sorted(unknown))}")
    if options.get("forceobj"):
        raise TypeError("forceobj=True is not supported: kjit compiles in nopython mode only")
    if options.get("nopython") is False:
        raise TypeError("nopython=False is not supported: kjit compiles in nopython mode only")
    try:
        lines, first = inspect.getsourcelines(func)
    except (OSError, TypeError) as e:
        raise OSError(f"kjit compiles a function from its source, and the source of {func.__qualname__}() cannot "
                      f"be read ({e}): define it in a file (not with exec, or python -c, or at the "
                      "interactive prompt without a file)") from e
    filename = inspect.getsourcefile(func) or "<unknown>"
    resolver = _Resolver(func)
    d = Dispatcher(func, func.__name__, filename, "".join(lines), first, resolver, dict(options))
    resolver.dispatcher = d
    d.py_func = func
    d.targetoptions = dict(options)
    d.__name__ = func.__name__
    d.__qualname__ = getattr(func, "__qualname__", func.__name__)
    d.__doc__ = func.__doc__
    d.__module__ = func.__module__
    d.__wrapped__ = func
    for sig in signatures:
        d.compile(kt.signature_text(sig))
    return d


def _dispatcher_get(self, obj, objtype=None):
    return self if obj is None else _pytypes.MethodType(self, obj)


def _dispatcher_repr(self):
    return f"<kjit function {self.__qualname__}>"


def _inspect_types(self, file=None):
    """Print (or write to ``file``) the typed IR of every specialisation."""
    print(self._inspect_types_text(), file=file)


def _inspect_llvm(self, signature=None):
    """The optimised LLVM IR, by signature."""
    code = self._inspect_code(False)
    return code if signature is None else code[signature]


def _inspect_asm(self, signature=None):
    """The host assembly, by signature."""
    code = self._inspect_code(True)
    return code if signature is None else code[signature]


Dispatcher.__get__ = _dispatcher_get
Dispatcher.__repr__ = _dispatcher_repr
Dispatcher.inspect_types = _inspect_types
Dispatcher.inspect_llvm = _inspect_llvm
Dispatcher.inspect_asm = _inspect_asm


def _signatures(arg):
    return kt.signature_list(arg)


def jit(signature_or_function=None, **options):
    """Compile a function for the CPU (nopython mode).

    ``@jit``, ``@jit(fastmath=True)``, ``@jit("float64(float64[:])")`` and
    ``@jit(["int64(int64)", "float64(float64)"], nogil=True)`` all work, as
    in Numba. Options: nopython (always), nogil, parallel (with prange),
    fastmath, boundscheck, cache.
    """
    if callable(signature_or_function) and not isinstance(signature_or_function, (str, kt.Type, kt.Signature)):
        return _make_dispatcher(signature_or_function, options)
    sigs = _signatures(signature_or_function)

    def wrap(func):
        return _make_dispatcher(func, options, sigs)

    return wrap


def njit(*args, **options):
    """``jit`` with nopython=True (kjit's only mode)."""
    options.setdefault("nopython", True)
    return jit(*args, **options)
