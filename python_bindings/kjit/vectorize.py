"""``@vectorize(target='cuda')``: an element-wise function made into a
function over arrays, run as a kernel (Numba's CUDA ufuncs).

    @vectorize(["float32(float32, float32)", "float64(float64, float64)"], target="cuda")
    def add(a, b):
        return a + b

    d_out = add(d_a, d_b)             # device arrays in: a device array out
    add(d_a, d_b, out=d_out)          # into an existing array
    out = add(a, b)                   # NumPy arrays in: copied, a NumPy array out
    add(d_a, 1.5)                     # scalars are broadcast; so are shapes (NumPy's rules)
    total = add.reduce(d_a)           # a binary function as a reduction (cuda.reduce)

The scalar function compiles as a device function; each call shape (which
inputs are scalars, which axes broadcast) gets a kernel of its own, made
from generated source and compiled once. The signature used is the first
whose argument types every input converts to safely (Python numbers convert
to any type of their kind, as NumPy 2 does); without signatures, the
input's own types. Inputs are converted in the kernel, so device arrays of
another dtype are not copied. It runs wherever kjit.cuda kernels run: the
GPU, the CPU device, the simulator.

With ``target='cpu'`` (the default) or ``'parallel'``, ``@vectorize`` makes
a ``DUFunc`` around a NumPy ufunc whose loops are compiled (``_CPULoops``):
the signatures' loops, or without signatures a loop per new input types,
as Numba's do. ``@guvectorize`` makes a ``GUFunc`` over a NumPy
generalized ufunc, for the CPU (docs/vectorize.md).
"""
import linecache
import math
import re
import threading

import numpy as np

from kjit import types as kt
from kjit.errors import UnsupportedError

_TPB = 256
_serial = 0
_serial_lock = threading.Lock()


def _scalar_type(name_or_type):
    if isinstance(name_or_type, kt.Type):
        return name_or_type
    name = name_or_type.strip()
    t = getattr(kt, "boolean" if name == "bool" else name, None)  # "bool": how signatures print it
    if not isinstance(t, kt.Type) or isinstance(t, kt.Array) or t.name in ("void", "none"):
        raise TypeError(f"@vectorize: {name_or_type.strip()!r} is not a scalar type (float32, int64, ...)")
    return t


def _parse_signature(sig):
    """(return type, argument types) of "float32(float32, int32)" or float32(float32, int32)."""
    if isinstance(sig, kt.Signature):
        return _scalar_type(sig.return_type), tuple(_scalar_type(a) for a in sig.args)
    if not isinstance(sig, str) or "(" not in sig or not sig.rstrip().endswith(")"):
        raise TypeError(f"@vectorize: a signature is written 'float32(float32, float32)', not {sig!r}")
    ret, args = sig.split("(", 1)
    args = args.rstrip()[:-1]
    if not ret.strip():
        raise TypeError(f"@vectorize: the signature {sig!r} needs a return type")
    return _scalar_type(ret), tuple(_scalar_type(a) for a in args.split(",") if a.strip())


def _dtype(t):
    return np.dtype("bool" if t.name == "bool" else t.name)


def _kind_of_python_number(x):
    if isinstance(x, bool):
        return "b"
    if isinstance(x, int):
        return "i"
    if isinstance(x, float):
        return "f"
    if isinstance(x, complex):
        return "c"
    return None


def _converts(value_or_dtype, to):
    """Whether an input converts safely to dtype `to` (Python numbers are
    weak: they convert to any type of their kind or a wider kind)."""
    if isinstance(value_or_dtype, np.dtype):
        return np.can_cast(value_or_dtype, to, "safe")
    kind = _kind_of_python_number(value_or_dtype)
    order = "bifc"
    return to.kind == "u" and kind in "bi" or to.kind in order and order.index(to.kind) >= order.index(kind)


_devclass = False  # kjit.cuda's device array class, looked up at the first call


def _fast_key(a, devclass):
    """What a call's plan depends on in argument `a`, or None (no plan)."""
    t = type(a)
    if t is devclass:
        return (a.dtype, a.shape, a.strides)
    if t is float or t is int or t is bool or t is complex:
        return t
    if isinstance(a, np.generic):
        return a.dtype
    return None


def _plan_key(args, out, stream):
    """The key of a call's plan, or None when its arguments admit none (host
    arrays, sequences, other libraries' arrays)."""
    global _devclass
    if _devclass is False:
        from kjit import cuda
        _devclass = getattr(cuda, "DeviceNDArray", None)
    if _devclass is None:
        return None
    key = [stream, None if out is None else _fast_key(out, _devclass)]
    key += [_fast_key(a, _devclass) for a in args]
    if None in key[2:] or (out is not None and key[1] is None):
        return None
    return tuple(key)


def vectorize(ftylist_or_function=(), **kws):
    """``@vectorize``, ``@vectorize([signatures], target='cuda')``."""
    if callable(ftylist_or_function) and not isinstance(ftylist_or_function, (str, kt.Type, kt.Signature)):
        return _make(ftylist_or_function, (), kws)
    sigs = ftylist_or_function
    if isinstance(sigs, (str, kt.Signature)):
        sigs = [sigs]

    def wrap(func):
        return _make(func, tuple(sigs), kws)

    return wrap


