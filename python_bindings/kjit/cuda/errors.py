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
"""
from kjit.errors import KjitError


class CudaDriverError(KjitError, RuntimeError):
    """A failed CUDA driver call."""

    def __init__(self, message, call=None, code=None, name=None):
        super().__init__(message)
        self.call, self.code, self.name = call, code, name


CudaAPIError = CudaDriverError


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
