"""Settings Numba reads from its ``config`` module, read here from the
environment once (``KJIT_<NAME>``, or ``NUMBA_<NAME>``) and changeable at
run time by assigning the attribute.

``CUDA_ARRAY_INTERFACE_SYNC`` (default 1): a consumer of an object's
``__cuda_array_interface__`` that names a stream (``cuda.as_cuda_array``,
``cuda.from_cuda_array_interface``, a kernel launch) synchronizes that
stream first, as the interface's version 3 asks. 0 turns that off.

``CUDA_LOW_OCCUPANCY_WARNINGS`` (default 1, as Numba's): a kernel launch
configuration of fewer than 128 blocks warns (``PerformanceWarning``:
"Grid size N will likely result in GPU under-utilization due to low
occupancy"), once per kernel and configuration. 0 turns that off.
"""
import os


def _env_int(name, default):
    for prefix in ("KJIT_", "NUMBA_"):
        v = os.environ.get(prefix + name)
        if v not in (None, ""):
            return int(v)
    return default


CUDA_ARRAY_INTERFACE_SYNC = _env_int("CUDA_ARRAY_INTERFACE_SYNC", 1)
CUDA_LOW_OCCUPANCY_WARNINGS = _env_int("CUDA_LOW_OCCUPANCY_WARNINGS", 1)
