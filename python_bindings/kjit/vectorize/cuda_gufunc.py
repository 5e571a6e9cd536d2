"""``@guvectorize(target='cuda')``: a function over core dimensions made
into a function over arrays, run as a kernel (Numba's CUDA gufuncs).

The user's function compiles as a device function. Each call shape (the
signature, which operands are scalars, which loop axes broadcast) gets a
kernel of its own, made from generated source (``CUDAGUFunc._generate``):
one thread per index of the broadcast loop dimensions, which calls the
function on the operands' core slices,

    def kernel(a0, a1, out, n):
        i = cuda.grid(1)
        if i < n:
            i1 = i % out.shape[1]; i0 = i // out.shape[1]
            _fn(a0[i0, i1], a1[i1], out[i0, i1])

It runs wherever kjit.cuda kernels run: the GPU, the CPU device, the
simulator. Inputs are host or device arrays, sequences or scalars; outputs
are device arrays when an input (or a given output) is one, else NumPy
arrays, as Numba's rules give."""
import linecache
import math
import re
import threading

import numpy as np

from kjit import types as kt
from kjit.vectorize.cuda_ufunc import loop_index_lines
from kjit.vectorize.signatures import _dtype, _parse_layout, _scalar_type, parse_signature

_TPB = 256
_serial = 0
_serial_lock = threading.Lock()


def _gu_signature(sig):
    """[(scalar type, ndim)] of a signature: "void(float32[:], int32)",
    void(float32[:], int32), or a tuple of argument types; a return type
    other than void is Numba's TypeError."""
    if isinstance(sig, (tuple, list)):
        ret, args = None, tuple(sig)
    else:
        ret, args = parse_signature(sig, "@guvectorize", "void(float64[:], float64[:])")
    if ret is not None and str(ret) not in ("void", "none"):
        raise TypeError(f"guvectorized functions cannot return values: signature {sig} specifies {ret} return type")
    return tuple((_scalar_type(a.dtype), a.ndim) if isinstance(a, kt.Array) else (_scalar_type(a), 0)
                 for a in args)


def _pos_args(n):
    return f"{n} positional argument{'s' * (n != 1)}"