def guvectorize(*args, **kws):
    """``@guvectorize([signatures], layout)``, ``@guvectorize(layout)``
    (dynamic: compiled per argument types, outputs given at the call)."""
    if len(args) == 1:
        sigs, layout = (), args[0]
    elif len(args) == 2:
        sigs, layout = args
    else:
        raise TypeError("guvectorize() takes one or two positional arguments: [signatures,] layout")
    if isinstance(sigs, (str, kt.Signature)):
        sigs = [sigs]
    unknown = set(kws) - _OPTIONS
    if unknown:
        raise TypeError(f"unknown @guvectorize option(s): {', '.join(sorted(unknown))}")
    target = kws.get("target", "cpu")
    if target == "cuda":
        raise UnsupportedError("@guvectorize(target='cuda') is not in kjit yet (docs/supported.md); write a "
                               "@cuda.jit kernel, or use target='cpu' or 'parallel'")
    if target not in ("cpu", "parallel"):
        raise ValueError(f"@guvectorize: unknown target {target!r} (kjit has 'cpu' and 'parallel')")
    if kws.get("nopython") is False:
        raise TypeError("nopython=False is not supported: kjit compiles in nopython mode only")

    def wrap(func):
        g = GUFunc(func, layout, target == "parallel", kws, dynamic=not sigs)
        for sig in sigs:
            g.add(sig)
        return g

    return wrap


_OPTIONS = {"target", "identity", "cache", "nopython", "fastmath", "boundscheck"}


def _make(func, sigs, kws):
    unknown = set(kws) - _OPTIONS
    if unknown:
        raise TypeError(f"unknown @vectorize option(s): {', '.join(sorted(unknown))}")
    target = kws.get("target", "cpu")
    if target not in ("cpu", "parallel", "cuda"):
        raise ValueError(f"@vectorize: unknown target {target!r} (kjit has 'cpu', 'parallel' and 'cuda')")
    if kws.get("nopython") is False:
        raise TypeError("nopython=False is not supported: kjit compiles in nopython mode only")
    signatures = [_parse_signature(s) for s in sigs]
    if target != "cuda":
        loops = _CPULoops(func, target == "parallel", kws)
        for ret, args in signatures:
            loops.add(ret, args)
        # With signatures, as Numba's: no more loops are compiled, and
        # NumPy's rules pick among these.
        return DUFunc(loops, frozen=bool(signatures))
    return CUDAUFunc(func, signatures, bool(kws.get("fastmath")), kws.get("identity"))


# ---- target 'cpu' and 'parallel': NumPy ufuncs --------------------------------------

# The ufuncs @vectorize made, by id: (ufunc, its scalar @njit function), so
# that a @jit function calling one on scalars calls the scalar function
# (dispatcher.py, classify). Kept for the life of the process, as their
# loops are.
_SCALAR_FUNCTIONS = {}


def scalar_function_of(v):
    """The scalar @njit function behind a ufunc or DUFunc @vectorize made
    for the CPU, else None."""
    if isinstance(v, DUFunc):
        return v._loops.scalar
    entry = _SCALAR_FUNCTIONS.get(id(v))
    return entry[1] if entry is not None and entry[0] is v else None


# NumPy's limit on a ufunc's operands (NPY_MAXARGS), inputs and outputs.
_MAX_OPERANDS = 32 if int(np.__version__.split(".")[0]) < 2 else 64

# NumPy's identity codes (PyUFunc_Zero, _One, _None, _ReorderableNone).
_IDENTITY = {0: 0, 1: 1, None: -1, "reorderable": -2}


