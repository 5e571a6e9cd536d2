"""kjit.cuda.tile: block-level tile programs (docs/tensor-cores.md, "Tiles").

    import kjit.cuda.tile as T

    @T.jit(num_warps=4)
    def matmul(a, b, c):
        pm, pn = T.program_id(0), T.program_id(1)
        acc = T.zeros((64, 64), float32)
        for k in T.range(0, a.shape[1], 32):
            acc = T.dot(T.load(a, (pm * 64, k), (64, 32)), T.load(b, (k, pn * 64), (32, 64)), acc)
        T.store(c, (pm * 64, pn * 64), acc)

    matmul[grid_n, grid_m](a, b, c)

A tile kernel is a program for a whole block: its scalars are the same in
every thread, and its tiles (1-d or 2-d arrays of constant shape) belong to
the block. It is launched as `kernel[grid](args)`; the block's threads are
`num_warps * 32`, chosen by the kernel, not by the launch. Elements outside
an array read `padding` and are not written, so ragged edges need no code.

The functions below are compiled, not run: calling one outside a tile
kernel raises. Every device runs tile kernels (a GPU, the CPU device, the
simulator) with the same numbers: T.dot sums float32 products in ascending
k (translate.py says how).
"""
import functools
import linecache

from kjit import errors
from kjit.cuda.tile import translate as _translate
from kjit.cuda.tile.analysis import located as _located

__all__ = ["jit", "program_id", "num_programs", "load", "store", "zeros", "full", "arange", "dot", "trans",
           "sum", "max", "min", "maximum", "minimum", "where", "exp", "exp2", "log", "log2", "sqrt", "sin",
           "cos", "tanh", "floor", "ceil", "abs", "range", "persistent", "swizzle2d", "num_sms", "TileKernel"]


def _api(func):
    """A tile function: compiled in tile kernels, an error in Python."""
    @functools.wraps(func)
    def outside(*args, **kwargs):
        raise errors.KjitError(f"kjit.cuda.tile.{func.__name__} is part of tile kernels (@kjit.cuda.tile.jit) "
                               "and cannot be called from Python")
    outside.__kjit_tile_api__ = True
    return outside


@_api
def program_id(axis):
    """The block's index along `axis` (0, 1, 2) of the launch grid."""


@_api
def num_programs(axis):
    """The grid's extent along `axis`."""


@_api
def load(array, offsets, shape, padding=0, mask=None):
    """The tile array[offsets[0]:offsets[0] + shape[0], ...]: elements
    outside the array (or where the bool tile `mask` is False) read
    `padding`. A tile has the array's element type and as many dimensions."""


@_api
def store(array, offsets, value, mask=None):
    """Writes tile `value` at array[offsets...]: only its elements inside the
    array (and where `mask` is True); converted to the array's type."""


@_api
def zeros(shape, dtype=None):
    """A tile of zeros (float32 unless `dtype`)."""


@_api
def full(shape, value, dtype=None):
    """A tile of `value` (float32 unless `dtype`)."""


@_api
def arange(start, end=None):
    """The int32 tile start, start + 1, ..., end - 1 (0 ... start - 1 with one
    argument); constant bounds."""


@_api
def dot(a, b, acc=None):
    """acc + a @ b: a (M, K), b (K, N), acc (M, N). Floats (float16,
    bfloat16, float32, 8-bit floats) multiply with float32 accumulation,
    8-bit integers with int32; `a @ b` is dot with zeros."""


@_api
def trans(x):
    """The transposed 2-d tile (also x.T)."""


@_api
def sum(x, axis=None):
    """The sum along `axis` (a tile with that dimension gone), or of all
    elements (a scalar). 16-bit floats sum in float32."""


@_api
def max(x, axis=None):
    """The maximum along `axis`, or of all elements."""


@_api
def min(x, axis=None):
    """The minimum along `axis`, or of all elements."""


