"""``@vectorize`` for target 'cpu' and 'parallel': a ``DUFunc`` around a
NumPy ufunc whose loops are compiled (``_CPULoops``): the signatures'
loops, or without signatures a loop per new input types, as Numba's do.
The loop compiler here (``_compile_loop``) serves ``@guvectorize`` too."""
import linecache
import threading

import numpy as np

from kjit import _kjit
from kjit import types as kt
from kjit.dispatcher import njit
from kjit.vectorize.signatures import _dtype, _parse_signature, _scalar_type

_serial = 0
_serial_lock = threading.Lock()


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


