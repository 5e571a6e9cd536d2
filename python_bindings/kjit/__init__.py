"""kjit: a JIT compiler for Python kernels on NVIDIA and AMD GPUs and CPUs.

The API follows Numba's (``@jit``, ``numba.cuda``, ``@vectorize``), so that
porting is an import change. See docs/ for what is supported.
"""
from kjit import errors
from kjit.errors import CompileError, KjitError, TypingError, UnsupportedError
from kjit import frontend
from kjit import types
from kjit.types import *  # noqa: F401,F403 - float32, int64[:], ...
from kjit.dispatcher import Dispatcher, jit, njit, prange
from kjit.vectorize import guvectorize, vectorize


def __getattr__(name):
    # kjit.cuda is imported at its first use (`from kjit import cuda`, or
    # `kjit.cuda`): importing it starts the CUDA driver (docs/cuda.md), which
    # a program of @jit functions only never needs.
    if name == "cuda":
        import importlib
        return importlib.import_module("kjit.cuda")
    raise AttributeError(f"module 'kjit' has no attribute {name!r}")

__version__ = "0.1.0"