class _CPULoops:
    """The compiled loops of a ufunc for the CPU: the scalar function as a
    @njit function with NumPy's error model (x / 0 is inf, x // 0 is 0, as
    in NumPy and Numba's ufuncs), and for each signature a compiled loop
    over 1-D strided arrays that calls it (inlined):

        def loop(a0, a1, out):
            for i in range(out.shape[0]):
                out[i] = f(a0[i], a1[i])

    NumPy calls that loop with its own pointers and steps (C++:
    `make_ufunc`), so broadcasting, casting, `out=`, `where=`, `reduce` and
    the rest are NumPy's own."""

    def __init__(self, func, parallel, kws):
        from kjit.dispatcher import njit
        from inspect import signature
        func = getattr(func, "py_func", func)  # a @jit function: its Python function, as Numba does
        self.func = func
        self.parallel = parallel
        identity = kws.get("identity")
        if identity not in _IDENTITY:
            raise ValueError(f"@vectorize: identity is 0, 1, None or 'reorderable', not {identity!r}")
        self.identity = _IDENTITY[identity]
        params = signature(func).parameters.values()
        if any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) or p.default is not p.empty
               for p in params):
            raise TypeError(f"@vectorize: {func.__name__}() must take plain positional arguments")
        self.nin = len(params)
        if not 1 <= self.nin <= _MAX_OPERANDS - 1:
            raise TypeError(f"@vectorize: {func.__name__}() takes {self.nin} arguments; a ufunc here takes 1 to "
                            f"{_MAX_OPERANDS - 1}")
        options = {k: kws[k] for k in ("fastmath", "boundscheck", "cache") if k in kws}
        self.cache = bool(kws.get("cache"))
        self.scalar = njit(error_model="numpy", **options)(func)
        self.loops = []  # (return type, argument types, type numbers, entry address, loop dispatcher)
        self._ufunc = None
        self.lock = threading.RLock()  # a DUFunc may be called from several threads

    def find(self, args):
        for loop in self.loops:
            if loop[1] == args:
                return loop
        return None

    def add(self, ret, args):
        """Compiles the loop of signature ret(args) (ret None: the function's
        own return type for those arguments)."""
        with self.lock:
            return self._add(ret, args)

    def _add(self, ret, args):
        if len(args) != self.nin:
            raise TypeError(f"@vectorize: signatures take {len(args)} arguments, the function {self.nin}")
        if ret is None:
            self.scalar.compile("(" + ", ".join(str(a) for a in args) + ")")
            ret = self._return_type(args)
        known = self.find(args)
        if known is not None and known[0] == ret:
            return known
        loop = self._compile_loop(ret, args)
        self.loops.append(loop)
        self._ufunc = None
        return loop

    def _return_type(self, args):
        want = "(" + ", ".join(str(a) for a in args) + ") -> "
        for s in self.scalar.signatures:
            if s.startswith(want):
                return _scalar_type(s[len(want):])
        raise TypeError(f"@vectorize: {self.func.__name__}{want[:-4]} returns no scalar")

    def _compile_loop(self, ret, args):
        names = [f"a{i}" for i in range(len(args))]
        # Contiguous operands get a loop of their own: there the strides are
        # known constants, and LLVM vectorises what it can.
        body = f"out[i] = _fn({', '.join(f'{a}[i]' for a in names)})"
        contiguous = " and ".join(f"{a}.strides[0] == {_dtype(t).itemsize}"
                                  for a, t in zip(names + ["out"], args + (ret,)))
        src = (f"def _ufunc_loop({', '.join(names)}, out):\n"
               f"    if {contiguous}:\n"
               f"        for i in range(out.shape[0]):\n"
               f"            {body}\n"
               f"    else:\n"
               f"        for i in range(out.shape[0]):\n"
               f"            {body}\n")
        sig = "void(" + ", ".join(f"{t}[:]" for t in args + (ret,)) + ")"
        loop, address = _compile_loop(src, "_ufunc_loop", self.scalar, self.func, sig, sig, self.cache)
        codes = bytes(_dtype(t).num for t in args + (ret,))
        return (ret, tuple(args), codes, address, loop)

    def ufunc(self):
        with self.lock:
            return self._build()

    def _build(self):
        if self._ufunc is None:
            from kjit import _kjit
            self._ufunc = _kjit.make_ufunc(self.func.__name__, self.func.__doc__ or "", self.nin, 1,
                                           self.identity, [(l[2], l[3]) for l in self.loops], self.parallel,
                                           (self.scalar, [l[4] for l in self.loops]), "",
                                           [[] for _ in range(self.nin + 1)])
            _SCALAR_FUNCTIONS[id(self._ufunc)] = (self._ufunc, self.scalar)
        return self._ufunc


def _named_after(obj, func):
    """A ufunc object takes its function's name, docstring and __wrapped__."""
    obj.__name__ = func.__name__
    obj.__qualname__ = getattr(func, "__qualname__", func.__name__)
    obj.__doc__ = func.__doc__
    obj.__wrapped__ = func


def _num_dtype(num):
    """The dtype of NumPy type number `num`."""
    for t in np.sctypeDict.values():
        if np.dtype(t).num == num:
            return np.dtype(t)
    raise ValueError(f"no dtype has number {num}")


def _compile_loop(src, name, fn, func, what, sig, cache):
    """Compiles the generated loop `name` defined by `src`, which calls `fn`
    (the @njit function made from the user's `func`), for `sig`; returns
    (its dispatcher, its entry's address). The source is registered in
    linecache (kjit reads it from there): with cache=True under a name from
    the user's file and `what` (the disk cache goes next to that file and is
    the same in every process), else under a serial number."""
    from kjit.dispatcher import njit
    global _serial
    if cache:
        import inspect
        try:
            base = inspect.getsourcefile(func) or "<unknown>"
        except TypeError:
            base = "<unknown>"
        filename = f"{base}::kjit loop of {getattr(func, '__qualname__', func.__name__)} for {what}"
    else:
        with _serial_lock:
            _serial += 1
            filename = f"<kjit loop {_serial} of {func.__name__}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    scope = {"_fn": fn, "__name__": "kjit.vectorize"}
    exec(compile(src, filename, "exec"), scope)
    loop = njit(cache=cache)(scope[name])
    return loop, loop._entry_address(sig)


def _input_type(a):
    """The kjit type a ufunc input compiles for (as Numba types it)."""
    if isinstance(a, np.ndarray) or isinstance(a, np.generic):
        dt = a.dtype
    elif isinstance(a, bool):
        dt = np.dtype(np.bool_)
    elif isinstance(a, int):
        dt = np.dtype(np.int64)
    elif isinstance(a, float):
        dt = np.dtype(np.float64)
    elif isinstance(a, complex):
        dt = np.dtype(np.complex128)
    else:
        dt = np.asarray(a).dtype
    t = getattr(kt, "boolean" if dt.kind == "b" else dt.name, None)
    if not isinstance(t, kt.Type) or dt.kind not in "biufc":
        raise TypeError(f"@vectorize: inputs of dtype {dt} are not supported (numbers and booleans are)")
    return t


