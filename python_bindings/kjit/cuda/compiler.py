"""@cuda.jit and cuda.compile_ptx; kernels and their launches."""
import os
import weakref

from kjit import _kjit, devices

from kjit import types as kt
from kjit.cuda.errors import CudaSupportError
from kjit.dispatcher import _make_dispatcher
from kjit.typeof import type_of_name as _type_of_name

DEFAULT_CC = (9, 0)  # what compile_ptx targets without cc=, and the GPU the team tests on


def device_kind():
    """Where compiled kernels launch: "cuda", "hip" or "cpu" (kjit.devices decides;
    the simulator replaces kjit.cuda as a whole: see kjit.cuda.simulator)."""
    return devices.compiled_kind()


_OPTIONS = {"device", "fastmath", "debug", "lineinfo", "inline", "opt", "cache", "max_registers",
            "link", "boundscheck", "launch_bounds", "lto", "shared_memory_carveout", "forceinline"}


def _validate_carveout(carveout):
    """shared_memory_carveout as Numba checks it: "default", "maxl1",
    "maxshared" or a percentage from -1 to 100. Accepted and otherwise
    ignored (the driver keeps its default split of L1 and shared memory)."""
    if isinstance(carveout, str):
        valid = ["default", "maxl1", "maxshared"]
        if carveout.lower() not in valid:
            raise ValueError(f"Invalid carveout value: {carveout}. Must be -1 to 100 or one of {valid}")
    elif isinstance(carveout, int) and not isinstance(carveout, bool):
        if not -1 <= carveout <= 100:
            raise ValueError("Carveout must be between -1 and 100")
    else:
        raise TypeError(f"shared_memory_carveout must be str or int, got {type(carveout).__name__}")


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
        if options.get("shared_memory_carveout") is not None:
            _validate_carveout(options["shared_memory_carveout"])
        self.py_func = func
        self.device = device
        self.targetoptions = dict(options, device=device)
        self._pickle_options = dict(options, device=device)
        self._pickle_signatures = [kt.signature_text(s) for s in signatures]
        self.specializations = {}  # (cc, argument types) -> the kernel specialize() made
        self._specialized = False
        self._config_sensitive = set()  # argument types marked by mark_launch_config_sensitive()
        maxreg, threads, blocks, cluster = _launch_annotations(options)
        driver_options = {k: v for k, v in options.items() if k in ("fastmath", "boundscheck", "cache")}
        driver_options["_cuda"] = {
            "fastmath": bool(options.get("fastmath")),
            "lineinfo": bool(options.get("lineinfo") or options.get("debug")),
            "debug": bool(options.get("debug")),
            "max_registers": maxreg, "max_threads": threads, "min_blocks": blocks,
            "max_cluster_rank": cluster,
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
        # The CPU device compiles its own code for them at the first launch
        # (the dispatcher keeps them: _cpu_declare_later).
        # A device function's declared signatures: kernels' calls convert to the best (the compiler
        # reads them through the dispatcher's resolver).
        self._device_signatures = [kt.signature_text(s) for s in signatures] if device else []
        for sig in signatures:
            sig = kt.signature_text(sig)
            self.compile(sig)
            if not device:
                self._dispatcher._cuda_declare(sig)
                self._dispatcher._cpu_declare_later(sig)

    @property
    def _cpu(self):
        return not self.device and device_kind() == "cpu"

    def _launch_annotations(self):
        """(max_registers, max threads per block, min blocks per SM, max blocks
        per cluster); 0 is unset."""
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
        # A kernel returns nothing: void(...), also when compiled at a launch.
        out = [("void(" + sig[len("none("):]) if sig.startswith("none(") and not self.device else sig
               for sig, _ in self._compiled]
        if self._cpu and not self.device:  # and what the CPU device's launches compiled
            for types in self.overloads:
                text = kt.signature_text(kt.void(*types))
                if text not in out:
                    out.append(text)
        return out

    # ---- Numba's dispatcher: overloads, specialize, kernel attributes ----------------------
    @property
    def specialized(self):
        """True for a kernel made by specialize() or by @cuda.jit with one
        signature: its set of argument types is closed to that one."""
        return self._specialized

    def _flush_cpu_declared(self):
        self._dispatcher._cpu_flush_declared()

    def _device_cc(self):
        if self._cpu or not _kjit.cuda_available():
            return _cc_number(None)
        major, minor = _kjit.cuda_device_info(_kjit.cuda_current())["compute_capability"]
        return major * 10 + minor

    @property
    def overloads(self):
        """{argument types (a tuple of kjit types): the compiled kernel}, as
        Numba's: a kernel's eager signatures and the specialisations its
        launches compiled, for the device kernels launch on."""
        if self.device:
            return {}
        keys = []
        if self._cpu:
            keys = list(self._dispatcher._cpu_keys())
        cc = self._device_cc()
        for key, kcc in self._dispatcher._cuda_keys():
            if kcc == cc or (self._cpu and kcc == _cc_number(None)):
                keys.append(key)
        out = {}
        for key in keys:
            types = self._dispatcher._cuda_argument_types(key)
            if types not in out:
                out[types] = _CompiledKernel(self, key, types)
        return out

    def specialize(self, *args):
        """A kernel compiled for the types of ``args`` (values or kjit
        types), whose set of argument types is closed (Numba's
        ``specialize``); made once per device and types."""
        if self._specialized:
            raise RuntimeError("Dispatcher already specialized")
        types = []
        for a in args:
            if isinstance(a, kt.Type):
                types.append(a)
            else:
                key = self._dispatcher._argument_key((a,))
                types.append(self._dispatcher._cuda_argument_types(key)[0])
        types = tuple(types)
        cc = self._device_cc()
        k = self.specializations.get((cc, types))
        if k is None:
            options = {o: v for o, v in self.targetoptions.items() if o != "device"}
            k = type(self)(self.py_func, device=self.device, signatures=(types,), **options)
            k._specialized = True
            self.specializations[cc, types] = k
        return k

    def _overload(self, signature):
        if signature is None:
            overloads = self.overloads
            if self._specialized and overloads:  # as Numba: a number only for a specialized kernel
                return next(iter(overloads.values()))
            return None
        args = signature.args if isinstance(signature, kt.Signature) else tuple(signature) \
            if isinstance(signature, (tuple, list)) else None
        if isinstance(signature, str):  # an item of .signatures
            text = kt.signature_text(signature)
            for types, k in self.overloads.items():
                if kt.signature_text(kt.void(*types)) == text:
                    return k
            raise KeyError(f"{self.__name__} was not compiled for {signature}")
        if args is None:
            raise TypeError(f"a kernel's compiled variants are named by a signature (void(float32[::1])) or "
                            f"its argument types, not {signature!r}")
        return self.overloads[args]

    def _attribute(self, name, signature):
        one = self._overload(signature)
        if one is not None:
            return getattr(one, name)
        return {sig: getattr(k, name) for sig, k in self.overloads.items()}

    def get_regs_per_thread(self, signature=None):
        """Registers per thread of the kernel for ``signature`` (a
        signature, its argument types) on the current device; without a
        signature, the only one's, or a dict by argument types. The CPU
        device uses no GPU registers: 0."""
        return self._attribute("regs_per_thread", signature)

    def get_shared_mem_per_block(self, signature=None):
        """Static shared memory per block in bytes (as get_regs_per_thread)."""
        return self._attribute("shared_mem_per_block", signature)

    def get_local_mem_per_thread(self, signature=None):
        """Local memory per thread in bytes (as get_regs_per_thread)."""
        return self._attribute("local_mem_per_thread", signature)

    def get_const_mem_size(self, signature=None):
        """Constant memory in bytes (as get_regs_per_thread); 0 on the CPU device."""
        return self._attribute("const_mem_size", signature)

    def get_max_threads_per_block(self, signature=None):
        """The most threads per block the kernel can launch with (as get_regs_per_thread)."""
        return self._attribute("max_threads_per_block", signature)

    def compile_device(self, args, return_type=None):
        """Compiles a device function for argument types ``args`` (a tuple of
        kjit types) for the current device's compute capability (Numba's
        ``compile_device``): its PTX symbol is ``.fndesc.mangled_name``."""
        if not self.device:
            raise RuntimeError(f"{self.__name__} is a kernel; compile_device compiles device functions")
        sig = return_type(*args) if return_type is not None else tuple(args)
        text = kt.signature_text(sig)
        _, _, ptx, resty, typed = self._dispatcher._compile_cuda(text, True, self._device_cc())
        return _DeviceFunction(self.py_func, text, ptx, _return_type(resty), typed)

    def inspect_asm(self, signature=None):
        """The PTX (on the CPU device: the host assembly; on an AMD GPU,
        KJIT_DEVICE=hip: the AMDGCN assembly of what the launches compiled)
        for ``signature``; without one, a dict by argument types (as Numba's,
        specialized or not). A device function's: its PTX for ``signature``."""
        if not self.device and device_kind() == "hip":
            return self._hip_loader().inspect_asm(signature)
        if self.device and signature is not None:
            return self.compile_device(signature.args if isinstance(signature, kt.Signature) else
                                       tuple(signature)).ptx
        if signature is None:
            return {sig: k.inspect_asm() for sig, k in self.overloads.items()}
        return self._overload(signature).inspect_asm()

    def inspect_sass(self, signature=None):
        """The SASS for ``signature`` (or a dict), through nvdisasm or
        cuobjdump on the PATH."""
        if self.device:
            raise RuntimeError(f"Cannot inspect SASS of a device function: {self.__name__} is compiled into "
                               "the kernels that call it")
        if signature is None:
            return {sig: k.inspect_sass() for sig, k in self.overloads.items()}
        return self._overload(signature).inspect_sass()

    def inspect_lto_ptx(self, signature=None):
        """The link-time-optimised PTX for ``signature`` (kernels made with
        ``lto=True``): kjit's PTX, which is whole-program optimised already;
        without a signature a dict by argument types."""
        if signature is None:
            return {sig: k.inspect_lto_ptx() for sig, k in self.overloads.items()}
        return self._overload(signature).inspect_lto_ptx()

    def inspect_ptx(self, signature=None):
        """PTX by signature (or of the only one)."""
        return self._select(signature)[0]

    def inspect_types(self, file=None):
        for (sig, _), (_, _, typed) in self._compiled.items():
            print(f"{sig}:\n{typed}", file=file)

    def inspect_llvm(self, signature=None, cc=None):
        """The LLVM IR for ``signature``; for a kernel without one, a dict
        by argument types (as Numba's)."""
        if signature is None and not self.device:
            return {sig: self.inspect_llvm(kt.void(*sig), cc) for sig in self.overloads}
        if isinstance(signature, (tuple, list)):  # argument types: a kernel returns nothing
            signature = tuple(signature) if self.device else kt.void(*signature)
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

    def __reduce__(self):
        # By value, as Numba pickles kernels (kjit/serialize.py).
        from kjit import serialize
        return serialize.reduce_kernel(self)

    def _launcher_for(self, config):
        if self.device:
            raise RuntimeError(f"Cannot compile a device function as a kernel: {self.__name__} is a device "
                               "function (@cuda.jit(device=True)); call it from a kernel")
        if not isinstance(config, tuple):
            config = (config,)
        if self._cpu:
            self._flush_cpu_declared()
            launcher = _kjit.CpuLauncher(self._dispatcher, config, weakref.ref(self))
        elif device_kind() == "hip":
            from kjit.hip.launch import Launcher
            launcher = Launcher(self, config)
        elif not _kjit.cuda_available():
            _kjit.launch_config(self.__name__, config)  # a mistake in it is still the first error
            return _NoDevice(self)
        else:
            launcher = _kjit.CudaLauncher(self._core, config, weakref.ref(self))
        # The rule newLauncher follows too: 64 cached, Numba's small-grid
        # warning at the caller's line.
        _kjit.remember_launcher(self._launchers, config, launcher, self.__name__, 2)
        return launcher

    # kernel[config] makes the launcher in C++ for the CPU device and CUDA
    # GPUs (py_cuda_launch.cpp, newLauncher), as _launcher_for would; and a
    # launch miss compiles there, as _compile_for_args would. Where a class
    # or an object replaces either method, the C++ path calls it instead:
    # these name the methods it stands for.
    _kjit_original_launcher_for = _launcher_for

    def _hip_loader(self):
        """The kernel's code on AMD GPUs (kjit/hip/launch.py)."""
        if getattr(self, "_hip", None) is None:
            from kjit.hip.launch import Loader
            self._hip = Loader(self._dispatcher, self.__name__)
        return self._hip

    def _argument_types(self, key):
        return self._dispatcher._cuda_argument_types(key)

    def _compile_for_args(self, *args, **kws):
        """Compiles the kernel for the types of ``args`` on the device kernels
        launch on, and returns it (``overloads``' value). A launch calls this
        when nothing compiled fits its arguments, with its configuration
        current (kjit.cuda.launchconfig), as numba-cuda's dispatcher does:
        wrapping it sees each compile a launch causes."""
        from kjit.cuda import launchconfig
        cfg = launchconfig.current_launch_config()
        if cfg is not None and cfg.dispatcher is self:
            key = cfg._key
        else:
            key = self._dispatcher._argument_key(tuple(getattr(a, "_ary", a) for a in args))
        if self._cpu:
            self._flush_cpu_declared()
        self._dispatcher._compile_key(key, 0 if self._cpu else self._device_cc())
        return _CompiledKernel(self, key, self._argument_types(key))

    _kjit_original_compile_for_args = _compile_for_args

    def mark_launch_config_sensitive(self):
        """Marks the kernel being compiled for the current launch as
        depending on its launch configuration (numba-cuda's API for
        extensions): its ``launch_config_sensitive`` is then True. kjit
        compiles one kernel per argument types whatever the configuration."""
        from kjit.cuda import launchconfig
        cfg = launchconfig.current_launch_config()
        if cfg is None or cfg.dispatcher is not self:
            raise RuntimeError("mark_launch_config_sensitive() must be called on the active dispatcher, "
                               "while a launch of it compiles")
        self._config_sensitive.add(self._argument_types(cfg._key))

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A launcher for ``ntasks`` threads (Numba's ``kernel.forall``)."""
        if int(ntasks) < 0:
            raise ValueError(f"Can't create ForAll with negative task count: {self.__name__}.forall({ntasks})")
        if int(ntasks) == 0:
            return _no_launch  # Numba: no tasks, no launch and no error
        tpb = tpb or 128
        return self[(ntasks + tpb - 1) // tpb, tpb, stream, sharedmem]

    def __call__(self, *args, **kwargs):
        if self.device:
            raise RuntimeError(f"{self.__name__} is a device function: it can only be called from a kernel")
        raise ValueError(f"launch configuration was not specified: a kernel is launched as "
                         f"{self.__name__}[blocks, threads](...)")

    def __repr__(self):
        kind = "device function" if self.device else "kernel"
        return f"<kjit CUDA {kind} {self.__qualname__}>"


class _CompiledKernel:
    """One compiled kernel of ``kernel.overloads`` (Numba's ``_Kernel``):
    its argument types and what the device says of its code."""

    def __init__(self, kernel, key, argument_types):
        self._kernel, self._key = kernel, key
        self.argument_types = argument_types
        self.signature = kt.void(*argument_types)
        self.launch_config_sensitive = argument_types in kernel._config_sensitive
        self._attrs = None

    def __repr__(self):
        return f"<compiled kernel {self._kernel.__name__}{self.signature}>"

    def _attributes(self):
        if self._attrs is None:
            k = self._kernel
            if k._cpu:
                k._flush_cpu_declared()
                a = dict(k._dispatcher._cpu_attributes(self._key))
                a["regs_per_thread"] = 0  # no GPU registers on the CPU device
                a["max_threads_per_block"] = _launch_annotations(k.targetoptions)[1] or 1024
            elif _kjit.cuda_available():
                a = dict(k._core._attributes(self._key))
            else:
                raise CudaSupportError(f"kernel attributes of '{k.__name__}' need a CUDA GPU or the CPU "
                                       f"device ({_kjit.cuda_why()})")
            self._attrs = a
        return self._attrs

    @property
    def _type_annotation(self):
        """Numba's type annotation of the compiled kernel: ``.typemap``, its
        variables' types by name."""
        k = self._kernel
        if k._cpu:
            k._flush_cpu_declared()
        names = k._dispatcher._typemap(self._key, 0 if k._cpu else k._device_cc())
        return _TypeAnnotation({name: _type_of_name(t) for name, t in names})

    regs_per_thread = property(lambda self: self._attributes()["regs_per_thread"])
    shared_mem_per_block = property(lambda self: self._attributes()["shared_mem_per_block"])
    local_mem_per_thread = property(lambda self: self._attributes()["local_mem_per_thread"])
    const_mem_size = property(lambda self: self._attributes()["const_mem_size"])
    max_threads_per_block = property(lambda self: self._attributes()["max_threads_per_block"])

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0):
        """The most blocks of ``blockdim`` threads (an int or a tuple) a
        launch of this kernel can have when it calls grid.sync(), whose
        blocks must all be resident at once (Numba's): blocks per
        multiprocessor times multiprocessors on a GPU; on the CPU device,
        which runs such a launch's threads all at once, as many blocks as
        it holds threads for."""
        if isinstance(blockdim, tuple):
            threads = 1
            for d in blockdim:
                threads *= int(d)
        else:
            threads = int(blockdim)
        if threads <= 0:
            raise ValueError(f"blockdim must be positive, not {blockdim!r}")
        k = self._kernel
        if k._cpu:
            blocks = _kjit.cpu_max_cooperative_threads // threads
            static = self._attributes()["shared_mem_per_block"]
            if static + int(dynsmemsize) > 0:  # every block's shared memory at once, laid out
                per_block = ((static + 15) // 16 * 16 + int(dynsmemsize) + 63) // 64 * 64
                blocks = min(blocks, _kjit.cpu_max_cooperative_shared_bytes // per_block)
            return blocks
        if not _kjit.cuda_available():
            raise CudaSupportError(f"max_cooperative_grid_blocks of '{k.__name__}' needs a CUDA GPU or the CPU "
                                   f"device ({_kjit.cuda_why()})")
        return k._core._max_cooperative_grid_blocks(self._key, threads, int(dynsmemsize))

    def _ptx(self, cc=None):
        k = self._kernel
        return k._dispatcher._cuda_kernel_for(self._key, _cc_number(cc) if cc else k._device_cc())[2]

    def inspect_asm(self, cc=None):
        """The PTX; on the CPU device, the host assembly it runs."""
        k = self._kernel
        if k._cpu:
            k._flush_cpu_declared()
            return k._dispatcher._cpu_inspect(self._key, True)
        return self._ptx(cc)

    def inspect_lto_ptx(self, cc=None):
        """The PTX after link-time optimisation, as Numba's with nvJitLink.
        kjit compiles a kernel and every Python device function it calls
        as one LLVM module, optimised as a whole, so its PTX is already the
        link-time-optimised program: this is that PTX (on the CPU device too,
        for the current or given compute capability). Code given with
        ``link=`` is linked by the driver and appears as ``.extern``
        declarations."""
        if not self._kernel.targetoptions.get("lto"):
            raise RuntimeError("LTO is not enabled")
        k = self._kernel
        if k._cpu:
            cc = cc or (9, 0)
        return self._ptx(cc)

    def inspect_sass(self):
        """The SASS of the kernel, through nvdisasm or cuobjdump (CUDA's
        tools) when they are on the PATH."""
        import shutil
        import subprocess
        import tempfile
        k = self._kernel
        if k._cpu:
            raise RuntimeError(f"inspect_sass: kernel '{k.__name__}' runs on the CPU device, which has no "
                               "SASS (GPU machine code); inspect_asm() gives the host assembly it runs")
        tool = shutil.which("cuobjdump") and shutil.which("ptxas")
        if not tool:
            raise RuntimeError("inspect_sass needs CUDA's ptxas and cuobjdump on the PATH (not found)")
        cc = k._device_cc()
        with tempfile.TemporaryDirectory() as d:
            src, cubin = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
            with open(src, "w") as f:
                f.write(self._ptx())
            subprocess.run(["ptxas", f"-arch=sm_{cc}", src, "-o", cubin], check=True, capture_output=True)
            return subprocess.run(["cuobjdump", "-sass", cubin], check=True, capture_output=True,
                                  text=True).stdout


class _DeviceFunction:
    """What ``compile_device`` returns (Numba's compile result, in part):
    ``signature``, ``fndesc.mangled_name`` (the function's PTX symbol),
    ``ptx``, ``typed_ir``."""

    class _FunctionDescriptor:
        def __init__(self, name, qualname):
            self.mangled_name, self.qualname = name, qualname

    def __init__(self, func, signature, ptx, return_type, typed):
        self.signature, self.ptx, self.return_type, self.typed_ir = signature, ptx, return_type, typed
        self.fndesc = self._FunctionDescriptor(func.__name__, getattr(func, "__qualname__", func.__name__))


class _TypeAnnotation:
    """What ``_type_annotation`` of a compiled kernel gives: ``typemap``."""

    def __init__(self, typemap):
        self.typemap = typemap

    def __repr__(self):
        return f"<type annotation {self.typemap}>"


def _no_launch(*args):
    """What ``kernel.forall(0)`` returns: launches nothing."""


def _launch_annotations(options):
    """(max_registers, max threads per block, min blocks per SM, max blocks
    per cluster) of the options; 0 is unset. ``launch_bounds`` is Numba's:
    an int or a tuple of 1 to 3 ints, the PTX directives .maxntid,
    .minnctapersm and .maxclusterrank (sm_90 and later)."""
    maxreg = int(options.get("max_registers") or 0)
    bounds = options.get("launch_bounds")
    if bounds is None:
        return maxreg, 0, 0, 0
    if isinstance(bounds, int):
        bounds = (bounds,)
    bounds = tuple(bounds)
    if len(bounds) > 3:
        raise ValueError(f"Got {len(bounds)} launch bounds: {bounds}. A maximum of three are supported: "
                         "(max_threads_per_block, min_blocks_per_sm, max_blocks_per_cluster)")
    if not bounds:
        raise ValueError("launch_bounds needs at least the maximum number of threads per block")
    threads, blocks, cluster = (tuple(int(b) for b in bounds) + (0, 0))[:3]
    return maxreg, threads, blocks, cluster


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
    specialized = len(sigs) == 1 and not isinstance(func_or_sig, list)

    def wrap(func):
        k = CUDAKernel(func, device=device, signatures=sigs, **options)
        k._specialized = specialized and not device
        return k

    return wrap


def compile_ptx(pyfunc, sig, device=False, fastmath=False, cc=None, opt=True, lineinfo=False, debug=False):
    """PTX of ``pyfunc`` for signature ``sig`` (as numba.cuda.compile_ptx):
    returns ``(ptx, return_type)``. Kernels return void; ``device=True``
    compiles a device function. ``cc`` is a (major, minor) pair, default
    (9, 0)."""
    options = {}
    if isinstance(pyfunc, CUDAKernel):  # a @cuda.jit object: its function, and its launch annotations
        options = {o: v for o, v in pyfunc.targetoptions.items()
                   if o in ("launch_bounds", "max_registers") and v is not None}
        fastmath = fastmath or pyfunc.targetoptions.get("fastmath") or False
        pyfunc = pyfunc.py_func
    k = CUDAKernel(pyfunc, device=device, fastmath=fastmath, lineinfo=lineinfo, **options)
    _, _, ptx, resty, _ = k._dispatcher._compile_cuda(kt.signature_text(sig), device, _cc_number(cc))
    return ptx, _return_type(resty)


def compile_amdgcn(pyfunc, sig, device=False, fastmath=False, arch="gfx90a", output="asm", lineinfo=False):
    """AMDGCN code of ``pyfunc`` for signature ``sig`` and the AMD GPU
    processor ``arch`` (``"gfx90a"``, ``"gfx940"``, ``"gfx1030"`` ...), as
    compile_ptx for NVIDIA: returns ``(assembly, return_type)``, or with
    ``output="hsaco"`` ``(code_object_bytes, return_type)``: the ELF code
    object hipModuleLoadData takes. Needs no AMD GPU."""
    if output not in ("asm", "hsaco"):
        raise ValueError(f"compile_amdgcn(output=...) is 'asm' or 'hsaco', not {output!r}")
    if isinstance(pyfunc, CUDAKernel):
        pyfunc = pyfunc.py_func
    k = CUDAKernel(pyfunc, device=device, fastmath=fastmath, lineinfo=lineinfo)
    _, hsaco, assembly, resty = k._dispatcher._compile_amdgpu(kt.signature_text(sig), device, str(arch))
    return (assembly if output == "asm" else hsaco), _return_type(resty)


def compile_ptx_for_current_device(pyfunc, sig, device=False, fastmath=False, opt=True, lineinfo=False,
                                   debug=False):
    """compile_ptx for the current device's compute capability."""
    if not _kjit.cuda_available():
        raise CudaSupportError(f"compile_ptx_for_current_device needs a CUDA GPU ({_kjit.cuda_why()}); "
                               "use compile_ptx(..., cc=(major, minor))")
    cc = _kjit.cuda_device_info(_kjit.cuda_current())["compute_capability"]
    return compile_ptx(pyfunc, sig, device=device, fastmath=fastmath, cc=cc, opt=opt, lineinfo=lineinfo, debug=debug)
