"""@cuda.jit and cuda.compile_ptx; kernels and their launches."""
import os

from kjit import _kjit, devices

from kjit import types as kt
from kjit.cuda.errors import CudaSupportError
from kjit.dispatcher import _make_dispatcher

DEFAULT_CC = (9, 0)  # what compile_ptx targets without cc=, and the GPU the team tests on


def device_kind():
    """Where compiled kernels launch: "cuda" or "cpu" (kjit.devices decides;
    the simulator replaces kjit.cuda as a whole: see kjit.cuda.simulator)."""
    return devices.compiled_kind()


_OPTIONS = {"device", "fastmath", "debug", "lineinfo", "inline", "opt", "cache", "max_registers",
            "link", "boundscheck", "launch_bounds"}


def _cc_number(cc):
    cc = cc or DEFAULT_CC
    major, minor = cc
    return major * 10 + minor


def _return_type(name):
    if name in ("none", "void"):
        return kt.void
    return getattr(kt, name, name)


class CUDAKernel(_kjit.KernelBase):
    """What @cuda.jit makes: a kernel (``kernel[grid, block](...)``) or, with
    device=True, a device function that kernels call. Every compile, the
    overload rules and the disk cache are the JIT driver's (runtime/jit, through
    the dispatcher); ``kernel[config]`` returns the launcher cached for the
    configuration (the lookup is C++: KernelBase in py_cuda_launch.cpp), or
    makes one (``_launcher_for``)."""

    def __init__(self, func, device=False, signatures=(), **options):
        _kjit.KernelBase.__init__(self)
        unknown = set(options) - _OPTIONS
        if unknown:
            raise TypeError(f"unknown @cuda.jit option(s): {', '.join(sorted(unknown))}")
        self.py_func = func
        self.device = device
        self.targetoptions = dict(options, device=device)
        maxreg, threads, blocks = _launch_annotations(options)
        driver_options = {k: v for k, v in options.items() if k in ("fastmath", "boundscheck", "cache")}
        driver_options["_cuda"] = {
            "fastmath": bool(options.get("fastmath")),
            "lineinfo": bool(options.get("lineinfo") or options.get("debug")),
            "max_registers": maxreg, "max_threads": threads, "min_blocks": blocks,
        }
        # The dispatcher holds the source and resolves the globals; kernels
        # and the device functions they call share it.
        self._dispatcher = _make_dispatcher(func, driver_options)
        self._dispatcher._cuda_kernel = self
        self.__name__ = func.__name__
        self.__qualname__ = getattr(func, "__qualname__", func.__name__)
        self.__doc__ = func.__doc__
        # The launch path (C++): loaded kernels per device and argument key,
        # and a launcher per launch configuration.
        self._core = None if device else _kjit.CudaKernelCore(self._dispatcher)
        # Eager signatures compile now (for compute capability 9.0, which
        # needs no GPU) and close the set of argument types launches take.
        # The CPU device compiles its own code for them at the first launch.
        self._cpu_undeclared = []
        for sig in signatures:
            self.compile(sig)
            if not device:
                self._dispatcher._cuda_declare(kt.signature_text(sig))
                self._cpu_undeclared.append(kt.signature_text(sig))

    @property
    def _cpu(self):
        return not self.device and device_kind() == "cpu"

    def _launch_annotations(self):
        """(max_registers, max threads per block, min blocks per SM); 0 is unset."""
        return _launch_annotations(self.targetoptions)

    def compile(self, signature, cc=None):
        """Compile for a signature ("void(float32[:], float32[:])" or kjit
        types) and the compute capability (default 9.0); returns the PTX."""
        return self._dispatcher._compile_cuda(kt.signature_text(signature), self.device, _cc_number(cc))[2]

    @property
    def _compiled(self):
        """{(signature, cc): (PTX, return type, typed IR)}: eager compiles
        and those of launches."""
        return {(sig, cc): (ptx, resty, typed) for sig, cc, ptx, resty, typed in self._dispatcher._cuda_results()}

    @property
    def signatures(self):
        return [sig for sig, _ in self._compiled]

    def inspect_ptx(self, signature=None):
        """PTX by signature (or of the only one)."""
        return self._select(signature)[0]

    def inspect_types(self, file=None):
        for (sig, _), (_, _, typed) in self._compiled.items():
            print(f"{sig}:\n{typed}", file=file)

    def inspect_llvm(self, signature=None, cc=None):
        sig = signature or self._only_signature()
        return self._dispatcher._cuda_llvm(kt.signature_text(sig), self.device, _cc_number(cc))

    def _only_signature(self):
        sigs = self.signatures
        if len(sigs) != 1:
            raise ValueError(f"{self.__name__} has {len(sigs)} compiled signatures; name one")
        return sigs[0]

    def _select(self, signature):
        if signature is None:
            signature = self._only_signature()
        for (sig, _), value in self._compiled.items():
            if sig == kt.signature_text(signature):
                return value
        raise KeyError(f"{self.__name__} was not compiled for {signature}")

    # kernel[config] is the C++ lookup installed on the class (below) and on
    # its subclasses; no Python __getitem__, which the interpreter would
    # call in its place (3.11's specialised subscript calls a Python
    # __getitem__ directly).
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "__getitem__" not in cls.__dict__:
            _kjit._install_kernel_subscript(cls)

    def _launcher_for(self, config):
        if self.device:
            raise TypeError(f"{self.__name__} is a device function: call it from a kernel")
        if not isinstance(config, tuple):
            config = (config,)
        if self._cpu:
            for sig in self._cpu_undeclared:
                self._dispatcher._cpu_declare(sig)
            self._cpu_undeclared = []
            launcher = _kjit.CpuLauncher(self._dispatcher, config)
        elif not _kjit.cuda_available():
            _kjit.launch_config(self.__name__, config)  # a mistake in it is still the first error
            return _NoDevice(self)
        else:
            launcher = _kjit.CudaLauncher(self._core, config)
        try:
            if len(self._launchers) >= 64:
                self._launchers.clear()
            self._launchers[config] = launcher
        except TypeError:  # an unhashable configuration: not cached
            pass
        return launcher

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A launcher for ``ntasks`` threads (Numba's ``kernel.forall``)."""
        if int(ntasks) == 0:
            return _no_launch  # Numba: no tasks, no launch and no error
        tpb = tpb or 128
        return self[(ntasks + tpb - 1) // tpb, tpb, stream, sharedmem]

    def __call__(self, *args, **kwargs):
        if self.device:
            raise RuntimeError(f"{self.__name__} is a device function: it can only be called from a kernel")
        raise TypeError(f"a kernel is launched with a configuration: {self.__name__}[blocks, threads](...)")

    def __repr__(self):
        kind = "device function" if self.device else "kernel"
        return f"<kjit CUDA {kind} {self.__qualname__}>"


def _no_launch(*args):
    """What ``kernel.forall(0)`` returns: launches nothing."""


def _launch_annotations(options):
    """(max_registers, max threads per block, min blocks per SM) of the
    options; 0 is unset."""
    maxreg = int(options.get("max_registers") or 0)
    bounds = options.get("launch_bounds")
    if bounds is None:
        return maxreg, 0, 0
    if isinstance(bounds, int):
        return maxreg, bounds, 0
    bounds = tuple(bounds)
    if not 1 <= len(bounds) <= 2:
        raise ValueError("launch_bounds is max threads per block, or (max threads, min blocks per SM)")
    return maxreg, int(bounds[0]), int(bounds[1]) if len(bounds) > 1 else 0


_kjit._install_kernel_subscript(CUDAKernel)  # kernel[config]: the C++ lookup


class _NoDevice:
    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, *args):
        raise CudaSupportError(
            f"cannot launch kernel '{self.kernel.__name__}': no CUDA GPU ({_kjit.cuda_why()}). Kernels still "
            "compile to PTX (cuda.compile_ptx, kernel.inspect_ptx()).")


def jit(func_or_sig=None, device=False, **options):
    """``@cuda.jit``, ``@cuda.jit(device=True)``, ``@cuda.jit("void(float32[:])")``,
    ``@cuda.jit(["void(float32[:])", "void(float64[:])"], fastmath=True)``."""
    if callable(func_or_sig) and not isinstance(func_or_sig, (str, kt.Type, kt.Signature)):
        return CUDAKernel(func_or_sig, device=device, **options)
    sigs = kt.signature_list(func_or_sig)

    def wrap(func):
        return CUDAKernel(func, device=device, signatures=sigs, **options)

    return wrap


def compile_ptx(pyfunc, sig, device=False, fastmath=False, cc=None, opt=True, lineinfo=False, debug=False):
    """PTX of ``pyfunc`` for signature ``sig`` (as numba.cuda.compile_ptx):
    returns ``(ptx, return_type)``. Kernels return void; ``device=True``
    compiles a device function. ``cc`` is a (major, minor) pair, default
    (9, 0)."""
    if isinstance(pyfunc, CUDAKernel):  # a @cuda.jit object: its Python function
        pyfunc = pyfunc.py_func
    k = CUDAKernel(pyfunc, device=device, fastmath=fastmath, lineinfo=lineinfo)
    _, _, ptx, resty, _ = k._dispatcher._compile_cuda(kt.signature_text(sig), device, _cc_number(cc))
    return ptx, _return_type(resty)


def compile_ptx_for_current_device(pyfunc, sig, device=False, fastmath=False, opt=True, lineinfo=False,
                                   debug=False):
    """compile_ptx for the current device's compute capability."""
    if not _kjit.cuda_available():
        raise CudaSupportError(f"compile_ptx_for_current_device needs a CUDA GPU ({_kjit.cuda_why()}); "
                               "use compile_ptx(..., cc=(major, minor))")
    cc = _kjit.cuda_device_info(_kjit.cuda_current())["compute_capability"]
    return compile_ptx(pyfunc, sig, device=device, fastmath=fastmath, cc=cc, opt=opt, lineinfo=lineinfo, debug=debug)
