"""``cuda.profile_start()``, ``cuda.profile_stop()``, ``cuda.profiling()``
and ``cuda.is_float16_supported()``.

The profiler calls are no-ops on every device: kjit's CUDA driver table
(runtime/cuda) has no cuProfilerStart/cuProfilerStop, so a profiler (Nsight
Systems, ncu) records the whole program rather than the marked region."""
import contextlib

from kjit import devices
from kjit.cuda.active import host_api

__all__ = ["profile_start", "profile_stop", "profiling", "is_float16_supported"]


def profile_start():
    """Numba: start the CUDA profiler's collection. A no-op in kjit."""


def profile_stop():
    """Numba: stop the CUDA profiler's collection. A no-op in kjit."""


@contextlib.contextmanager
def profiling():
    """``with cuda.profiling(): ...``: profile_start() and profile_stop()
    around the block (no-ops in kjit)."""
    profile_start()
    try:
        yield
    finally:
        profile_stop()


def is_float16_supported():
    """Whether kernels can use float16: True on the CPU device and in the
    simulator; on a GPU, from compute capability 5.3."""
    if devices.simulator() or devices.compiled_kind() == devices.CPU:
        return True
    return tuple(host_api().get_current_device().compute_capability) >= (5, 3)
