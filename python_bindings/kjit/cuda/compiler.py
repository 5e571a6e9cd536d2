"""@cuda.jit and cuda.compile_ptx; kernels and their launches."""
import hashlib
import operator
import os
import re
import warnings

from kjit import _kjit, devices

from kjit import types as kt
from kjit.errors import PerformanceWarning
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
    device=True, a device function that kernels call. ``kernel[config]``
    returns the launcher cached for the configuration (the lookup is C++:
    KernelBase in py_cuda.cpp), or makes one (``_launcher_for``)."""

    def __init__(self, func, device=False, signatures=(), **options):
        _kjit.KernelBase.__init__(self)
        unknown = set(options) - _OPTIONS
        if unknown:
            raise TypeError(f"unknown @cuda.jit option(s): {', '.join(sorted(unknown))}")
        self.py_func = func
        self.device = device
        self.targetoptions = dict(options, device=device)
        host_options = {k: v for k, v in options.items() if k in ("fastmath", "boundscheck")}
        # The dispatcher holds the source and resolves the globals; kernels
        # and the device functions they call share it.
        self._dispatcher = _make_dispatcher(func, host_options)
        self._dispatcher._cuda_kernel = self
        self.__name__ = func.__name__
        self.__qualname__ = getattr(func, "__qualname__", func.__name__)
        self.__doc__ = func.__doc__
        self._compiled = {}  # signature -> (ptx, return type, typed IR)
        # The launch path (C++): loaded kernels per device and argument key,
        # and a launcher per launch configuration.
        self._core = None if device else _kjit.CudaKernelCore(self._build, self.__name__)
        # Eager signatures compile now (for compute capability 9.0, which
        # needs no GPU); they are declared to the device that launches them
        # at the first launch, so that decorating waits for no driver.
        self._undeclared = []
        for sig in signatures:
            self.compile(sig)
            if not device:
                self._undeclared.append(str(sig))

    @property
    def _cpu(self):
        return not self.device and device_kind() == "cpu"

    def _declare(self):
        for sig in self._undeclared:
            if self._cpu:
                self._dispatcher._cpu_declare(sig, bool(self.targetoptions.get("fastmath")))
            else:
                self._core.declare(sig)
        self._undeclared = []

    def _launch_annotations(self):
        """(max_registers, max threads per block, min blocks per SM); 0 is unset."""
        maxreg = int(self.targetoptions.get("max_registers") or 0)
        bounds = self.targetoptions.get("launch_bounds")
        if bounds is None:
            threads, blocks = 0, 0
        elif isinstance(bounds, int):
            threads, blocks = bounds, 0
        else:
            bounds = tuple(bounds)
            if not 1 <= len(bounds) <= 2:
                raise ValueError("launch_bounds is max threads per block, or (max threads, min blocks per SM)")
            threads, blocks = int(bounds[0]), int(bounds[1]) if len(bounds) > 1 else 0
        return maxreg, threads, blocks

    def compile(self, signature, cc=None):
        """Compile for a signature ("void(float32[:], float32[:])" or kjit
        types) and the compute capability (default 9.0); returns the PTX."""
        sig = str(signature)
        key = (sig, _cc_number(cc))
        if key not in self._compiled:
            fastmath = bool(self.targetoptions.get("fastmath"))
            ptx, resty, typed, _, warnings_text, _ = self._dispatcher._compile_cuda(
                sig, self.device, key[1], fastmath, False, *self._launch_annotations(),
                bool(self.targetoptions.get("lineinfo") or self.targetoptions.get("debug")))
            if warnings_text:
                warnings.warn(PerformanceWarning(warnings_text), stacklevel=3)
            self._compiled[key] = (ptx, resty, typed)
        return self._compiled[key][0]

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
        return self._dispatcher._compile_cuda(str(sig), self.device, _cc_number(cc),
                                              bool(self.targetoptions.get("fastmath")), True,
                                              *self._launch_annotations(),
                                              bool(self.targetoptions.get("lineinfo")))[3]

    def _only_signature(self):
        sigs = self.signatures
        if len(sigs) != 1:
            raise ValueError(f"{self.__name__} has {len(sigs)} compiled signatures; name one")
        return sigs[0]

    def _select(self, signature):
        if signature is None:
            signature = self._only_signature()
        for (sig, _), value in self._compiled.items():
            if sig == str(signature):
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
        if self._undeclared:
            self._declare()
        if self._cpu:
            launcher = CpuLauncher(self, config if isinstance(config, tuple) else (config,))
        elif not _kjit.cuda_available():
            return _NoDevice(self)
        else:
            launcher = _kjit.CudaLauncher(self._core, config if isinstance(config, tuple) else (config,))
        try:
            if len(self._launchers) >= 64:
                self._launchers.clear()
            self._launchers[config] = launcher
        except TypeError:  # an unhashable configuration: not cached
            pass
        return launcher

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A launcher for ``ntasks`` threads (Numba's ``kernel.forall``)."""
        tpb = tpb or 128
        return self[(ntasks + tpb - 1) // tpb, tpb, stream, sharedmem]

    def _build(self, key, cc):
        """Called by the launch path for argument types it has not loaded:
        PTX (compiled here), which the driver compiles as a whole program when
        it loads it (faster code than linking it: see Runtime::load), and with
        cache=True kept on disk (the driver keeps its own cache of what it
        compiled). Returns (PTX, entry name)."""
        fastmath = bool(self.targetoptions.get("fastmath"))
        lineinfo = bool(self.targetoptions.get("lineinfo") or self.targetoptions.get("debug"))
        annotations = self._launch_annotations()
        cache = bool(self.targetoptions.get("cache"))
        if cache:
            text = "\n".join(["kjit 0.1.0 ptx 2", key, str(cc), str(fastmath), str(lineinfo), str(annotations),
                              str(bool(self.targetoptions.get("boundscheck"))), str(_kjit.cuda_driver_version()),
                              self._dispatcher._fingerprint()])
            ckey = f"{self.__name__}-cuda-{hashlib.sha256(text.encode()).hexdigest()[:40]}"
            folder = self._dispatcher._cache_folder()
            hit = _kjit.disk_cache_load(folder, ckey)
            if hit is not None and len(hit) == 2:
                return hit[0], hit[1].decode()
        ptx, resty, typed, _, warnings_text, sig = self._dispatcher._compile_cuda_key(key, cc, fastmath, *annotations,
                                                                                       lineinfo)
        if warnings_text:
            warnings.warn(PerformanceWarning(warnings_text), stacklevel=4)
        self._compiled.setdefault((sig, cc), (ptx, resty, typed))
        entry = re.search(r"\.entry\s+([A-Za-z_$][\w$]*)", ptx).group(1)
        image = ptx.encode()
        if cache:
            _kjit.disk_cache_store(folder, ckey, [image, entry.encode()])
        return image, entry

    def __call__(self, *args, **kwargs):
        if self.device:
            raise RuntimeError(f"{self.__name__} is a device function: it can only be called from a kernel")
        raise TypeError(f"a kernel is launched with a configuration: {self.__name__}[blocks, threads](...)")

    def __repr__(self):
        kind = "device function" if self.device else "kernel"
        return f"<kjit CUDA {kind} {self.__qualname__}>"


_kjit._install_kernel_subscript(CUDAKernel)  # kernel[config]: the C++ lookup


_MAX_BLOCK = (1024, 1024, 64)
_MAX_GRID = (2**31 - 1, 65535, 65535)


def _dims(v, what, kernel):
    from kjit.cuda.errors import LaunchConfigError
    if hasattr(v, "__index__"):
        v = (v,)
    try:
        if isinstance(v, (str, bytes)):
            raise TypeError(v)
        dims = tuple(operator.index(d) for d in v)
    except TypeError:
        raise LaunchConfigError(f"kernel '{kernel}': {what} must be an int or a tuple of 1 to 3 ints, "
                                f"not {v!r}") from None
    if not 1 <= len(dims) <= 3:
        raise LaunchConfigError(f"kernel '{kernel}': {what} must have 1 to 3 dimensions, not {len(dims)}")
    return dims + (1,) * (3 - len(dims))


class CpuLauncher:
    """``kernel[grid, block, stream, sharedmem]`` on the CPU device: the
    blocks run on kjit's thread pool (KJIT_NUM_THREADS), each block's threads
    as a loop or, when the kernel synchronises, as fibers. The launch is
    synchronous; the limits checked are a GPU's (1024 threads per block)."""

    def __init__(self, kernel, config):
        from kjit.cuda.errors import LaunchConfigError
        name = kernel.__name__
        if not 2 <= len(config) <= 4:
            raise LaunchConfigError(f"kernel '{name}': a launch is kernel[grid, block] or [grid, block, stream] "
                                    f"or [grid, block, stream, sharedmem], not {len(config)} items")
        grid, block = _dims(config[0], "the grid", name), _dims(config[1], "the block", name)
        shared = int(config[3]) if len(config) > 3 else 0
        for d, lim, what in [(grid, _MAX_GRID, "grid"), (block, _MAX_BLOCK, "block")]:
            for axis, (v, m) in enumerate(zip(d, lim)):
                if v < 1 or v > m:
                    raise LaunchConfigError(f"kernel '{name}': {what} dimension {'xyz'[axis]} is {v}; it must be "
                                            f"between 1 and {m} (on the CPU device, as on a GPU)")
        threads = block[0] * block[1] * block[2]
        if threads > 1024:
            raise LaunchConfigError(f"kernel '{name}': {threads} threads per block; the CPU device, as a GPU, "
                                    "takes at most 1024")
        if shared < 0:
            raise LaunchConfigError(f"kernel '{name}': negative dynamic shared memory ({shared} bytes)")
        self._kernel = kernel
        self._launch = kernel._dispatcher._cpu_launch
        self._grid, self._block, self._shared = grid, block, shared
        self._fastmath = bool(kernel.targetoptions.get("fastmath"))

    def __call__(self, *args):
        args = tuple(a._ary if hasattr(a, "_ary") else a for a in args)
        self._launch(args, self._grid, self._block, self._shared, self._fastmath)


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
    sigs = () if func_or_sig is None else tuple(func_or_sig) if isinstance(func_or_sig, (list, tuple)) else (func_or_sig,)

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
    ptx = k.compile(sig, cc)
    return ptx, _return_type(k._compiled[(str(sig), _cc_number(cc))][1])


def compile_ptx_for_current_device(pyfunc, sig, device=False, fastmath=False, opt=True, lineinfo=False,
                                   debug=False):
    """compile_ptx for the current device's compute capability."""
    if not _kjit.cuda_available():
        raise CudaSupportError(f"compile_ptx_for_current_device needs a CUDA GPU ({_kjit.cuda_why()}); "
                               "use compile_ptx(..., cc=(major, minor))")
    cc = _kjit.cuda_device_info(_kjit.cuda_current())["compute_capability"]
    return compile_ptx(pyfunc, sig, device=device, fastmath=fastmath, cc=cc, opt=opt, lineinfo=lineinfo, debug=debug)
