"""kjit: a JIT compiler for Python kernels on NVIDIA and AMD GPUs and CPUs.

The API follows Numba's (``@jit``, ``numba.cuda``, ``@vectorize``), so that
porting is an import change. See docs/ for what is supported.
"""
import os as _os

from kjit import _kjit


def _start_cuda():
    # The CUDA driver's start-up (cuInit and device 0's primary context,
    # about 0.1 s each) begins now, on a C++ thread of its own, and overlaps
    # the rest of the import and the program's set-up (eager kernels compile
    # at their decorators meanwhile). Not on the CPU device or under the
    # simulator, nor with KJIT_LAZY_CUDA=1 (for programs that fork after
    # importing kjit and use CUDA in the children: the driver then starts at
    # its first use).
    env = _os.environ
    if env.get("KJIT_LAZY_CUDA", "0") not in ("", "0"):
        return
    if any(env.get(v, "0") not in ("", "0") for v in ("KJIT_ENABLE_CUDASIM", "NUMBA_ENABLE_CUDASIM")):
        return
    if env.get("KJIT_DEVICE", "").strip().lower() in ("cpu", "host"):
        return
    import atexit
    _kjit.cuda_start()
    atexit.register(_kjit.cuda_join_start)  # the thread ends before the interpreter does
    _os.register_at_fork(before=_kjit.cuda_join_start)  # and never runs across a fork


_start_cuda()

from kjit import errors  # noqa: E402
from kjit.errors import CompileError, KjitError, TypingError, UnsupportedError
from kjit import frontend
from kjit import types
from kjit.types import *  # noqa: F401,F403 - float32, int64[:], ...
from kjit.dispatcher import Dispatcher, jit, njit, prange
from kjit import cuda
from kjit.vectorize import guvectorize, vectorize

__version__ = "0.1.0"
