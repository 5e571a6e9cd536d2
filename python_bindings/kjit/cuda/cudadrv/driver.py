"""``cuda.cudadrv.driver``: the names of Numba's driver module that code
reaches: ``Stream``, ``Event``, ``Device`` (the host API's classes),
``CudaAPIError``, ``CudaSupportError``, ``driver`` (a namespace: kjit's
driver calls are C++, there are no Python entry points to replace) and
``_have_nvjitlink()`` (False: kjit links without nvJitLink)."""
import types as _types

from kjit.cuda.active import host_api
from kjit.cuda.errors import CudaAPIError, CudaDriverError, CudaSupportError  # noqa: F401

driver = _types.SimpleNamespace()


def _have_nvjitlink():
    return False


def __getattr__(name):
    if name in ("Stream", "Event", "Device", "Context"):
        return getattr(host_api(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
