"""``cuda.reduce`` in the simulator: the reduction computed in Python over
the array's values, in order, with ``init`` folded in last (the function
must be associative and commutative, as on a GPU). The function is first
compiled by kjit's compiler, called as a device function from a kernel, so
that the simulator reports the same compile errors."""
import numpy as np

from kjit import hostapi
from kjit.cuda.simulator import bfloat16_values as bf16v


def _reduce_check_kernel(op):
    def reduce_check(a, out):
        out[0] = op(a[0], a[1])
    return reduce_check


class Reduce:
    def __init__(self, functor):
        from kjit.cuda.simulator.kernel import CUDAKernel
        self._functor = functor
        if isinstance(functor, CUDAKernel):
            self._fn = functor.py_func
            self._op = functor._real
        else:
            from kjit.cuda import compiler
            self._fn = functor
            self._op = compiler.CUDAKernel(functor, device=True)
        self._checked = set()

    def _check(self, dtype):
        if dtype in self._checked:
            return
        from kjit.cuda import compiler
        from kjit.cuda.simulator.kernel import _ignorable
        k = compiler.CUDAKernel(_reduce_check_kernel(self._op))
        name = "bfloat16" if bf16v.needs_wrapping(np.empty(0, dtype)) else dtype.name
        try:
            k.compile(f"void({name}[::1], {name}[::1])")
        except Exception as e:
            if not _ignorable(e):
                raise
        self._checked.add(dtype)

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        a = arr._ary if isinstance(arr, hostapi.DeviceNDArray) else np.asarray(arr)
        if a.ndim != 1:
            raise ValueError("cuda.reduce takes a 1-D array")
        n = a.shape[0] if size is None else int(size)
        dtype = a.dtype
        if bf16v.needs_wrapping(a):
            return self._reduce_bfloat16(a, n, res, init)
        init = dtype.type(init)
        self._check(dtype)
        if n == 0:
            if res is not None:
                res[0] = init
            return init
        fn, conv = self._fn, dtype.type
        values = a[:n].tolist()
        acc = conv(values[0])
        for v in values[1:]:
            acc = conv(fn(acc, conv(v)))
        acc = conv(fn(acc, init))
        if res is not None:
            res[0] = acc
            return None
        return acc

    def _reduce_bfloat16(self, a, n, res, init):
        """The reduction of an array of bfloat16 bits (without ml_dtypes):
        in bfloat16, each result of the function rounded to it."""
        from kjit import bfloat16_host
        self._check(a.dtype)
        conv = bf16v.scalar
        acc = conv(init)
        if n:
            values = [bf16v.BFloat16Scalar.from_bits(b) for b in a[:n].view(np.uint16).tolist()]
            acc = values[0]
            for v in values[1:]:
                acc = conv(self._fn(acc, v))
            acc = conv(self._fn(acc, conv(init)))
        if res is not None:
            out = res._ary if isinstance(res, hostapi.DeviceNDArray) else res
            bf16v.wrap(np.asarray(out))[0] = acc
            return None
        return bfloat16_host.scalar(float(acc))


def reduce(functor):
    """A reduction by ``functor`` (a binary function, lambda or device
    function): ``r(arr, size=None, res=None, init=0, stream=0)``."""
    return Reduce(functor)
