"""``@guvectorize`` (target 'cpu' and 'parallel'): a ``GUFunc`` over a NumPy
generalized ufunc whose loops are compiled."""
import threading

from kjit import _kjit
from kjit.dispatcher import njit
from kjit.vectorize.cpu_ufunc import _IDENTITY, _compile_loop, _input_type, _named_after, _num_dtype
from kjit.vectorize.signatures import _dtype, _parse_gu_signature, _parse_layout

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