@_api
def maximum(a, b):
    """Element-wise maximum (tiles broadcast; a scalar takes the tile's type)."""


@_api
def minimum(a, b):
    """Element-wise minimum."""


@_api
def where(cond, a, b):
    """Element-wise a where cond, else b."""


def _math(name, doc):
    f = _api(lambda x: None)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    f.__kjit_tile_api__ = True
    return f


exp = _math("exp", "Element-wise e**x (float32 for 16-bit and integer tiles).")
exp2 = _math("exp2", "Element-wise 2**x.")
log = _math("log", "Element-wise natural logarithm.")
log2 = _math("log2", "Element-wise base-2 logarithm.")
sqrt = _math("sqrt", "Element-wise square root.")
sin = _math("sin", "Element-wise sine.")
cos = _math("cos", "Element-wise cosine.")
tanh = _math("tanh", "Element-wise hyperbolic tangent.")
floor = _math("floor", "Element-wise floor.")
ceil = _math("ceil", "Element-wise ceiling.")
abs = _math("abs", "Element-wise absolute value (the tile's type).")


@_api
def range(start, stop=None, step=1, stages=None):
    """A loop over start, start + step, ... (as range); `stages`: how many
    iterations' loads the compiler may keep in flight (a hint)."""


@_api
def persistent(n):
    """A loop over tiles 0 ... n - 1 shared by the grid's blocks (block b
    takes b, b + grid, ...): launch one block per multiprocessor
    (`kernel[T.num_sms()]`)."""


@_api
def swizzle2d(tile, grid_m, grid_n, group=8):
    """(row, column) of tile number `tile` of a grid_m x grid_n grid, taken
    in groups of `group` rows: consecutive tiles share the columns they
    read (cache hits)."""


@functools.lru_cache(maxsize=None)
def _swizzle2d_device():
    """The device function T.swizzle2d becomes (made once, at first use)."""
    from kjit import cuda

    @cuda.jit(device=True)
    def swizzle2d_device(tile, grid_m, grid_n, group):
        width = group * grid_n
        first = tile // width * group
        size = grid_m - first
        if size > group:
            size = group
        return first + tile % width % size, tile % width // size

    return swizzle2d_device


def num_sms():
    """The current device's multiprocessors (the CPU device: its threads; the
    simulator: 1): the grid of a persistent tile kernel."""
    from kjit import cuda
    try:
        return int(cuda.get_current_device().MULTIPROCESSOR_COUNT)
    except Exception:  # noqa: BLE001 (the simulator's device has no count)
        return 1


