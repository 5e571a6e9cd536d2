"""Kernels in the simulator: the ``@cuda.jit`` objects (``CUDAKernel``),
their argument-type keys and launch configurations.

Launching checks the arguments and the configuration as the GPU launch path
does, and hands the launch to the scheduler (scheduler.py), which runs the
kernel's Python function once per GPU thread, with barriers and warp
operations.

Before the first launch for a set of argument types, the kernel is compiled
by kjit's real compiler (frontend, type inference, lowering to PTX), so
that the simulator reports the same compile errors as a GPU run.
"""
import linecache
import os
import re
import types
import warnings

import numpy as np

from kjit import _kjit
from kjit.errors import CompileError, KjitError, PerformanceWarning
from kjit import bfloat16_host, float8_host, hostapi
from kjit.cuda.simulator import bfloat16_values as bf16v
from kjit.cuda.simulator import float8_values as f8v
from kjit.cuda.simulator.scheduler import _Launch, _user_files

# ==== argument keys and launch configuration ==================================================
# What the JIT driver decides for a launch on a GPU: the argument-type key of the arguments, the
# launch configuration and its checks against the (simulated) device's limits. The rest of the
# simulator calls only _kernel_args, _launch_config and _check_config (and reads _CC).
_CC = 90  # the compute capability kernels are compiled for (the device pretends 9.0)

def _kernel_args(kernel, args):
    """(the values the Python function gets, the argument-type key): the key
    is the driver's, as for a launch on a GPU."""
    values = []
    for i, a in enumerate(args):
        if isinstance(a, hostapi.DeviceNDArray):
            a = a._ary
        elif not isinstance(a, np.ndarray) and hasattr(a, "__cuda_array_interface__"):
            raise TypeError(f"argument {i + 1} of kernel '{kernel.__name__}' is GPU memory "
                            f"({type(a).__name__}); the simulator runs on host memory: "
                            "pass a NumPy array or a cuda.to_device array")
        values.append(a)
    return values, kernel._dispatcher._argument_key(tuple(values))


def _launch_config(name, config):
    """(grid, block, stream, sharedmem) of kernel[config] (kernel `name`): the driver's rules."""
    griddim, blockdim, stream, sharedmem = _kjit.launch_config(name, config if isinstance(config, tuple)
                                                                else (config,))
    return griddim, blockdim, 0 if stream is None else stream, sharedmem


def _check_config(k, griddim, blockdim, sharedmem):
    """Refuses a launch over the (simulated) device's limits or the kernel's launch_bounds: the
    driver's check, with the message every device gives."""
    _kjit.check_launch(k.__name__, hostapi.get_current_device().name, griddim, blockdim, sharedmem,
                       max_threads=k._annotations()[1])


# ==== end of argument keys and launch configuration ===========================================

_DEBUGGING = re.compile(r"\bbreakpoint\s*\(|\bset_trace\s*\(|\bimport\s+pdb\b|\bfrom\s+pdb\s+import\b|\bpdb\.")


def _only_debugging(exc):
    """Whether every error of a compile failure is on a line that calls the
    debugger (``breakpoint()``, ``import pdb; pdb.set_trace()``): the
    compiler refuses those, the simulator runs them."""
    errors = [d for d in getattr(exc, "diagnostics", ()) if d.get("severity") == "error"]
    if not errors:
        return False
    for d in errors:
        line = linecache.getline(d.get("filename") or "", d.get("lineno") or 0)
        if not _DEBUGGING.search(line):
            return False
    return True


# The kernel-language names that make threads wait for each other.
_SYNC_NAMES = frozenset({
    "syncthreads", "syncthreads_count", "syncthreads_and", "syncthreads_or", "syncwarp", "shfl_sync",
    "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync", "all_sync", "any_sync", "eq_sync", "ballot_sync",
    "match_any_sync", "match_all_sync", "activemask", "this_grid", "sync", "mma_sync", "ldmatrix",
    "mbarrier", "commit_group", "named_barrier_sync", "named_barrier_arrive", "mma_async"})


def _code_names(code):
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _code_names(c)
    return names


def _uses_sync(func, seen):
    """Whether ``func``, or a function it names (a device function, a kjit
    function, a Python function), names a barrier or a warp operation."""
    code = getattr(func, "__code__", None)
    if code is None or id(code) in seen:
        return False
    seen.add(id(code))
    names = _code_names(code)
    if names & _SYNC_NAMES:
        return True
    called = [func.__globals__[n] for n in names if n in func.__globals__]
    for cell in func.__closure__ or ():
        try:
            called.append(cell.cell_contents)
        except ValueError:
            pass
    for v in called:
        f = getattr(v, "py_func", v)
        if isinstance(f, types.FunctionType) and _uses_sync(f, seen):
            return True
    return False


