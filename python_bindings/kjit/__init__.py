"""kjit: a JIT compiler for Python kernels on NVIDIA and AMD GPUs and CPUs.

The API follows Numba's (``@jit``, ``numba.cuda``, ``@vectorize``), so that
porting is an import change. See docs/ for what is supported.
"""
import sys as _sys
from types import ModuleType as _ModuleType

from kjit import errors
from kjit.errors import CompileError, KjitError, TypingError, UnsupportedError
from kjit import types
from kjit.types import *  # noqa: F401,F403 - float32, int64[:], ...

# The compiler (the _kjit library, with LLVM: about 0.05 s to load) and
# NumPy are imported at the first use of a name that needs them, so that
# `from kjit import cuda` begins the CUDA driver's start-up before they load
# (kjit/cuda/__init__.py), and overlaps it with their loading.
_LAZY = {
    "__version__": ("kjit._kjit", "__version__"),  # runtime/jit/Version.h, the one place
    "frontend": ("kjit.frontend", None),
    "dispatcher": ("kjit.dispatcher", None),
    "Dispatcher": ("kjit.dispatcher", "Dispatcher"),
    "jit": ("kjit.dispatcher", "jit"),
    "njit": ("kjit.dispatcher", "njit"),
    "prange": ("kjit.dispatcher", "prange"),
    "literal_unroll": ("kjit.dispatcher", "literal_unroll"),
    "tuple_setitem": ("kjit.dispatcher", "tuple_setitem"),
    "vectorize": ("kjit.vectorize", "vectorize"),
    "typeof": ("kjit.typeof", "typeof"),
    "np": ("kjit.np", None),
    "guvectorize": ("kjit.vectorize", "guvectorize"),
    "experimental": ("kjit.experimental", None),
    "jitclass": ("kjit.experimental", "jitclass"),
    # bfloat16 host arrays (kjit/bfloat16_host.py)
    "bfloat16_dtype": ("kjit.bfloat16_host", "dtype"),
    "bf16_to_float32": ("kjit.bfloat16_host", "to_float32"),
    "float32_to_bf16": ("kjit.bfloat16_host", "from_float"),
    # 8-bit float host arrays (kjit/float8_host.py)
    "float8_dtype": ("kjit.float8_host", "dtype"),
    "to_float8": ("kjit.float8_host", "from_float"),
    "float8_to_float32": ("kjit.float8_host", "to_float32"),
    # Importing kjit.cuda starts the CUDA driver (docs/cuda.md), which a
    # program of @jit functions only never needs: it is imported at its
    # first use (`from kjit import cuda`, or `kjit.cuda`).
    "cuda": ("kjit.cuda", None),
}

__all__ = (["errors", "CompileError", "KjitError", "TypingError", "UnsupportedError", "types"] + types.__all__
           + [n for n in _LAZY if n != "cuda"])


class _Package(_ModuleType):
    # `kjit.vectorize` is the decorator, and also the name of the submodule
    # that defines it (so are `kjit.guvectorize` and `kjit.typeof`): the import system binds a submodule, once loaded, as
    # an attribute of its package. The decorator keeps the name.
    def __setattr__(self, name, value):
        if name in ("vectorize", "guvectorize", "typeof") and isinstance(value, _ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package


def __getattr__(name):
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'kjit' has no attribute {name!r}")
    import importlib
    module = importlib.import_module(where[0])
    value = module if where[1] is None else getattr(module, where[1])
    globals()[name] = value
    return value


def __dir__():
    return sorted(n for n in set(globals()) | set(_LAZY) if not n.startswith("_") or n.startswith("__"))