class TileKernel:
    """A tile kernel: `kernel[grid](args)` launches it; `kernel.source(*args)`
    is the kernel-language text it becomes for those arguments."""

    def __init__(self, func, num_warps, num_stages, path=None):
        if not isinstance(num_warps, int) or not 1 <= num_warps <= 32:
            raise ValueError(f"num_warps = {num_warps!r}: 1 to 32 warps")
        if path not in (None, "generic", "sm80", "sm90"):
            raise ValueError(f"path = {path!r}: None (the fastest for the device), 'generic', 'sm80' or 'sm90'")
        self.func, self.num_warps, self.num_stages, self.path = func, num_warps, num_stages, path
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__
        self._kernels = {}
        self._by_fingerprint = {}

    def _compiled(self, args):
        """The translations for these arguments' types, found by each
        argument's cheap fingerprint: a launch must not pay typeof per
        argument (PyTorch's __cuda_array_interface__ alone costs
        microseconds a tensor)."""
        key = tuple(_fingerprint(a) for a in args)
        entry = self._by_fingerprint.get(key)
        if entry is None:
            from kjit.typeof import typeof
            types = tuple(typeof(a) for a in args)  # (kjit's types are hashable: the key itself)
            entry = self._kernels.get(types)
            if entry is None:
                entry = self._kernels[types] = self._translate(types)
            if None not in key:
                if len(self._by_fingerprint) >= 256:
                    self._by_fingerprint.clear()
                self._by_fingerprint[key] = entry
        return entry

    def _translate(self, types):
        from kjit.sourcetext import read_source
        source = read_source(self.func)
        if source is None:
            raise errors.CompileError(f"the source of tile kernel {self.__name__} cannot be read (tile kernels "
                                      "are translated from their text)")
        entry = _Entry(self, types, source)
        if self.path == "sm90" or (self.path is None and _on_hopper()):
            from kjit.cuda.tile import hopper
            tr = _translate.Translator(self.func, _module(), types, self.num_warps, source)
            m = hopper.match(tr)
            try:
                if isinstance(m, str):
                    raise hopper._NotPattern(m)
                text, glb, smem, linemap, maps = hopper.generate(tr, m)
            except hopper._NotPattern as e:
                if self.path == "sm90":
                    raise errors.UnsupportedError(f"tile kernel {self.__name__} is not the sm_90 GEMM pattern "
                                                  f"(kjit/cuda/tile/hopper.py): {e}") from None
            else:
                entry.sm90 = self._make(tr, text, glb, linemap, source, "sm90",
                                        launch_bounds=(hopper.THREADS, 1))  # setmaxnreg needs the count
                entry.sm90_smem, entry.sm90_match = smem, m
                entry.sm90_maps = tuple(entry.params.index(name) for name in maps)  # a's and b's positions
                if hopper.tma_store_fits(tr, m):  # and a kernel that stores c through TMA, where c's rows fit
                    tr = _translate.Translator(self.func, _module(), types, self.num_warps, source)
                    text, glb, smem, linemap, maps = hopper.generate(tr, hopper.match(tr), tma_store=True)
                    entry.sm90_tma = (self._make(tr, text, glb, linemap, source, "sm90",
                                                 launch_bounds=(hopper.THREADS, 1)),
                                      smem, entry.params.index(maps[2]))
        return entry

    def _make(self, tr, text, glb, linemap, source, path, **options):
        from kjit import cuda
        filename = f"<kjit tile kernel {self.__name__} ({path}; {source[0]}:{source[2]})>"
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
        env = dict(tr.env)
        env.update(glb)
        exec(compile(text, filename, "exec"), env)  # the kernel's definition: the text the translator wrote
        pyfunc = env[self.func.__name__]
        pyfunc.__kjit_source__ = (filename, text, 1)
        return _Compiled(cuda.jit(**options)(pyfunc), text, filename, linemap, source)

    def _generic(self, entry, mma=None, amd_arch=None):
        """The block-wide translation (every device); its T.dots by matrix
        instructions where they fit when `mma` (default: path "sm80", a
        CUDA GPU of compute capability 8.0 or more, an AMD CDNA GPU): MFMA
        when `amd_arch` is a CDNA processor, else mma.sync."""
        if mma is None:  # (asked at the first launch: the device's)
            if entry.auto is None:
                arch = _amd_arch()
                if self.path == "sm80":
                    entry.auto = self._generic(entry, "required", arch)
                elif self.path is None and (_cuda_cc() >= (8, 0) or arch in _CDNA):
                    # the matrix instructions keep accumulators in shared
                    # memory: where they do not fit the GPU's block, or no
                    # T.dot took them, the fma translation
                    entry.auto = self._generic(entry, True, arch)
                    if entry.auto[1] > _shared_limit() or entry.auto[2] == "generic":
                        entry.auto = self._generic(entry, False)
                else:
                    entry.auto = self._generic(entry, False)
            return entry.auto
        kind = "mfma" if mma and amd_arch in _CDNA else "mma_sync"
        key = (mma, kind, amd_arch if kind == "mfma" else None)
        if key not in entry.generic:
            tr = _translate.Translator(self.func, _module(), entry.types, self.num_warps, entry.source)
            tr.mma, tr.mma_kind, tr.amd_arch = mma, kind, amd_arch
            text, glb, smem, linemap = tr.run()
            path = ("mfma" if kind == "mfma" else "sm80") if tr.used_mma else "generic"
            entry.generic[key] = (self._make(tr, text, glb, linemap, entry.source, path, launch_bounds=(tr.nt,)),
                                  smem, path)
            entry.nt = tr.nt
        return entry.generic[key]

    def path_for(self, *args):
        """Which translation runs for these arguments: "sm90" (the Hopper
        GEMM: TMA, mbarriers, wgmma), "sm80" (the block-wide translation
        with its T.dots by mma.sync), "mfma" (the same by AMD's MFMA) or
        "generic"."""
        entry = self._compiled(args)
        return "sm90" if entry.sm90_kernel(args) else self._generic(entry)[2]

    def source(self, *args):
        """The kernel-language text this tile kernel is for these arguments."""
        entry = self._compiled(args)
        sm90 = entry.sm90_kernel(args)
        return sm90[0].text if sm90 else self._generic(entry)[0].text

    def inspect_ptx(self, *args, cc=(9, 0)):
        """The PTX of the translation these arguments take on a GPU of
        compute capability `cc`: the sm_90 GEMM on (9, 0) where the program
        is that pattern, else the block-wide one (T.dot by mma.sync from
        (8, 0) on)."""
        from kjit import cuda
        from kjit.typeof import typeof
        entry = self._compiled(args)
        types = list(entry.types)
        sm90 = entry.sm90_kernel(args) if tuple(cc) == (9, 0) else None
        if sm90:
            import numpy as np
            compiled, _, maps = sm90
            types += [typeof(np.zeros(16, np.uint64))] * len(maps)  # the tensor maps
        else:
            mma = "required" if self.path == "sm80" else self.path != "generic" and tuple(cc) >= (8, 0)
            compiled = self._generic(entry, mma)[0]
        return cuda.compile_ptx(compiled.kernel, tuple(types), cc=cc)[0]

    def inspect_amdgcn(self, *args, arch="gfx90a"):
        """The AMDGCN assembly of the block-wide translation for the AMD
        GPU processor `arch`: its T.dots by MFMA (v_mfma_f32_16x16x16) on
        CDNA (gfx908, gfx90a, gfx940-942), by fma elsewhere."""
        from kjit import cuda
        entry = self._compiled(args)
        mma = self.path != "generic" and arch.split(":")[0] in _CDNA
        compiled = self._generic(entry, mma, arch.split(":")[0])[0]
        return cuda.compile_amdgcn(compiled.kernel, tuple(entry.types), arch=arch)[0]

    def __getitem__(self, grid):
        return _Launch(self, grid)

    def __call__(self, *args):
        raise TypeError(f"tile kernel {self.__name__} is launched with a grid: {self.__name__}[grid](...)")


