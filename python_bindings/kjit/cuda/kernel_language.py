"""The kernel language's names. kjit compiles them inside @cuda.jit
functions; called from Python they raise, with a message that says so."""


class _KernelOnly:
    # The compiler's markers (dispatcher.py, classify) that an object lacks
    # are None here, not made up by __getattr__: the binding reads them
    # without calling Python (python_bindings/src/py_globals.cpp).
    _kjit_builtin = _kjit_module = _kjit_declared = None

    def __init__(self, name, namespace=False, value=False):
        self._name = name
        # What the compiler takes it for when a kernel names it through a
        # global or closure variable (`from numba.cuda import syncthreads`,
        # `op = cuda.ldcs`): a namespace (cuda.shared) or a function. A value
        # (cuda.laneid) is neither: only `cuda.laneid` reads it.
        if namespace:
            self._kjit_module = "kjit.cuda." + name
        elif not value:
            self._kjit_builtin = "kjit.cuda." + name

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"cuda.{self._name} can only be used inside a @cuda.jit kernel or device function")

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _KernelOnly(f"{self._name}.{attr}")

    def __repr__(self):
        return f"<kjit.cuda.{self._name} (kernel language)>"


threadIdx = _KernelOnly("threadIdx", namespace=True)
blockIdx = _KernelOnly("blockIdx", namespace=True)
blockDim = _KernelOnly("blockDim", namespace=True)
gridDim = _KernelOnly("gridDim", namespace=True)
laneid = _KernelOnly("laneid", value=True)
warpsize = 32
shared = _KernelOnly("shared", namespace=True)
local = _KernelOnly("local", namespace=True)
const = _KernelOnly("const", namespace=True)
atomic = _KernelOnly("atomic", namespace=True)
cg = _KernelOnly("cg", namespace=True)  # cooperative groups: cg.this_grid().sync()
wmma = _KernelOnly("wmma", namespace=True)  # warp matrix products: wmma.mma_sync(a, b, acc)
mbarrier = _KernelOnly("mbarrier", namespace=True)  # mbarrier.init/arrive/arrive_expect_tx/wait/try_wait
tma = _KernelOnly("tma", namespace=True)  # tma.load/store/commit_group/wait_group
wgmma = _KernelOnly("wgmma", namespace=True)  # wgmma.zeros/convert/fence/mma_async/commit_group/wait_group/store
for _name in ("grid", "gridsize", "syncthreads", "syncthreads_count", "syncthreads_and",
              "syncthreads_or", "syncwarp", "threadfence", "threadfence_block",
              "threadfence_system", "shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync",
              "all_sync", "any_sync", "eq_sync", "ballot_sync", "match_any_sync", "match_all_sync",
              "activemask",
              "lanemask_lt", "popc", "brev", "clz", "ffs", "fma", "cbrt", "selp",
              "ldca", "ldcg", "ldcs", "ldlu", "ldcv", "stcg", "stcs", "stwb", "stwt",
              "mma_sync", "mfma", "ldmatrix", "cp_async", "cp_async_commit", "cp_async_wait",
              "fence_mbarrier_init", "fence_proxy_async", "setmaxnreg_inc", "setmaxnreg_dec",
              "named_barrier_sync", "named_barrier_arrive"):
    globals()[_name] = _KernelOnly(_name)
del _name