class DUFunc:
    """What ``@vectorize`` makes for target 'cpu' or 'parallel' (Numba's
    DUFunc): it calls a NumPy ufunc (``.ufunc``) whose loops are compiled.
    Without signatures it compiles a loop for each new combination of input
    types it is called with; with signatures (``frozen``) it has those loops
    only, and NumPy's rules pick among them."""

    def __init__(self, loops, frozen=False):
        self._loops = loops
        self._frozen = frozen
        _named_after(self, loops.func)
        self.nin = loops.nin
        self.nout = 1
        self.nargs = loops.nin + 1

    def _loop_for(self, types):
        """The ufunc, and the loop (its type numbers) compiled for `types`."""
        with self._loops.lock:
            loop = self._loops.find(types) or self._loops.add(None, types)
            return self._loops.ufunc(), loop

    def _ufunc_for(self, types):
        return self._loop_for(types)[0]

    @property
    def ufunc(self):
        """The NumPy ufunc of the loops compiled so far (None before the first)."""
        return self._loops.ufunc() if self._loops.loops else None

    @property
    def types(self):
        u = self.ufunc
        return u.types if u is not None else []

    @property
    def ntypes(self):
        return len(self.types)

    @property
    def identity(self):
        u = self.ufunc
        return u.identity if u is not None else {0: 0, 1: 1, -2: None}.get(self._loops.identity)

    def add(self, sig):
        """Compiles the loop of a signature ("float64(float64, float64)")."""
        ret, args = _parse_signature(sig)
        self._loops.add(ret, args)

    def __call__(self, *args, **kws):
        if self._frozen:
            return self._loops.ufunc()(*args, **kws)
        if len(args) < self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} inputs, {len(args)} given")
        ufunc, loop = self._loop_for(tuple(_input_type(a) for a in args[:self.nin]))
        if "signature" not in kws and "dtype" not in kws:
            # The loop compiled for these inputs, not another one NumPy's
            # rules would also take (the first the inputs cast to).
            kws["signature"] = tuple(_num_dtype(c) for c in loop[2])
        return ufunc(*args, **kws)

    def _binary(self, method, array, args, kws):
        if self._frozen:
            return getattr(self._loops.ufunc(), method)(array, *args, **kws)
        if self.nin != 2:
            raise ValueError(f"{method} only supported for binary functions")
        t = _input_type(np.asarray(array) if kws.get("dtype") is None else np.empty(0, kws["dtype"]))
        ufunc, loop = self._loop_for((t, t))
        r = loop[0]
        if r != t and kws.get("dtype") is None:
            # A reduction runs the loop on its own results: it needs r(r, r),
            # with r the function's result for (t, t), and dtype r.
            ufunc, loop = self._loop_for((r, r))
            if loop[0] != r:
                raise TypeError(f"{self.__name__}.{method}: the function's result type changes as it reduces "
                                f"({t} -> {r} -> {loop[0]})")
            kws["dtype"] = _dtype(r)
        return getattr(ufunc, method)(array, *args, **kws)

    def reduce(self, array, *args, **kws):
        return self._binary("reduce", array, args, kws)

    def accumulate(self, array, *args, **kws):
        return self._binary("accumulate", array, args, kws)

    def reduceat(self, array, *args, **kws):
        return self._binary("reduceat", array, args, kws)

    def outer(self, a, b, **kws):
        if self._frozen:
            return self._loops.ufunc().outer(a, b, **kws)
        if self.nin != 2:
            raise ValueError("outer product only supported for binary functions")
        return self._ufunc_for((_input_type(a), _input_type(b))).outer(a, b, **kws)

    def at(self, a, indices, *b):
        if self._frozen:
            return self._loops.ufunc().at(a, indices, *b)
        types = (_input_type(a),) + tuple(_input_type(x) for x in b)
        return self._ufunc_for(types).at(a, indices, *b)

    def __getattr__(self, name):
        # The rest of a ufunc's attributes (signature, ...), once it exists.
        if name.startswith("_") or not self._loops.loops:
            raise AttributeError(f"'DUFunc' object has no attribute {name!r}")
        return getattr(self._loops.ufunc(), name)

    def __repr__(self):
        return f"<kjit DUFunc '{self.__name__}'>"