class _Launch:
    def __init__(self, kernel, grid):
        if isinstance(grid, tuple) and len(grid) == 2 and not isinstance(grid[1], int) and grid[1] is not None:
            grid, self.stream = grid
        else:
            self.stream = 0
        self.kernel, self.grid = kernel, grid

    def __call__(self, *args):
        tk = self.kernel
        entry = tk._compiled(args)
        compiled = None
        try:
            sm90 = entry.sm90_kernel(args)
            if sm90:
                from kjit.cuda.tile import hopper
                compiled, smem, maps = sm90
                return compiled.launch((self.grid, hopper.THREADS, self.stream, smem), args + maps)
            compiled, smem, _ = tk._generic(entry)
            return compiled.launch((self.grid, entry.nt, self.stream, smem), args)
        except errors.CompileError as e:
            if compiled is None:  # the translator's own error: at the user's line already
                raise
            raise _remap(e, compiled.filename, compiled.linemap, compiled.source) from None


class _Compiled:
    def __init__(self, kernel, text, filename, linemap, source):
        self.kernel, self.text, self.filename, self.linemap, self.source = kernel, text, filename, linemap, source
        self.launched = False

    def launch(self, config, args):
        if self.launched:
            return self.kernel[config](*args)
        # the first launch compiles: its warnings are about the translated
        # text; say them at the user's lines
        import re
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = self.kernel[config](*args)
        self.launched = True
        for w in caught:
            text = str(w.message)
            m = re.match(re.escape(self.filename) + r":(\d+):(\d+): warning: (.*?)(\n|$)", text)
            if m and 0 < int(m.group(1)) <= len(self.linemap):
                line, col = self.linemap[int(m.group(1)) - 1]
                warnings.warn_explicit(f"{self.source[0]}:{line}:{col}: warning: {m.group(3)} (in the tile "
                                       "kernel's translation: kernel.source(*args) shows it)", w.category,
                                       self.source[0], line)
            else:  # about the launch (the grid's occupancy ...): at the user's launch
                warnings.warn(w.message, w.category, stacklevel=3)
        return result


