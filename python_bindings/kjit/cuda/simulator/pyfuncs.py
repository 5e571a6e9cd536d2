"""Builtins whose Python behaviour differs from a compiled kernel's, given
to simulated kernels in their place: the simulator runs kernels as Python,
where `round(np.float32(x), n)` rounds in float32 and `math.ldexp` refuses
a NumPy integer. Each replacement calls kjit's compiled scalar function for
the arguments' types (compiled once per types, on the host), so the
simulator answers as the devices do.

`simulated(func)` is the kernel or device function to call: `func` itself
when its code names none of these, else a copy whose globals have them."""
import builtins
import math
import types

import numpy as np

_compiled = {}


def _host(name, source):
    fn = _compiled.get(name)
    if fn is None:
        from kjit.dispatcher import njit
        scope = {"math": math}
        exec(compile(source, f"<kjit simulator {name}>", "exec"), scope)
        # Compiled from this text, which inspect cannot read back: the bytecode path.
        fn = _compiled[name] = njit(scope[name])
    return fn


def _round(x, ndigits=None):
    if ndigits is None or not isinstance(x, (float, np.floating)) or isinstance(x, np.float16):
        return builtins.round(x) if ndigits is None else builtins.round(x, ndigits)
    # (in float64, as kernels round: @njit rounds a float32 in float32, as Numba's)
    r = _host("_kjit_round", "def _kjit_round(x, n):\n    return round(x, n)\n")(float(x), ndigits)
    return type(x)(r) if isinstance(x, np.floating) else r


def _ldexp(x, i):
    if isinstance(i, np.integer):
        i = int(i)
    return math.ldexp(x, i)


class _Math(types.ModuleType):
    """`math` as kernels see it in the simulator."""

    def __init__(self):
        super().__init__("math")
        self.__dict__.update({k: v for k, v in vars(math).items() if not k.startswith("__")})
        self.ldexp = _ldexp


_MATH = _Math()
_REPLACED = {"round": _round}
_cache = {}


def simulated(func):
    code = getattr(func, "__code__", None)
    if code is None:
        return func
    names = set(code.co_names)
    if "round" not in names and "math" not in names:
        return func
    g = dict(func.__globals__)
    if "round" in names and g.get("round", builtins.round) is builtins.round:
        g["round"] = _round
    if g.get("math") is math:
        g["math"] = _MATH
    return types.FunctionType(code, g, func.__name__, func.__defaults__, func.__closure__)