def _ignorable(exc):
    """Whether a failure to compile a kernel does not concern the simulator:
    errors only on lines that call the debugger, or no PTX for want of CUDA's
    libdevice (math functions) after typing succeeded."""
    if isinstance(exc, CompileError):
        return _only_debugging(exc)
    return isinstance(exc, RuntimeError) and not isinstance(exc, KjitError) and "libdevice" in str(exc)


# ---- the kernel object ----------------------------------------------------------------------
class CUDAKernel:
    """``@cuda.jit`` in the simulator: a kernel (``kernel[grid, block](...)``)
    or, with ``device=True``, a device function (called from kernels, or
    from Python). Holds kjit's compiled kernel object (``_real``), whose
    dispatcher (``_dispatcher``) the compiler uses for calls to it."""

    def __init__(self, func, device=False, signatures=(), **options):
        from kjit.cuda import compiler
        self.py_func = func
        self.device = device
        self._real = compiler.CUDAKernel(func, device=device, signatures=signatures, **options)
        self._dispatcher = self._real._dispatcher
        self.targetoptions = self._real.targetoptions
        self.__name__ = func.__name__
        self.__qualname__ = getattr(func, "__qualname__", func.__name__)
        self.__doc__ = func.__doc__
        self.__module__ = getattr(func, "__module__", None)
        self.__wrapped__ = func
        self._checked = set()
        self._declared = []
        self._syncs = None
        try:
            _user_files.add(os.path.abspath(func.__code__.co_filename))
        except AttributeError:
            pass
        self._declared = list(signatures)  # compiled and declared by the real kernel

    # ---- compiling (for the compile errors) -----------------------------------------------
    def compile(self, signature, cc=None):
        return self._real.compile(signature, cc)

    @property
    def signatures(self):
        return self._real.signatures

    def inspect_ptx(self, signature=None):
        return self._real.inspect_ptx(signature)

    def inspect_asm(self, signature=None):
        return self._real.inspect_ptx(signature)

    def inspect_lto_ptx(self, signature=None):
        """The whole-program PTX kjit compiles (see CUDAKernel's); the
        simulator tracks no overloads, so without a signature: {}."""
        if not self.targetoptions.get("lto"):
            raise RuntimeError("LTO is not enabled")
        if signature is None:
            return {}
        return self._real.inspect_ptx(signature)

    # As Numba's simulator: no overloads are tracked, specialize() is the
    # kernel itself, and the compiled-kernel attributes (registers, memory
    # sizes) do not exist.
    @property
    def overloads(self):
        return {}

    specializations = {}
    specialized = False

    def specialize(self, *args):
        return self

    def inspect_llvm(self, signature=None, cc=None):
        return self._real.inspect_llvm(signature, cc)

    def inspect_types(self, file=None):
        return self._real.inspect_types(file)

    def _annotations(self):
        try:
            return self._real._launch_annotations()
        except AttributeError:
            return 0, 0, 0

    def _check(self, key):
        """Compiles the kernel for these argument types, as the GPU launch
        path would: the compiler's exceptions (TypingError ...) propagate."""
        if key in self._checked:
            return
        try:  # the driver resolves declared signatures and compiles, as for a GPU launch
            self._dispatcher._cuda_kernel_for(key, _CC)
        except Exception as e:
            if not _ignorable(e):
                raise
        self._checked.add(key)

    def _convert_declared(self, values, key):
        """Scalars converted to the types of the declared signature the
        driver chose for this launch (as the GPU launch path converts them)."""
        if not self._declared:
            return values
        out = list(values)
        for i, (v, name) in enumerate(zip(values, self._dispatcher._cuda_resolved_types(key))):
            if isinstance(v, (int, float, complex, bool, np.generic)) and not isinstance(v, np.ndarray):
                if name == "bfloat16":  # NumPy has no bfloat16 scalar type
                    out[i] = bf16v.scalar(v) if not bfloat16_host.ml_dtypes_present() else bfloat16_host.scalar(v)
                    continue
                if name in float8_host.NAMES:  # nor 8-bit floats
                    from kjit import types as kt  # (with ml_dtypes: its scalar, rounded and saturated)
                    out[i] = f8v.scalar(v, name) if float8_host.dtype(name).kind == "u" else getattr(kt, name)(v)
                    continue
                try:
                    out[i] = np.dtype(name).type(v)
                except TypeError:  # a tuple or another non-scalar type
                    pass
        return out

    def _synchronizes(self):
        """Whether the kernel, or a function it calls, may use a barrier or a
        warp operation (then its threads run as threads; else in turn)."""
        if self._syncs is None:
            self._syncs = _uses_sync(self.py_func, set())
        return self._syncs

    # ---- launching ---------------------------------------------------------------------
    def __getitem__(self, config):
        if self.device:
            raise TypeError(f"{self.__name__} is a device function: call it from a kernel")
        return _Launcher(self, *_launch_config(self.__name__, config))

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A launcher for ``ntasks`` threads (Numba's ``kernel.forall``)."""
        if int(ntasks) < 0:
            raise ValueError(f"Can't create ForAll with negative task count: {self.__name__}.forall({ntasks})")
        if int(ntasks) == 0:
            return _no_launch  # Numba: no tasks, no launch and no error
        tpb = tpb or 128
        return self[(int(ntasks) + tpb - 1) // tpb, tpb, stream, sharedmem]

    def __call__(self, *args, **kwargs):
        from kjit.cuda.simulator import kernelapi
        # A kernel called from a (simulated) kernel runs as a device function,
        # as compiled kernels call it.
        if self.device or kernelapi._tls.s is not None:
            from kjit.cuda.simulator.pyfuncs import simulated
            return simulated(self.py_func)(*args, **kwargs)
        raise ValueError(f"launch configuration was not specified: a kernel is launched as "
                         f"{self.__name__}[blocks, threads](...)")

    def __repr__(self):
        kind = "device function" if self.device else "kernel"
        return f"<kjit CUDA {kind} {self.__qualname__} (simulated)>"


class _Launcher:
    def __init__(self, kernel, griddim, blockdim, stream, sharedmem):
        self.kernel = kernel
        self.griddim, self.blockdim, self.stream, self.sharedmem = griddim, blockdim, stream, sharedmem

    def __call__(self, *args, **kwargs):
        if kwargs:
            raise TypeError("kernels take positional arguments only")
        k = self.kernel
        values, key = _kernel_args(k, args)
        _check_config(k, self.griddim, self.blockdim, self.sharedmem)
        k._check(key)
        # bfloat16 and float8 bits read as such
        values = [f8v.wrap(bf16v.wrap(v)) for v in k._convert_declared(values, key)]
        _Launch(k, self.griddim, self.blockdim, self.sharedmem, values).run()






def jit(func_or_sig=None, device=False, **options):
    """``@cuda.jit``, ``@cuda.jit(device=True)``, ``@cuda.jit("void(float32[:])")``,
    ``@cuda.jit([sig, ...], fastmath=True)``: simulated kernels."""
    from kjit import types as kt
    if callable(func_or_sig) and not isinstance(func_or_sig, (str, kt.Type, kt.Signature)):
        return CUDAKernel(func_or_sig, device=device, **options)
    sigs = kt.signature_list(func_or_sig)

    def wrap(func):
        return CUDAKernel(func, device=device, signatures=sigs, **options)

    return wrap


def compile_ptx(pyfunc, sig, device=False, fastmath=False, cc=None, opt=True, lineinfo=False, debug=False):
    """PTX of ``pyfunc`` (kjit's compiler: no GPU needed): ``(ptx, return type)``."""
    from kjit.cuda import compiler
    if isinstance(pyfunc, CUDAKernel):
        pyfunc = pyfunc.py_func
    return compiler.compile_ptx(pyfunc, sig, device=device, fastmath=fastmath, cc=cc, opt=opt, lineinfo=lineinfo,
                                debug=debug)


def compile_amdgcn(pyfunc, sig, device=False, fastmath=False, arch="gfx90a", output="asm", lineinfo=False):
    """AMDGCN code of ``pyfunc`` (kjit's compiler: no GPU needed)."""
    from kjit.cuda import compiler
    if isinstance(pyfunc, CUDAKernel):
        pyfunc = pyfunc.py_func
    return compiler.compile_amdgcn(pyfunc, sig, device=device, fastmath=fastmath, arch=arch, output=output,
                                   lineinfo=lineinfo)


def compile_ptx_for_current_device(pyfunc, sig, device=False, fastmath=False, opt=True, lineinfo=False,
                                   debug=False):
    """compile_ptx for the simulated device (compute capability 9.0)."""
    return compile_ptx(pyfunc, sig, device=device, fastmath=fastmath, cc=(9, 0), opt=opt, lineinfo=lineinfo,
                       debug=debug)


def _no_launch(*args):
    """What ``kernel.forall(0)`` returns: launches nothing."""