class _Entry:
    """A tile kernel's translations for one set of argument types."""

    def __init__(self, tk, types, source):
        import inspect
        self.types, self.source = types, source
        self.params = list(inspect.signature(tk.func).parameters)
        self.generic = {}  # by whether T.dot takes mma.sync: (compiled, shared bytes, path)
        self.auto = None  # the one for this device
        self.sm90 = self.sm90_tma = None  # (the latter: (compiled, shared bytes, c's position))
        self.sm90_smem = 0
        self.nt = tk.num_warps * 32
        self.maps = {}

    def tensor_map(self, ary, box, required=True):
        """The tensor map of `ary` for copies of `box` (128-byte swizzle),
        kept by address, shape, strides and type: making one allocates and
        copies, which would serialise back-to-back launches. Not
        `required`: None where TMA cannot take the array (its rows ...)."""
        from kjit import cuda
        key = (_address(ary), box)
        tmap = self.maps.get(key, False)
        if tmap is False:
            if len(self.maps) >= 64:
                self.maps.clear()
            try:
                tmap = cuda.make_tensor_map(ary, box, swizzle=128)
            except (ValueError, RuntimeError):
                if required:
                    raise
                tmap = None
            self.maps[key] = tmap
        return tmap

    def sm90_kernel(self, args):
        """(compiled, shared bytes, tensor maps) of the sm_90 kernel for
        these arguments: the one that stores through TMA where c's rows
        allow a tensor map, else the one that stores from registers; None
        where it cannot take them (a's or b's rows or addresses are not
        TMA's)."""
        if self.sm90 is None:
            return None
        item = self.sm90_match.dtype.bitwidth // 8
        for n in self.sm90_maps:  # rows of a and b a multiple of 16 bytes (TMA's rule)
            shape = getattr(args[n], "shape", ())
            if len(shape) != 2 or shape[1] * item % 16:
                return None
        from kjit.cuda.tile import hopper
        m = self.sm90_match
        a, b = (args[n] for n in self.sm90_maps)
        maps = (self.tensor_map(a, (hopper.BM, m.bk), required=False),
                self.tensor_map(b, (m.bk, 64) if m.b_kn else (m.bn, m.bk), required=False))  # (K, N): 64 columns
        if None in maps:  # (an address TMA cannot take: the block-wide translation)
            return None
        if self.sm90_tma is not None:
            tc = self.tensor_map(args[self.sm90_tma[2]], (64, 64), required=False)
            if tc is not None:
                return self.sm90_tma[0], self.sm90_tma[1], maps + (tc,)
        return self.sm90, self.sm90_smem, maps


def _fingerprint(a):
    """What typeof(a) depends on, cheaply read, for a scalar, a kjit device
    array or a PyTorch tensor; None for anything else (typed each launch)."""
    t = type(a)
    kind = _KINDS.get(t) or _kind(t)
    if kind == "array":
        return t, a.dtype, a.shape, a.strides, getattr(a, "_readonly", False)
    if kind == "torch":
        return t, a.dtype, a.shape, a.stride(), a.is_cuda
    if kind == "scalar":
        if t is not int:
            return t
        # int64, uint64, or out of range (typed, and refused, at each launch)
        return (t, 0) if -2**63 <= a < 2**63 else (t, 1) if 0 <= a < 2**64 else None
    return None