class CUDAUFunc:
    """What ``@vectorize(target='cuda')`` makes (Numba's CUDAUFuncDispatcher)."""

    def __init__(self, func, signatures, fastmath=False, identity=None):
        from kjit import cuda
        self.py_func = func
        self.__name__ = func.__name__
        self.__qualname__ = getattr(func, "__qualname__", func.__name__)
        self.__doc__ = func.__doc__
        self.identity = identity
        self._fastmath = fastmath
        self._device = cuda.jit(device=True, fastmath=fastmath)(func)
        self._sigs = list(signatures)
        self._lazy = not self._sigs  # signatures from the inputs' types, as they come
        self._kernels = {}
        self._reduce = None
        self._plans = {}
        self._lock = threading.Lock()
        nin = {len(a) for _, a in self._sigs}
        if len(nin) > 1:
            raise TypeError(f"@vectorize {self.__name__}: the signatures take different numbers of arguments")
        self.nin = nin.pop() if nin else func.__code__.co_argcount
        if self.nin != func.__code__.co_argcount:
            raise TypeError(f"@vectorize {self.__name__}: the signatures take {self.nin} arguments, the function "
                            f"{func.__code__.co_argcount}")
        self.nout = 1
        self.nargs = self.nin + 1
        # Compiled now, as Numba does: errors in the function show at the decorator.
        for ret, args in self._sigs:
            k = self._kernel(ret, args, ret, tuple((1, ("i",)) for _ in args), 1)
            k.compile(f"void({', '.join(f'{a}[::1]' for a in args)}, {ret}[::1], int64)")

    def __repr__(self):
        return f"<kjit CUDA ufunc {self.__qualname__}>"

    @property
    def types(self):
        return [("".join(_dtype(a).char for a in args) + "->" + _dtype(ret).char) for ret, args in self._sigs]

    @property
    def signatures(self):
        return [f"{ret}({', '.join(str(a) for a in args)})" for ret, args in self._sigs]

    # ---- kernels ----------------------------------------------------------------------------
    def _kernel(self, ret, args, out_type, inputs, nd):
        """The kernel for one call shape. `inputs`: per input, None (a scalar,
        passed by value) or (its ndim, its index per axis: "i" the output's
        index, "0" a broadcast axis of length 1)."""
        key = (ret, args, out_type, inputs, nd)
        k = self._kernels.get(key)
        if k is not None:
            return k
        with self._lock:
            k = self._kernels.get(key)
            if k is None:
                k = self._kernels[key] = self._generate(ret, args, out_type, inputs, nd)
        return k

    def _generate(self, ret, args, out_type, inputs, nd):
        from kjit import cuda
        global _serial
        names = [f"x{j}" for j in range(len(args))]
        idx = [f"i{d}" for d in range(nd)]
        kname = "__kjit_ufunc_" + re.sub(r"\W", "_", self.__name__)  # a lambda's name is <lambda>
        lines = [f"def {kname}({', '.join(names)}, out, n):",
                 "    i = cuda.grid(1)",
                 "    if i < n:"]
        if nd == 1:
            lines.append("        i0 = i")
        else:
            lines.append("        r = i")
            for d in range(nd - 1, 0, -1):
                lines.append(f"        i{d} = r % out.shape[{d}]")
                lines.append(f"        r = r // out.shape[{d}]")
            lines.append("        i0 = r")
        operands = []
        for j, (name, inp) in enumerate(zip(names, inputs)):
            if inp is None:
                operands.append(f"_t{j}({name})")
            else:
                ndim, axes = inp
                subs = [idx[nd - ndim + a] if axes[a] == "i" else "0" for a in range(ndim)]
                operands.append(f"_t{j}({name}[{', '.join(subs)}])")
        lines.append(f"        out[{', '.join(idx)}] = _tout(_fn({', '.join(operands)}))")
        source = "\n".join(lines) + "\n"
        with _serial_lock:
            _serial += 1
            filename = f"<kjit vectorize {self.__qualname__} #{_serial}>"
        # inspect reads the kernel's source from linecache (no mtime: never evicted).
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        scope = {"cuda": cuda, "_fn": self._device, "_tout": out_type, "__name__": "kjit.vectorize"}
        scope.update({f"_t{j}": a for j, a in enumerate(args)})
        exec(compile(source, filename, "exec"), scope)
        return cuda.jit(fastmath=self._fastmath)(scope[kname])

    # ---- calls ----------------------------------------------------------------------------
    def _choose(self, ins):
        """The signature for these inputs: (return type, argument types)."""
        for ret, args in ([] if self._lazy else self._sigs):
            if all(_converts(x, _dtype(a)) for x, a in zip(ins, args)):
                return ret, args
        if not self._lazy:
            got = ", ".join(str(x) if isinstance(x, np.dtype) else type(x).__name__ for x in ins)
            raise TypeError(f"ufunc '{self.__name__}' has no signature for the input types ({got}); its signatures "
                            f"are {', '.join(self.signatures)}")
        # No signatures: the inputs' own types, the return type the compiler infers.
        args = tuple(_scalar_type(np.dtype(x).name if isinstance(x, np.dtype) else
                                  {"b": "bool", "i": "int64", "f": "float64", "c": "complex128"}
                                  [_kind_of_python_number(x)]) for x in ins)
        sig = f"({', '.join(str(a) for a in args)})"
        with self._lock:
            for r, a in self._sigs:
                if a == args:
                    return r, a
            from kjit.cuda.compiler import compile_ptx
            ret = _scalar_type(str(compile_ptx(self.py_func, sig, device=True, fastmath=self._fastmath)[1]))
            self._sigs.append((ret, args))
        return ret, args

    def __call__(self, *args, out=None, stream=0):
        if len(args) == self.nin + 1 and out is None:
            *args, out = args
        # Calls like one before (device arrays of the same dtypes, shapes and
        # strides, scalars of the same types) reuse its plan: the launcher,
        # the scalars' types, how to make the result.
        key = _plan_key(args, out, stream)
        plan = self._plans.get(key) if key is not None else None
        if plan is None:
            return self._call(args, out, stream, key)
        launcher, convert, flat, new_out, n = plan
        if out is None:
            out = new_out()
        ops = [c(a) if c is not None else a.reshape(n) if flat else a for a, c in zip(args, convert)]
        launcher(*ops, out.reshape(n) if flat else out, n)
        return out

    @staticmethod
    def _allocator(like, stream):
        """Makes a new result array of the layout of `like` (C-contiguous)."""
        from kjit import cuda
        shape, dtype = tuple(like.shape), np.dtype(like.dtype)
        fresh = getattr(type(like), "_fresh", None)
        if fresh is not None and stream == 0 and like.is_c_contiguous():
            strides, nbytes = tuple(like.strides), max(1, math.prod(shape)) * dtype.itemsize
            return lambda: fresh(shape, strides, dtype, nbytes)
        return lambda: cuda.device_array(shape, dtype=dtype, stream=stream)

    def _call(self, args, out, stream, plan_key):
        from kjit import cuda
        if len(args) != self.nin:
            raise TypeError(f"ufunc '{self.__name__}' takes {self.nin} arguments ({len(args)} given)")
        # Sequences are arrays, as NumPy's ufuncs take them.
        args = [np.asarray(a) if isinstance(a, (list, tuple)) else a for a in args]
        kinds = []  # per input: "device", "host" or "scalar"
        for j, a in enumerate(args):
            if cuda.is_cuda_array(a):
                kinds.append("device")
            elif isinstance(a, np.ndarray) and a.ndim > 0:
                kinds.append("host")
            elif isinstance(a, (bool, int, float, complex, np.generic)) or (isinstance(a, np.ndarray) and a.ndim == 0):
                kinds.append("scalar")
            else:
                raise TypeError(f"ufunc '{self.__name__}': argument {j + 1} is a {type(a).__name__}, not an array "
                                "or a number")
        arrays = [cuda.as_cuda_array(a) if k == "device" and not hasattr(a, "copy_to_host") else a
                  for a, k in zip(args, kinds)]
        ins = []
        for a, k in zip(arrays, kinds):
            if k == "scalar":
                ins.append(a.dtype if isinstance(a, (np.generic, np.ndarray)) else a)
            else:
                ins.append(np.dtype(a.dtype))
        ret, sig_args = self._choose(ins)
        try:
            shape = np.broadcast_shapes(*(tuple(a.shape) for a, k in zip(arrays, kinds) if k != "scalar"))
        except ValueError:
            shapes = " ".join(str(tuple(a.shape)) for a, k in zip(arrays, kinds) if k != "scalar")
            raise ValueError(f"ufunc '{self.__name__}': operands could not be broadcast together with shapes "
                             f"{shapes}") from None
        on_device = "device" in kinds or (out is not None and cuda.is_cuda_array(out))
        host_out = out if out is not None and not cuda.is_cuda_array(out) else None
        if out is not None and tuple(out.shape) != tuple(shape):
            raise ValueError(f"ufunc '{self.__name__}': out has shape {tuple(out.shape)}, the result {tuple(shape)}")
        # Host inputs go to the device in the signature's type.
        operands = []
        for a, k, t in zip(arrays, kinds, sig_args):
            if k == "host":
                operands.append(cuda.to_device(np.ascontiguousarray(a, dtype=_dtype(t)), stream=stream))
            elif k == "scalar":
                operands.append(_dtype(t).type(a.item() if isinstance(a, (np.generic, np.ndarray)) else a))
            else:
                operands.append(a)
        if out is None or host_out is not None:
            d_out = cuda.device_array(shape, dtype=_dtype(ret) if host_out is None else host_out.dtype, stream=stream)
        else:
            d_out = out if hasattr(out, "copy_to_host") else cuda.as_cuda_array(out)
        n = math.prod(shape)
        if n:
            launcher, flat = self._launch(ret, sig_args, operands, kinds, d_out, shape, n, stream)
            if plan_key is not None and on_device and host_out is None:  # a device array back: a plan fits
                if len(self._plans) >= 64:
                    self._plans.clear()
                convert = [_dtype(t).type if k == "scalar" else None for k, t in zip(kinds, sig_args)]
                self._plans[plan_key] = (launcher, convert, flat, self._allocator(d_out, stream), np.int64(n))
        if on_device and host_out is None:
            return d_out
        if host_out is not None:
            d_out.copy_to_host(host_out, stream=stream)
            return host_out
        result = d_out.copy_to_host(stream=stream)
        return result[()] if result.ndim == 0 else result

    def _launch(self, ret, sig_args, operands, kinds, d_out, shape, n, stream):
        nd = len(shape)
        contiguous = all(k == "scalar" or (tuple(o.shape) == tuple(shape) and o.is_c_contiguous())
                         for o, k in zip(operands, kinds)) and d_out.is_c_contiguous()
        if nd == 0 or contiguous:
            # One index for all: the arrays as flat views.
            flat = [o if k == "scalar" else o.reshape(n) for o, k in zip(operands, kinds)]
            out = d_out.reshape(n)
            inputs = tuple(None if k == "scalar" else (1, ("i",)) for k in kinds)
            nd = 1
        else:
            flat, out = operands, d_out
            inputs = []
            for o, k in zip(operands, kinds):
                if k == "scalar":
                    inputs.append(None)
                    continue
                lead = nd - len(o.shape)
                inputs.append((len(o.shape), tuple("i" if o.shape[a] == shape[lead + a] else "0"
                                                   for a in range(len(o.shape)))))
            inputs = tuple(inputs)
        out_type = _scalar_type(np.dtype(d_out.dtype).name)
        kernel = self._kernel(ret, sig_args, out_type, inputs, nd)
        launcher = kernel[(n + _TPB - 1) // _TPB, _TPB, stream]
        launcher(*flat, out, np.int64(n))
        return launcher, flat is not operands and len(shape) != 1

    def reduce(self, arg, stream=0):
        """The binary function as a reduction of a 1-D array (as Numba's)."""
        from kjit import cuda
        if self.nin != 2:
            raise TypeError(f"reduce needs a function of two arguments; '{self.__name__}' takes {self.nin}")
        if self._reduce is None:
            self._reduce = cuda.reduce(self.py_func)
        if len(arg.shape) != 1:
            raise ValueError(f"ufunc '{self.__name__}'.reduce takes a 1-D array, not {len(arg.shape)}-D")
        if arg.shape[0] == 0:
            if self.identity is None:
                raise ValueError(f"zero-size array to reduction operation {self.__name__} which has no identity")
            return self.identity
        first = arg[0] if not cuda.is_cuda_array(arg) else arg[0:1].copy_to_host()[0]
        if arg.shape[0] == 1:
            return first
        return self._reduce(arg[1:], init=first, stream=stream)


# ---- @guvectorize (target 'cpu' and 'parallel'): NumPy generalized ufuncs ---------------

_DIMS = re.compile(r"\(([^()]*)\)")


def _parse_layout(layout):
    """"(m,n),(n)->(m)" -> ([("m", "n"), ("n",)], [("m",)])."""
    if not isinstance(layout, str) or layout.count("->") != 1:
        raise TypeError(f"@guvectorize: a layout is written '(n),()->(n)', not {layout!r}")
    sides = []
    for side in layout.replace(" ", "").split("->"):
        groups = _DIMS.findall(side)
        if not groups or _DIMS.sub("", side).strip(",") or "".join(f"({g})" for g in groups) != side.replace(",(", "("):
            raise TypeError(f"@guvectorize: a layout is written '(n),()->(n)', not {layout!r}")
        dims = []
        for g in groups:
            names = tuple(n for n in g.split(",") if n)
            if any(not n.isidentifier() for n in names):
                raise TypeError(f"@guvectorize: dimension names in {layout!r} must be identifiers")
            dims.append(names)
        sides.append(dims)
    return sides[0], sides[1]


def _split_top(text):
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in "[(" and 1 or (-1 if ch in "])" else 0)
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _parse_gu_signature(sig):
    """[(scalar type, ndim)] of "void(float64[:, :], int64, float64[:])"."""
    if isinstance(sig, kt.Signature):
        if str(sig.return_type) not in ("void", "none"):
            raise TypeError(f"@guvectorize: a signature returns void, not {sig.return_type}")
        return [(_scalar_type(a.dtype), a.ndim) if isinstance(a, kt.Array) else (_scalar_type(a), 0)
                for a in sig.args]
    if not isinstance(sig, str) or "(" not in sig or not sig.rstrip().endswith(")"):
        raise TypeError(f"@guvectorize: a signature is written 'void(float64[:], float64[:])', not {sig!r}")
    ret, args = sig.split("(", 1)
    if ret.strip() not in ("", "void", "none"):
        raise TypeError(f"@guvectorize: a signature returns void, not {ret.strip()}")
    out = []
    for a in _split_top(args.rstrip()[:-1]):
        if "[" in a:
            name, dims = a.split("[", 1)
            if not dims.endswith("]"):
                raise TypeError(f"@guvectorize: {a!r} is not an array type (float64[:, :])")
            out.append((_scalar_type(name), len(_split_top(dims[:-1]))))
        else:
            out.append((_scalar_type(a), 0))
    return out


class GUFunc:
    """What ``@guvectorize`` makes for target 'cpu' or 'parallel' (Numba's
    GUFunc): it calls a NumPy generalized ufunc (``.ufunc``) whose loops
    are compiled. For each signature kjit compiles

        def loop(a0, a1, out):
            for i in range(a0.shape[0]):
                f(a0[i], a1[i], out[i])

    over the operands with the loop's axis in front (a ``()`` operand
    declared as a 1-element array gets ``out[i:i + 1]``), and NumPy runs it
    over the broadcast loop dimensions. Without signatures (dynamic), a
    signature is compiled for each new combination of operand types, and the
    outputs must be given."""

    def __init__(self, func, layout, parallel, kws, dynamic):
        from inspect import signature
        from kjit.dispatcher import njit
        func = getattr(func, "py_func", func)  # a @jit function: its Python function
        self.py_func = func
        _named_after(self, func)
        self.is_dynamic = dynamic
        self._lock = threading.RLock()
        self._inputs, self._outputs = _parse_layout(layout)
        self.nin, self.nout = len(self._inputs), len(self._outputs)
        self.signature = ",".join(f"({','.join(d)})" for d in self._inputs) + "->" + \
            ",".join(f"({','.join(d)})" for d in self._outputs)
        params = list(signature(func).parameters.values())
        if len(params) != self.nin + self.nout or any(
                p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params):
            raise TypeError(f"@guvectorize: {func.__name__}() must take {self.nin + self.nout} positional "
                            f"arguments, one for each operand of the layout {layout!r}")
        identity = kws.get("identity")
        if identity not in _IDENTITY:
            raise ValueError(f"@guvectorize: identity is 0, 1, None or 'reorderable', not {identity!r}")
        self._identity = _IDENTITY[identity]
        self._parallel = parallel
        order = []
        for d in self._inputs + self._outputs:
            order += [n for n in d if n not in order]
        self._core = [[order.index(n) for n in d] for d in self._inputs + self._outputs]
        options = {k: kws[k] for k in ("fastmath", "boundscheck", "cache") if k in kws}
        self._cache = bool(kws.get("cache"))
        self._kernel = njit(error_model="numpy", **options)(func)
        self._loops = []  # (operand types, type numbers, entry address, loop dispatcher)
        self._ufunc = None

    def add(self, sig):
        """Compiles the loop of a signature ("void(float64[:], float64[:])")."""
        operands = _parse_gu_signature(sig)
        if len(operands) != self.nin + self.nout:
            raise TypeError(f"@guvectorize: the signature {sig} has {len(operands)} arguments, the layout "
                            f"{self.signature} {self.nin + self.nout}")
        self._add(tuple(operands))

    def _add(self, operands):
        with self._lock:
            self._add_unlocked(operands)

    def _add_unlocked(self, operands):
        if any(l[0] == operands for l in self._loops):
            return
        passed, types = [], []
        for k, ((t, ndim), core) in enumerate(zip(operands, self._inputs + self._outputs)):
            name = f"a{k}"
            output = k >= self.nin
            if not core and ndim == 0 and not output:
                passed.append(f"{name}[i]")
            elif not core and ndim == 1:
                passed.append(f"{name}[i:i + 1]")
            elif core and ndim == len(core):
                passed.append(f"{name}[i]")
            elif output and ndim == 0:
                raise TypeError(f"@guvectorize: output {k + 1} of {self.__name__}() is a scalar; outputs are "
                                f"arrays (declare it {t}[:] and write out[0])")
            else:
                raise TypeError(f"@guvectorize: argument {k + 1} of {self.__name__}() is declared with {ndim} "
                                f"dimension{'s' if ndim != 1 else ''}, the layout gives it {len(core)}")
            types.append(f"{t}[{', '.join([':'] * (1 + len(core)))}]")
        names = [f"a{k}" for k in range(len(operands))]
        src = (f"def _gufunc_loop({', '.join(names)}):\n"
               f"    for i in range(a0.shape[0]):\n"
               f"        _fn({', '.join(passed)})\n")
        sig = "void(" + ", ".join(types) + ")"
        loop, address = _compile_loop(src, "_gufunc_loop", self._kernel, self.py_func, f"{self.signature} {sig}",
                                      sig, self._cache)
        codes = bytes(_dtype(t).num for t, _ in operands)
        self._loops.append((operands, codes, address, loop))
        self._ufunc = None

    @property
    def ufunc(self):
        """The NumPy gufunc of the loops compiled so far (None before the first)."""
        with self._lock:
            return self._build()

    def _build(self):
        if self._ufunc is None and self._loops:
            from kjit import _kjit
            self._ufunc = _kjit.make_ufunc(self.__name__, self.__doc__ or "", self.nin, self.nout,
                                           self._identity, [(l[1], l[2]) for l in self._loops], self._parallel,
                                           (self._kernel, [l[3] for l in self._loops]), self.signature,
                                           self._core)
        return self._ufunc

    @property
    def types(self):
        return self.ufunc.types if self._loops else []

    @property
    def ntypes(self):
        return len(self._loops)

    def __call__(self, *args, **kws):
        if self.is_dynamic:
            given = list(args)
            if "out" in kws:
                out = kws["out"]
                given += list(out) if isinstance(out, tuple) else [out]
            if len(given) != self.nin + self.nout:
                raise TypeError(f"{self.__name__}() compiles for its operands' types (no signatures given): "
                                f"pass all {self.nin + self.nout} operands, the outputs included")
            operands = []
            for k, (a, core) in enumerate(zip(given, self._inputs + self._outputs)):
                t = _input_type(a)
                operands.append((t, len(core) if core or k < self.nin else 1))
            operands = tuple(operands)
            self._add(operands)
            if "signature" not in kws and "dtype" not in kws:
                codes = next(l[1] for l in self._loops if l[0] == operands)
                kws["signature"] = tuple(_num_dtype(c) for c in codes)
        if self.ufunc is None:
            raise TypeError(f"{self.__name__}() has no signature compiled")
        return self.ufunc(*args, **kws)

    def __repr__(self):
        return f"<kjit GUFunc '{self.__name__}'>"
