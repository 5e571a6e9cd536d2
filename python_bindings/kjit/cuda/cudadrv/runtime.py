"""``cuda.cudadrv.runtime``: ``get_version()``. kjit uses no CUDA runtime
library; the version given is the CUDA driver's (major, minor), or (0, 0)
without a CUDA driver (the CPU device, the simulator)."""


def get_version():
    try:
        from kjit import _kjit
        v = int(_kjit.cuda_driver_version())
    except Exception:
        return (0, 0)
    return (v // 1000, (v % 1000) // 10) if v > 0 else (0, 0)


def is_supported_version():
    return True
