"""Errors of kjit.cuda.

- ``CudaDriverError``: a CUDA driver call failed; ``call``, ``code`` (the
  CUresult) and ``name`` (``CUDA_ERROR_...``) say which and how. A kernel
  that faults (illegal address, trap) raises it too, naming the kernel.
  ``CudaAPIError`` is the same class under Numba's name.
- ``CudaSupportError``: there is no usable CUDA here (no driver, no GPU); a
  ``CudaDriverError`` whose call is ``cuInit``.
- ``LaunchConfigError``: a launch configuration the device cannot run
  (checked before launching); also a ``ValueError``. Its subclass
  ``LaunchConfigTypeError`` (also a ``TypeError``): an item that is not an
  int.

numba-cuda raises the ``CUDAError`` of NVIDIA's ``cuda.core`` package for
failed driver calls. When the program has imported that package, kjit
raises its driver errors as subclasses of both kjit's class and that
``CUDAError`` (``_error_class``), so code written for numba-cuda catches
them; kjit itself never imports it. ``CUDAError`` here is
``CudaDriverError``.
"""
import sys

from kjit.errors import KjitError


class CudaDriverError(KjitError, RuntimeError):
    """A failed CUDA driver call."""

    def __init__(self, message, call=None, code=None, name=None):
        super().__init__(message)
        self.call, self.code, self.name = call, code, name


CudaAPIError = CudaDriverError
CUDAError = CudaDriverError


class CudaSupportError(CudaDriverError):
    """CUDA is not available for what was asked (no driver, no device)."""

    def __init__(self, message, call="cuInit", code=100, name="CUDA_ERROR_NO_DEVICE"):
        super().__init__(message, call, code, name)


class LaunchConfigError(CudaDriverError, ValueError):
    """A launch configuration that the device cannot run."""

    def __init__(self, message):
        super().__init__(message, "cuLaunchKernel", 1, "CUDA_ERROR_INVALID_VALUE")


class LaunchConfigTypeError(LaunchConfigError, TypeError):
    """A launch configuration with an item that is not an int (a TypeError,
    as in Numba)."""


_FOREIGN_MODULE = "cuda.core._utils.cuda_utils"
_combined = {}


def _error_class(name):
    """The class to raise for kjit's driver error ``name``: the class itself,
    or, when the program has imported ``cuda.core``, a subclass that is also
    its ``CUDAError`` (made once per class)."""
    cls = globals()[name]
    foreign = getattr(sys.modules.get(_FOREIGN_MODULE), "CUDAError", None)
    if not (isinstance(foreign, type) and issubclass(foreign, BaseException)) or issubclass(cls, foreign):
        return cls
    key = (cls, foreign)
    if key not in _combined:
        _combined[key] = type(cls.__name__, (cls, foreign), {"__module__": __name__, "__qualname__": cls.__qualname__})
    return _combined[key]
