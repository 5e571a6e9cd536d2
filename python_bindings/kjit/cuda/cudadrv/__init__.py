"""``cuda.cudadrv``: the few names of Numba's CUDA driver package that user
code and tests reach (``devicearray``, ``driver``, ``runtime``). They are
views of kjit.cuda's host API for the device kernels run on (a GPU, the CPU
device or the simulator); kjit's driver layer itself is C++
(runtime/cuda)."""
from kjit.cuda.cudadrv import devicearray, driver, runtime  # noqa: E402,F401
