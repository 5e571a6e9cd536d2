"""The kernel language's names. kjit compiles them inside @cuda.jit
functions; called from Python they raise, with a message that says so."""


class _KernelOnly:
    def __init__(self, name):
        self._name = name

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"cuda.{self._name} can only be used inside a @cuda.jit kernel or device function")

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _KernelOnly(f"{self._name}.{attr}")

    def __repr__(self):
        return f"<kjit.cuda.{self._name} (kernel language)>"


threadIdx = _KernelOnly("threadIdx")
blockIdx = _KernelOnly("blockIdx")
blockDim = _KernelOnly("blockDim")
gridDim = _KernelOnly("gridDim")
laneid = _KernelOnly("laneid")
warpsize = 32
shared = _KernelOnly("shared")
local = _KernelOnly("local")
const = _KernelOnly("const")
atomic = _KernelOnly("atomic")
cg = _KernelOnly("cg")  # cooperative groups: cg.this_grid().sync()
for _name in ("grid", "gridsize", "syncthreads", "syncthreads_count", "syncthreads_and",
              "syncthreads_or", "syncwarp", "threadfence", "threadfence_block",
              "threadfence_system", "shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync",
              "all_sync", "any_sync", "eq_sync", "ballot_sync", "match_any_sync", "match_all_sync",
              "activemask",
              "lanemask_lt", "popc", "brev", "clz", "ffs", "fma", "cbrt", "selp"):
    globals()[_name] = _KernelOnly(_name)
del _name