def _address(a):
    """(address, shape, strides, dtype) of a device array: a tensor map's key."""
    kind = _KINDS.get(type(a)) or _kind(type(a))
    if kind == "array":
        return a._ptr, a.shape, a.strides, a.dtype
    if kind == "torch":
        return a.data_ptr(), a.shape, a.stride(), a.dtype
    desc = a.__cuda_array_interface__
    return desc["data"][0], tuple(desc["shape"]), desc.get("strides"), desc["typestr"]


_KINDS = {float: "scalar", bool: "scalar", complex: "scalar", int: "scalar"}


def _kind(t):
    """"array" (a kjit device array), "torch" (a PyTorch tensor) or "other"."""
    from kjit import _kjit
    if issubclass(t, _kjit.DeviceArrayBase):
        kind = "array"
    elif t.__module__.startswith("torch") and hasattr(t, "data_ptr") and hasattr(t, "stride"):
        kind = "torch"
    else:
        kind = "other"
    _KINDS[t] = kind
    return kind


def _cuda_cc():
    """The current CUDA GPU's compute capability; (0, 0) on other devices."""
    from kjit import cuda
    try:
        if cuda.device_kind() == "cuda":
            return tuple(cuda.get_current_device().compute_capability)
    except Exception:  # noqa: BLE001 (no device)
        pass
    return (0, 0)


_CDNA = ("gfx908", "gfx90a", "gfx940", "gfx941", "gfx942")  # AMD processors with MFMA


def _amd_arch():
    """The current AMD GPU's processor ("gfx90a"); None on other devices."""
    from kjit import cuda
    try:
        if cuda.device_kind() == "hip":
            return str(getattr(cuda.get_current_device(), "processor", "")).split(":")[0]
    except Exception:  # noqa: BLE001 (no device)
        pass
    return None


def _shared_limit():
    """The most dynamic shared memory a block of the current GPU can take."""
    from kjit import cuda
    if cuda.device_kind() == "hip":
        return 65536  # LDS a workgroup, CDNA
    return getattr(cuda.get_current_device(), "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN", 49152)


def _on_hopper():
    from kjit import cuda
    try:
        return cuda.device_kind() == "cuda" and tuple(cuda.get_current_device().compute_capability) == (9, 0)
    except Exception:  # noqa: BLE001 (no device)
        return False


def _remap(e, filename, linemap, source):
    """A compile error in the translated kernel, at the user's line."""
    if e.filename != filename or not e.lineno or e.lineno > len(linemap):
        return e
    line, col = linemap[e.lineno - 1]
    lines = source[1].splitlines()
    return _located(type(e), source[0], line, col, e.msg, lines, line - source[2])


def jit(func=None, *, num_warps=4, num_stages=3, path=None):
    """Makes a tile kernel of `func` (a decorator, with or without
    arguments): `num_warps` warps of 32 threads run each block of the
    block-wide translation. `path`: None picks the fastest translation for
    the device: the sm_90 GEMM on an H100/H200 where the program is that
    pattern, else the block-wide translation, its T.dots by mma.sync on a
    GPU of compute capability 8.0 or more ("sm80") and by float32 fma
    elsewhere ("generic"). "generic", "sm80" or "sm90" ask for one: sm80
    and sm90 also run on the CPU device and in the simulator (emulated,
    slowly), and are an error for a T.dot (sm80) or a program (sm90) they
    cannot take."""
    if func is None:
        return lambda f: TileKernel(f, num_warps, num_stages, path)
    return TileKernel(func, num_warps, num_stages, path)


jit.__kjit_tile_api__ = True


def _module():
    import sys
    return sys.modules[__name__]

