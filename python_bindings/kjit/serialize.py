"""Jitted functions that travel: pickling ``@njit`` functions, ``@cuda.jit``
kernels and ``@vectorize`` / ``@guvectorize`` objects.

As in Numba, a kjit function pickles by value: its Python function (the code
object, by ``marshal``; the globals it names; its defaults and closure), its
options and its eager signatures. Unpickled in another process (a
``multiprocessing`` worker started with spawn, a Dask worker), the decorator
is applied again there; that process compiles on first use, from the source
text the sender read (carried with the function when the sender could read
it: the receiver may not have the file), else from the bytecode
(kjit.bytecode). Modules
among the globals travel by name, other kjit functions by value, the rest
as pickle does. Within one process, unpickling gives back the same object.

This module knows the pickled objects' layers only through the functions
they give it: each layer's reducer names its own rebuild function (the
pickle then imports that layer where it is unpickled), which calls the
rebuild_* helper here with the decorator to apply.
"""
import builtins
import importlib
import linecache
import marshal
import pickle
import sys
import types
import uuid
import weakref

from kjit import types as kt
from kjit.sourcetext import read_source

_LIVE = weakref.WeakValueDictionary()  # id -> the object made in this process


class _ModuleRef:
    def __init__(self, name):
        self.name = name

    def __reduce__(self):
        return (_import, (self.name,))


def _import(name):
    return importlib.import_module(name)


def _names(code):
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _names(c)
    return out


def _picklable(value):
    if isinstance(value, types.ModuleType):
        return _ModuleRef(value.__name__)
    return value


def reduce_function(func):
    """The arguments of rebuild_function: `func` by value."""
    code = func.__code__
    globs = {}
    for name in sorted(_names(code)):
        if name in func.__globals__:
            globs[name] = _picklable(func.__globals__[name])
    closure = None
    if func.__closure__:
        closure = tuple(_picklable(c.cell_contents) for c in func.__closure__)
    return (marshal.dumps(code), globs, func.__name__, func.__qualname__, func.__defaults__, closure,
            func.__module__, sys.version_info[:2], read_source(func))


def rebuild_function(code, globs, name, qualname, defaults, closure, module, version, source=None):
    if tuple(version) != sys.version_info[:2]:
        raise pickle.UnpicklingError(
            f"this kjit function was pickled by Python {version[0]}.{version[1]}; its bytecode cannot be "
            f"read by Python {sys.version_info[0]}.{sys.version_info[1]}")
    g = {"__builtins__": builtins, "__name__": module}
    # The defining module's globals when it is importable here (kernels
    # see later additions to it, as in the process that made them).
    mod = sys.modules.get(module)
    if mod is not None and module != "__main__":
        g = mod.__dict__
    g = dict(g)
    g.update(globs)
    cells = tuple(types.CellType(v) for v in closure) if closure is not None else None
    f = types.FunctionType(marshal.loads(code), g, name, defaults, cells)
    f.__qualname__ = qualname
    f.__module__ = module
    if source is not None:
        # The text the sender read: compiled here instead of the bytecode,
        # and shown in messages (the file may not exist here).
        f.__kjit_source__ = tuple(source)
        _remember_lines(source)
    return f


def _remember_lines(source):
    """Puts the carried text in linecache at its lines of its file, where
    the file cannot be read here (messages quote the line)."""
    filename, text, first = source
    if linecache.getlines(filename):
        return
    lines = ["\n"] * (first - 1) + text.splitlines(True)
    linecache.cache[filename] = (len("".join(lines)), None, lines, filename)


def _key(obj):
    k = getattr(obj, "_pickle_id", None)
    if k is None:
        k = uuid.uuid4().hex
        obj._pickle_id = k
        _LIVE[k] = obj
    return k


def _remember(key, make):
    obj = _LIVE.get(key)
    if obj is None:
        obj = make()
        try:
            obj._pickle_id = key
            _LIVE[key] = obj
        except (AttributeError, TypeError):
            pass
    return obj


def reduce_dispatcher(d, rebuild):
    """``@jit`` functions (kjit's Dispatcher); `rebuild` (kjit.dispatcher's)
    calls rebuild_dispatcher where the function is unpickled."""
    sigs = [kt.signature_text(s) for s in getattr(d, "_eager_signatures", ())]
    return (rebuild, (_key(d), reduce_function(d.py_func), dict(d.targetoptions), tuple(sigs)))


def rebuild_dispatcher(make_dispatcher, key, func, options, sigs):
    """The Dispatcher `reduce_dispatcher` pickled, made by `make_dispatcher`."""

    def make():
        return make_dispatcher(rebuild_function(*func), options, sigs)

    return _remember(key, make)


# kjit.cuda's function that makes a pickled kernel again (it calls
# rebuild_kernel with its cuda.jit): registered when kjit.cuda is imported,
# which it is before any kernel exists. This module imports no device.
_kernel_rebuild = None


def register_kernel_rebuild(rebuild):
    """Sets the function reduce_kernel names to make a kernel again."""
    global _kernel_rebuild
    _kernel_rebuild = rebuild


def reduce_kernel(k):
    """``@cuda.jit`` kernels and device functions."""
    return (_kernel_rebuild, (_key(k), reduce_function(k.py_func), dict(k._pickle_options),
                              tuple(k._pickle_signatures)))


def rebuild_kernel(jit, key, func, options, sigs):
    """The kernel `reduce_kernel` pickled, made by `jit` (cuda.jit)."""

    def make():
        f = rebuild_function(*func)
        if not sigs:
            return jit(**options)(f)
        return jit(sigs[0] if len(sigs) == 1 else list(sigs), **options)(f)

    return _remember(key, make)


def reduce_vectorized(obj, rebuild):
    """``@vectorize`` and ``@guvectorize`` objects: the decorator again;
    `rebuild` (kjit.vectorize's) calls rebuild_vectorized."""
    func, args, kws, kind = obj._kjit_origin
    return (rebuild, (_key(obj), reduce_function(func), args, dict(kws), kind))


def rebuild_vectorized(vectorize, guvectorize, key, func, args, kws, kind):
    """The object `reduce_vectorized` pickled, made by the decorator."""

    def make():
        f = rebuild_function(*func)
        if kind == "vectorize":
            return vectorize(list(args), **kws)(f)
        sigs, layout = args
        return guvectorize(list(sigs), layout, **kws)(f)

    return _remember(key, make)
