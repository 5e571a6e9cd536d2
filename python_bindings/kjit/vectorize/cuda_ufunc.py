"""``@vectorize(target='cuda')``: an element-wise function made into a
function over arrays, run as a kernel (Numba's CUDA ufuncs).

The scalar function compiles as a device function; each call shape (which
inputs are scalars, which axes broadcast) gets a kernel of its own, made
from generated source and compiled once (``CUDAUFunc._generate``). It runs
wherever kjit.cuda kernels run: the GPU, the CPU device, the simulator."""
import linecache
import math
import re
import threading

import numpy as np

from kjit.vectorize.signatures import _dtype, _scalar_type

_TPB = 256
_serial = 0
_serial_lock = threading.Lock()

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




def loop_index_lines(nd, out):
    """Lines of a generated kernel (in its `if i < n:` block) that turn the
    flat thread index `i` into loop indices i0 .. i{nd-1} over the shape of
    the array named `out` (C order). CUDA ufuncs and gufuncs share them."""
    if nd == 0:
        return []
    if nd == 1:
        return ["        i0 = i"]
    lines = ["        r = i"]
    for d in range(nd - 1, 0, -1):
        lines.append(f"        i{d} = r % {out}.shape[{d}]")
        lines.append(f"        r = r // {out}.shape[{d}]")
    return lines + ["        i0 = r"]

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
        lines += loop_index_lines(nd, "out")
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
        # Sequences are arrays, as NumPy's ufuncs take them; another library's
        # device arrays (__cuda_array_interface__) are viewed as kjit's.
        def view(a):
            return cuda.as_cuda_array(a) if cuda.is_cuda_array(a) and not hasattr(a, "copy_to_host") else a
        args = [np.asarray(a) if isinstance(a, (list, tuple)) else view(a) for a in args]
        out = None if out is None else view(out)
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