class CUDAGUFunc:
    """What ``@guvectorize(..., target='cuda')`` makes (Numba's CUDAGUFuncVectorize's
    dispatcher)."""

    def __init__(self, func, layout, sigs, kws):
        from kjit import cuda
        func = getattr(func, "py_func", func)
        self.py_func = func
        self.__name__ = func.__name__
        self.__qualname__ = getattr(func, "__qualname__", func.__name__)
        self.__doc__ = func.__doc__
        opts = dict(kws)
        opts.pop("target", None)
        if opts.pop("cache", False):
            raise TypeError("caching is not supported")
        self.identity = opts.pop("identity", None)
        self._fastmath = bool(opts.pop("fastmath", False))
        if not opts.pop("nopython", True):
            raise TypeError("nopython flag must be True")
        if opts:
            raise TypeError("The following target options are not supported: " +
                            ", ".join(repr(k) for k in opts))
        self._inputs, self._outputs = _parse_layout(layout)
        self.nin, self.nout = len(self._inputs), len(self._outputs)
        self.signature = ",".join(f"({','.join(d)})" for d in self._inputs) + "->" + \
            ",".join(f"({','.join(d)})" for d in self._outputs)
        self._device = cuda.jit(device=True, fastmath=self._fastmath)(func)
        self._sigs = []
        self._kernels = {}
        self._lock = threading.Lock()
        for sig in sigs:
            self.add(sig)

    def __repr__(self):
        return f"<kjit CUDA gufunc {self.__qualname__}>"

    def add(self, sig):
        operands = _gu_signature(sig)
        if len(operands) != self.nin + self.nout:
            raise TypeError(f"@guvectorize: the signature {sig} has {len(operands)} arguments, the layout "
                            f"{self.signature} {self.nin + self.nout}")
        for k, ((t, ndim), core) in enumerate(zip(operands, self._inputs + self._outputs)):
            output = k >= self.nin
            if ndim == len(core) and not (output and ndim == 0):
                continue
            if not core and ndim == 1:
                continue  # a () operand as a 1-element array
            if output and ndim == 0:
                raise TypeError(f"@guvectorize: output {k - self.nin + 1} of {self.__name__}() is a scalar; "
                                f"outputs are arrays (declare it {t}[:] and write out[0])")
            raise TypeError(f"@guvectorize: argument {k + 1} of {self.__name__}() is declared with {ndim} "
                            f"dimension{'s' if ndim != 1 else ''}, the layout gives it {len(core)}")
        if operands not in self._sigs:
            self._sigs.append(operands)

    @property
    def types(self):
        return ["".join(_dtype(t).char for t, _ in s[:self.nin]) + "->" +
                "".join(_dtype(t).char for t, _ in s[self.nin:]) for s in self._sigs]

    @property
    def ntypes(self):
        return len(self._sigs)

    # ---- kernels ----------------------------------------------------------------------------
    def _kernel(self, key):
        k = self._kernels.get(key)
        if k is None:
            with self._lock:
                k = self._kernels.get(key)
                if k is None:
                    k = self._kernels[key] = self._generate(*key)
        return k

    def _generate(self, sig, plans, nloop):
        """`plans`: per operand, None (a scalar passed by value) or (its
        number of loop axes, per loop axis "i" (the loop's index) or "0"
        (broadcast))."""
        from kjit import cuda
        global _serial
        names = [f"a{k}" for k in range(len(plans))]
        idx = [f"i{d}" for d in range(nloop)]
        kname = "__kjit_gufunc_" + re.sub(r"\W", "_", self.__name__)
        first_out = names[self.nin]
        lines = [f"def {kname}({', '.join(names)}, n):",
                 "    i = cuda.grid(1)",
                 "    if i < n:"]
        lines += loop_index_lines(nloop, first_out)
        passed = []
        for k, (name, plan) in enumerate(zip(names, plans)):
            if plan is None:
                passed.append(f"_t{k}({name})")
                continue
            lnd, axes = plan
            subs = [idx[nloop - lnd + a] if axes[a] == "i" else "0" for a in range(lnd)]
            passed.append(f"{name}[{', '.join(subs)}]" if subs else name)
        lines.append(f"        _fn({', '.join(passed)})")
        source = "\n".join(lines) + "\n"
        with _serial_lock:
            _serial += 1
            filename = f"<kjit guvectorize {self.__qualname__} #{_serial}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        scope = {"cuda": cuda, "_fn": self._device, "__name__": "kjit.vectorize"}
        scope.update({f"_t{k}": t for k, (t, _) in enumerate(sig)})
        exec(compile(source, filename, "exec"), scope)
        return cuda.jit(fastmath=self._fastmath)(scope[kname])

    # ---- calls ----------------------------------------------------------------------------
    def _choose(self, dtypes):
        """The first signature whose input types every input converts to safely."""
        for sig in self._sigs:
            if all(d is None or np.can_cast(d, _dtype(t), "same_kind" if d.kind == _dtype(t).kind else "safe")
                   for d, (t, _) in zip(dtypes, sig[:self.nin])):
                return sig
        for sig in self._sigs:  # NumPy's casting rules as a last resort (an int64 for an int32)
            if all(d is None or np.can_cast(d, _dtype(t), "same_kind") for d, (t, _) in zip(dtypes, sig[:self.nin])):
                return sig
        got = ", ".join(str(d) for d in dtypes)
        raise TypeError(f"gufunc '{self.__name__}' has no signature for the input types ({got}); its types are "
                        f"{', '.join(self.types)}")

    def __call__(self, *args, out=None, stream=0):
        from kjit import cuda
        nin, nout = self.nin, self.nout
        if out is None and len(args) not in (nin, nin + nout):
            raise TypeError(f"This gufunc accepts {_pos_args(nin)} (when providing input only) or "
                            f"{_pos_args(nin + nout)} (when providing input and output). Got {_pos_args(len(args))}.")
        if out is not None and len(args) > nin:
            raise ValueError("cannot specify argument 'out' as both positional and keyword")
        if out is not None:
            outs = list(out) if isinstance(out, (tuple, list)) else [out]
            if len(outs) != nout:
                raise TypeError(f"gufunc '{self.__name__}' has {nout} output{'s' * (nout != 1)}, {len(outs)} given")
        else:
            outs = list(args[nin:]) or [None] * nout
        is_dev = cuda.is_cuda_array

        def norm(a):
            if is_dev(a):
                return cuda.as_cuda_array(a) if not hasattr(a, "copy_to_host") else a
            return a if isinstance(a, (np.ndarray, np.generic, bool, int, float, complex)) else np.asarray(a)

        ins = [norm(a) for a in args[:nin]]
        outs = [None if o is None else norm(o) for o in outs]
        to_host = not any(is_dev(a) for a in ins) and not any(o is not None and is_dev(o) for o in outs)
        # Input dtypes: arrays' own, Python numbers as NumPy types them.
        dtypes = [np.asarray(a).dtype if not is_dev(a) else np.dtype(a.dtype) for a in ins]
        sig = self._choose(dtypes)
        # Host inputs in the signature's types; a device array of another type is Numba's TypeError.
        for k, (a, (t, _)) in enumerate(zip(ins, sig)):
            want = _dtype(t)
            if np.dtype(a.dtype if hasattr(a, "dtype") else np.asarray(a).dtype) == want:
                continue
            if is_dev(a):
                raise TypeError("compatible signature is possible by casting but "
                                f"{type(a)} does not support .astype()")
            ins[k] = np.asarray(a).astype(want)
        # Loop shapes and core dimension sizes.
        cores = self._inputs + self._outputs
        sizes = {}
        loops = []
        for k, (a, core, (t, ndim)) in enumerate(zip(ins, self._inputs, sig)):
            shape = tuple(np.shape(a)) if not is_dev(a) else tuple(a.shape)
            if len(shape) < len(core):
                raise ValueError(f"gufunc '{self.__name__}': input {k + 1} has {len(shape)} dimension"
                                 f"{'s' * (len(shape) != 1)}, its core layout {len(core)}")
            split = len(shape) - len(core)
            for name, size in zip(core, shape[split:]):
                if sizes.setdefault(name, size) != size:
                    raise ValueError(f"gufunc '{self.__name__}': core dimension {name!r} is {sizes[name]} in one "
                                     f"operand and {size} in input {k + 1}")
            loops.append(shape[:split])
        try:
            loop = tuple(np.broadcast_shapes(*loops))
        except ValueError:
            raise ValueError(f"gufunc '{self.__name__}': the loop dimensions {' '.join(map(str, loops))} could "
                             "not be broadcast together") from None
        out_shapes = []
        for k, (o, core) in enumerate(zip(outs, self._outputs)):
            if o is not None:
                oshape = tuple(o.shape)
                split = len(oshape) - len(core)
                for name, size in zip(core, oshape[split:]):
                    if sizes.setdefault(name, size) != size:
                        raise ValueError(f"gufunc '{self.__name__}': core dimension {name!r} is {sizes[name]} "
                                         f"in one operand and {size} in output {k + 1}")
            missing = [n for n in core if n not in sizes]
            if missing:
                raise ValueError(f"gufunc '{self.__name__}': the size of core dimension {missing[0]!r} of "
                                 f"output {k + 1} is not known: pass the output")
            out_shapes.append(loop + tuple(sizes[n] for n in core))
        # A given output whose shape is the loop's less leading 1s (Numba's
        # old-style "()" inputs given as 1-element arrays): the loop is its.
        for o, shp in zip(outs, out_shapes):
            if o is not None and tuple(o.shape) != shp:
                lead = len(shp) - len(o.shape)
                if lead > 0 and all(s == 1 for s in shp[:lead]) and shp[lead:] == tuple(o.shape):
                    loop = loop[lead:]
                    out_shapes = [s[lead:] for s in out_shapes]
                    loops = [l[max(0, len(l) - len(loop)):] if len(l) > len(loop) else l for l in loops]
                    break
        for k, (o, shp) in enumerate(zip(outs, out_shapes)):
            if o is not None and tuple(o.shape) != shp:
                raise ValueError(f"gufunc '{self.__name__}': output {k + 1} has shape {tuple(o.shape)}, the "
                                 f"result {shp}")
        nloop = len(loop)
        n = math.prod(loop)
        # Operands on the device; () operands declared as arrays get a trailing axis of 1.
        operands, plans = [], []
        for k, (a, core, (t, ndim)) in enumerate(zip(ins, self._inputs, sig)):
            shape = tuple(a.shape) if hasattr(a, "shape") else ()
            if ndim == 0 and not core and not shape:  # a scalar by value
                operands.append(_dtype(t).type(a.item() if hasattr(a, "item") else a))
                plans.append(None)
                continue
            lshape = loops[k]
            if len(shape) - len(core) > len(lshape):  # leading 1s dropped above
                a = a.reshape(shape[len(shape) - len(core) - len(lshape):])
                shape = tuple(a.shape)
            if not core and ndim == 1:
                a = a.reshape(shape + (1,)) if is_dev(a) else np.asarray(a).reshape(shape + (1,))
            if not is_dev(a):
                a = cuda.to_device(np.ascontiguousarray(a), stream=stream)
            operands.append(a)
            plans.append((len(lshape), tuple("i" if s == loop[nloop - len(lshape) + d] else "0"
                                             for d, s in enumerate(lshape))))
        d_outs = []
        for k, (o, shp, core, (t, ndim)) in enumerate(zip(outs, out_shapes, self._outputs, sig[nin:])):
            if o is not None and is_dev(o):
                d = o
            else:
                d = cuda.device_array(shp, dtype=_dtype(t) if o is None else o.dtype, stream=stream)
            d_outs.append(d)
            dk = d.reshape(shp + (1,)) if not core and ndim == 1 else d
            operands.append(dk)
            plans.append((nloop, ("i",) * nloop))
        if n:
            kernel = self._kernel((sig, tuple(plans), nloop))
            kernel[(n + _TPB - 1) // _TPB, _TPB, stream](*operands, np.int64(n))
        results = []
        for o, d in zip(outs, d_outs):
            if not to_host:
                results.append(d)
            elif o is not None:
                d.copy_to_host(o, stream=stream)
                results.append(o)
            else:
                r = d.copy_to_host(stream=stream)
                results.append(r)
        return results[0] if nout == 1 else tuple(results)
