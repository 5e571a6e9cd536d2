"""kjit: a JIT compiler for Python kernels on NVIDIA and AMD GPUs and CPUs.

The API follows Numba's (``numba.cuda``, ``@jit``, ``@vectorize``), so that
porting is an import change. See docs/ for what is supported.
"""
from kjit import errors
from kjit.errors import CompileError, KjitError, TypingError, UnsupportedError
from kjit import frontend

__version__ = "0.1.0"

__all__ = ["errors", "frontend", "KjitError", "CompileError", "TypingError", "UnsupportedError"]
