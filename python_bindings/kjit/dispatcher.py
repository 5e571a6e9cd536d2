"""``@jit`` / ``@njit``: compile numeric Python for the CPU.

The decorator captures the function's source, file and first line; the
compiled code comes from kjit's C++ pipeline (parse, type, lower to LLVM, JIT)
through ``_kjit.Dispatcher``, whose ``__call__`` is the whole call path.
Globals the body names are resolved here, at compile time, and frozen:
numbers, tuples of numbers and strings become constants; modules, NumPy
functions, dtypes, exception classes and other kjit functions resolve by name.
"""
import builtins
import cmath
import enum
import inspect
import linecache
import math
import os as _os
import operator
import sys
import textwrap
import types as _pytypes

import numpy as np

from kjit import _kjit, serialize
from kjit.sourcetext import ambiguous_lambda, source_matches
from kjit import types as kt
from kjit.errors import _exception_name

__all__ = ["jit", "njit", "prange", "literal_unroll", "tuple_setitem", "Dispatcher"]

_OPTIONS = {"nopython", "nogil", "cache", "parallel", "fastmath", "boundscheck", "error_model",
            "inline", "looplift", "forceobj", "locals", "no_cpython_wrapper", "no_cfunc_wrapper",
            "debug", "_nrt",
            "_cuda"}  # @cuda.jit's code-generation options (kjit/cuda/compiler.py)


def prange(*args):
    """``range`` that ``@jit(parallel=True)`` may run in parallel."""
    return range(*args)


def literal_unroll(container):
    """In a kernel, ``for x in literal_unroll(tup):`` runs the body once per
    element of the tuple, typed for that element; in Python, the tuple."""
    return container


def tuple_setitem(tup, index, value):
    """A copy of ``tup`` with element ``index`` replaced by ``value``
    (Numba's ``numba.cpython.unsafe.tuple.tuple_setitem``). In compiled code
    the value is converted to the element's type, and ``index`` may be
    computed at run time when the elements have one type: in a loop of
    constant length kjit unrolls the loop, so that a tuple of accumulators
    (a wgmma product) stays in registers."""
    n = len(tup)
    if not -n <= index < n:
        raise IndexError("tuple index out of range")
    index %= n
    return tup[:index] + (value,) + tup[index + 1:]


_MODULES = {math: "math", cmath: "cmath", np: "numpy", operator: "operator"}


# The enum classes compiled code has named, by _enum_name: compiled code
# returns a member as its value, which _enum_member turns back into the member.
_ENUM_CLASSES = {}


def _enum_name(cls):
    """An enum class's name in types and argument keys: module.qualname."""
    name = f"{cls.__module__}.{cls.__qualname__}"
    _ENUM_CLASSES[name] = cls
    return name


def _enum_member(name, value):
    cls = _ENUM_CLASSES.get(name)
    return cls(value) if cls is not None else value
_NUMBA_SCALARS = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                  "float16", "float32", "float64", "complex64", "complex128"}


def _array_type_text(v):
    """The signature text of an array type value (kjit's or Numba's
    ``types.float64[:]``): ``float64[:]``, ``int64[:, ::1]``; else None."""
    if not (isinstance(v, kt.Array) or (type(v).__module__.startswith("numba.core.types")
                                        and type(v).__name__ == "Array")):
        return None
    dtype, ndim, layout = str(v.dtype), int(v.ndim), str(v.layout)
    if dtype not in _NUMBA_SCALARS or ndim < 1 or getattr(v, "readonly", False) \
            or getattr(v, "aligned", True) is False:
        return None
    dims = [":"] * ndim
    if layout == "C":
        dims[-1] = "::1"
    elif layout == "F":
        dims[0] = "::1"
    return f"{'bool' if dtype == 'bool' else dtype}[{', '.join(dims)}]"


def _module_name(mod):
    if mod in _MODULES:
        return _MODULES[mod]
    name = mod.__name__
    if name in ("kjit", "numba"):
        return "kjit"
    if name in ("kjit.types", "numba.types", "numba.core.types"):
        return "kjit.types"
    if name in ("kjit.cuda", "numba.cuda") or name.startswith("kjit.cuda."):
        return "kjit.cuda"
    return None


# What the packages built on @jit tell the resolver about their objects: a
# function of a value that returns its (kind, payload), or None for a value
# that is not theirs. kjit.vectorize registers one when it is imported (a
# @vectorize ufunc is its scalar function in compiled code); this module
# imports none of them (tests/layering/check_py_imports.py).
_CLASSIFIERS = []


def register_classifier(classify):
    """Has the resolver ask `classify(value)` about the values it does not
    know itself (after kjit's own rules, before plain Python functions).
    ``classify._kjit_claims``, a dict id(value) -> (value, its @jit
    function), lists the Python functions, builtins, ufuncs and dtypes it
    answers for (as ("jit", function)): the binding reads it instead of
    calling ``classify`` (python_bindings/src/py_globals.cpp); without it,
    such values are classified in Python."""
    if classify not in _CLASSIFIERS:
        _CLASSIFIERS.append(classify)


class _Resolver:
    """Answers the compiler's questions about the names a function uses.
    The binding answers them the same way in C++ for the common kinds of
    values (python_bindings/src/py_globals.cpp) and calls ``classify`` for
    the others: a change here is mirrored there."""

    _mirrored_in_cpp = True  # (not inherited: a subclass is asked in Python)

    def __init__(self, func):
        self.func = func
        self.dispatcher = None  # set by the Dispatcher: the function's own name
        self.globals = func.__globals__
        self.closure = {}
        self._empty_cells = {}  # assigned after the decorator ran: read when compiling
        if func.__closure__:
            for name, cell in zip(func.__code__.co_freevars, func.__closure__):
                try:
                    self.closure[name] = cell.cell_contents
                except ValueError:
                    self._empty_cells[name] = cell

    def __call__(self, name):
        if name in self._empty_cells:
            try:
                self.closure[name] = self._empty_cells[name].cell_contents
                del self._empty_cells[name]
            except ValueError:  # still unassigned: the function itself (below) or a NameError
                pass
        if name in self.closure:
            return self.classify(self.closure[name])
        if name in self.globals:
            return self.classify(self.globals[name])
        if hasattr(builtins, name):
            return self.classify(getattr(builtins, name))
        if name == self.func.__name__ and self.dispatcher is not None:
            # Recursion while the decorator is still compiling: the global
            # is not bound yet.
            return ("jit", self.dispatcher)
        return None

    def classify(self, v):
        if v is None:
            return ("none", None)
        if isinstance(v, (bool, np.bool_)):
            return ("bool", bool(v))
        if isinstance(v, (int, np.integer)):
            return ("int", int(v))
        if isinstance(v, (float, np.floating)):
            return ("float", float(v))
        if isinstance(v, (complex, np.complexfloating)):
            return ("complex", complex(v))
        if isinstance(v, str):
            return ("str", v)
        if isinstance(v, tuple):
            return ("tuple", v)
        if isinstance(v, Dispatcher):
            return ("jit", v)
        builtin = getattr(v, "_kjit_builtin", None)  # kjit/experimental.py's, the kernel language's
        if isinstance(builtin, str):
            return ("function", builtin)
        namespace = getattr(v, "_kjit_module", None)  # cuda.shared, cuda.threadIdx ...
        if isinstance(namespace, str) and not isinstance(v, _pytypes.ModuleType):
            return ("module", namespace)
        if isinstance(v, type) and isinstance(getattr(v, "_kjit_class_id", None), str):
            return ("jitclass", v._kjit_class_id)  # a @jitclass
        declared = getattr(v, "_kjit_declared", None)  # cuda.declare_device
        if isinstance(declared, str) and not isinstance(v, type):
            return ("function", declared)
        if type(v).__name__ == "CUDAKernel" and hasattr(v, "_dispatcher"):
            return ("jit", v._dispatcher)
        if self.dispatcher is not None and v is self.func:
            return ("jit", self.dispatcher)
        if isinstance(v, _pytypes.ModuleType):
            name = _module_name(v)
            return ("module", name) if name else ("unsupported", f"module {v.__name__}")
        if isinstance(v, kt.Type) and not isinstance(v, (kt.Array, kt.UniTuple, kt.Tuple)):
            return ("dtype", v.name)
        array_type = _array_type_text(v)
        if array_type:
            return ("dtype", array_type)  # types.float64[:] (Dict.empty's value_type)
        if type(v).__module__.startswith("numba.core.types") and str(v) in _NUMBA_SCALARS:
            return ("dtype", "bool" if str(v) == "bool" else str(v))  # numba.float32 & co
        if isinstance(v, enum.Enum):
            return ("enum_member", (_enum_name(type(v)), isinstance(v, enum.IntEnum),
                                    ((v.name, self.classify(v.value)),)))
        if isinstance(v, type):
            if issubclass(v, enum.Enum):
                return ("enum_class", (_enum_name(v), issubclass(v, enum.IntEnum),
                                       tuple((name, self.classify(m.value)) for name, m in v.__members__.items())))
            if issubclass(v, np.generic):
                return ("dtype", np.dtype(v).name)
            if issubclass(v, BaseException):
                return ("exception", _exception_name(v))
            if v in (int, float, bool, complex, range, enumerate, zip, tuple, list, dict, set, str):
                return ("function", "builtins." + v.__name__)
            typed = sys.modules.get("kjit.typed")
            if typed is not None and v in (typed.List, typed.Dict):
                return ("function", "kjit.typed." + v.__name__)
            return ("unsupported", f"class {v.__name__}")
        if v is prange:
            return ("function", "kjit.prange")
        if v is literal_unroll:
            return ("function", "kjit.literal_unroll")
        if v is tuple_setitem:
            return ("function", "kjit.tuple_setitem")
        for classify in _CLASSIFIERS:  # the layers above @jit's (a @vectorize ufunc: kjit.vectorize)
            found = classify(v)
            if found is not None:
                return found
        # (NumPy >= 1.25's functions that take part in __array_function__,
        # np.sum ..., are numpy._ArrayFunctionDispatcher objects: functions
        # too, as py_globals.cpp's isArrayFunction says.)
        array_function = type(v).__name__.endswith("_ArrayFunctionDispatcher") and \
            type(v).__module__.startswith("numpy")
        if array_function or isinstance(v, (_pytypes.BuiltinFunctionType, np.ufunc, _pytypes.FunctionType)):
            mod = getattr(v, "__module__", None) or ("numpy" if isinstance(v, np.ufunc) else None)
            name = getattr(v, "__name__", "")
            if v is getattr(builtins, name, None):
                return ("function", "builtins." + name)
            if v is getattr(operator, name, None) and not name.startswith("_"):
                return ("function", "operator." + name)
            if mod == "math" or v is getattr(math, name, None):
                return ("function", "math." + name)
            if mod == "cmath" or v is getattr(cmath, name, None):
                return ("function", "cmath." + name)
            if isinstance(v, np.ufunc) or v is getattr(np, name, None):
                return ("function", "numpy." + name)
            if name in ("prange", "literal_unroll") and (mod or "").startswith("numba"):
                return ("function", "kjit." + name)
            return ("unsupported", f"function {getattr(v, '__qualname__', name)} (not a kjit function: decorate it with @jit)")
        if getattr(type(v), "__name__", "") == "prange":
            return ("function", "kjit.prange")
        if isinstance(v, np.dtype):  # dtype=np.dtype(...), a structured dtype
            name = self._dtype_name(v)
            return ("dtype", name) if name else ("unsupported", f"numpy.dtype {v}")
        cai = None if isinstance(v, np.ndarray) else getattr(v, "__cuda_array_interface__", None)
        if isinstance(cai, dict):
            # A device array (kjit's, or another library's): captured by
            # reference, as Numba does: kernels read and write its memory.
            from kjit.bfloat16_host import dtype_of_typestr
            dtype = dtype_of_typestr(cai["typestr"], v)
            name = self._dtype_name(dtype)
            if name is None:
                return ("unsupported", f"device array of dtype {dtype}")
            shape = tuple(int(n) for n in cai["shape"])
            strides = cai.get("strides")
            if strides is None:
                strides, acc = [], dtype.itemsize
                for n in reversed(shape):
                    strides.insert(0, acc)
                    acc *= max(n, 1)
            ptr, readonly = cai["data"]
            return ("device_array", (name, shape, tuple(int(s) for s in strides), int(ptr or 0), bool(readonly)))
        if isinstance(v, np.ndarray):
            name = self._dtype_name(v.dtype)
            if name is None:
                return ("unsupported", f"numpy.ndarray of {v.ndim} dimensions and dtype {v.dtype}")
            # Frozen, as in Numba: a read-only copy of today's contents (in C
            # order; 0-d arrays stay 0-d).
            return ("array", (name, tuple(v.shape), v.tobytes(order="C")))
        return ("unsupported", type(v).__name__)

    @staticmethod
    def _dtype_name(dtype):
        """The compiler's name of a dtype kernels can use (a scalar's name, a
        record's spec), or None."""
        from kjit.bfloat16_host import is_bfloat16
        from kjit.float8_host import kind_of
        if is_bfloat16(dtype):
            return "bfloat16"
        if kind_of(dtype):
            return kind_of(dtype)
        if dtype.kind in "biufc":
            return dtype.name
        if dtype.fields is None:
            return None
        from kjit.errors import NumbaNotImplementedError
        from kjit.np.numpy_support import from_dtype
        try:
            return from_dtype(dtype).name
        except NumbaNotImplementedError:
            return None


# A kjit function is a _kjit.Dispatcher: its type's call slot is the C++ call
# path (argument types, specialisation lookup or compilation, the call). The
# Python-level conveniences below are attached to that class; subclassing it
# in Python would put the interpreter's generic call machinery back in front.
Dispatcher = _kjit.Dispatcher


def nfkc_identifiers(text):
    """`text` with each identifier written as Python reads it: NFKC-normalised
    (PEP 3131), so that `ﬁle` and `file`, or `ｌｅｎ` and `len`, are one name as
    in Python. Strings and comments are left as they are. (Columns after an
    identifier whose normal form is longer or shorter shift on its line.)"""
    if text.isascii():
        return text
    import io
    import tokenize
    import unicodedata
    lines = text.splitlines(True)
    body = [ln for ln in lines if ln.strip()]
    indent = min((len(ln) - len(ln.lstrip()) for ln in body), default=0)
    names = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(textwrap.dedent(text)).readline):
            if tok.type == tokenize.NAME and not tok.string.isascii():
                norm = unicodedata.normalize("NFKC", tok.string)
                if norm != tok.string:
                    names.append((tok.start[0] - 1, tok.start[1] + indent, tok.string, norm))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return text  # (the parser reports what is wrong with it)
    for row, col, old, norm in sorted(names, reverse=True):
        line = lines[row]
        if line[col:col + len(old)] == old:
            lines[row] = line[:col] + norm + line[col + len(old):]
    return "".join(lines)


def function_text(func):
    """(file name, text, line of the text's first line, source map) of a
    function to compile: its source text, or where there is none (python -c,
    the interactive prompt, exec, a function unpickled in another process)
    or it no longer matches the code object, a text rebuilt from the code
    object's bytecode with a map to the user's positions (kjit.bytecode).
    KJIT_FRONTEND=bytecode uses the bytecode for every function."""
    filename = getattr(getattr(func, "__code__", None), "co_filename", None) or "<unknown>"
    why = None
    if _os.environ.get("KJIT_FRONTEND", "source") != "bytecode":
        carried = getattr(func, "__kjit_source__", None)
        if carried is not None:
            # Unpickled here: the text the sender read (kjit/serialize.py).
            carried_file, text, first = carried
            return carried_file, nfkc_identifiers(text), first, None
        try:
            lines, first = inspect.getsourcelines(func)
            text = "".join(lines)
            if ambiguous_lambda(func, text):
                why = "its lines hold several lambdas with these parameters"
            elif source_matches(func, text):
                return inspect.getsourcefile(func) or filename, nfkc_identifiers(text), first, None
            else:
                why = "its file no longer holds it"
        except (OSError, TypeError) as e:
            why = str(e)
    from kjit import bytecode
    error = None
    try:
        text, entries = bytecode.function_source(func)
    except Exception as e:  # noqa: BLE001 - a bug of the frontend must not take the user's program down
        # Reported when the function compiles, as a parse error would be.
        # (tools/bytecode_fuzz.py calls function_source itself and counts
        # exceptions other than Unsupported as failures.)
        if not isinstance(e, bytecode.Unsupported):
            e = bytecode.Unsupported(f"kjit could not rebuild this function from its bytecode (an error of kjit's: "
                                     f"{type(e).__name__}: {e}); give kjit the source text")
        text, entries = bytecode.stub_source(func), []
        error = bytecode.error_location(func, e, why)
    file_text = "".join(linecache.getlines(filename))
    return filename, text, 1, (filename, file_text, func.__code__.co_firstlineno, entries, error)


def _make_dispatcher(func, options, signatures=(), source=None):
    """The Dispatcher of `func`; `source` = (file name, text) compiles text
    the caller wrote (a @jitclass's constructor) instead of func's own."""
    unknown = set(options) - _OPTIONS
    if unknown:
        raise TypeError(f"unknown @jit option(s): {', '.join(sorted(unknown))}")
    if options.get("forceobj"):
        raise TypeError("forceobj=True is not supported: kjit compiles in nopython mode only")
    if options.get("nopython") is False:
        raise TypeError("nopython=False is not supported: kjit compiles in nopython mode only")
    if source is None:
        filename, text, first, source_map = function_text(func)
    else:
        (filename, text), first, source_map = source, 1, None
    resolver = _Resolver(func)
    d = Dispatcher(func, func.__name__, filename, text, first, resolver, dict(options), source_map)
    d._frontend = "source" if source_map is None else "bytecode"
    resolver.dispatcher = d
    d.py_func = func
    d.targetoptions = dict(options)
    d.__name__ = func.__name__
    d.__qualname__ = getattr(func, "__qualname__", func.__name__)
    d.__doc__ = func.__doc__
    d.__module__ = func.__module__
    d.__wrapped__ = func
    d._eager_signatures = tuple(signatures)
    for sig in signatures:
        d.compile(kt.signature_text(sig))
    return d


def _dispatcher_get(self, obj, objtype=None):
    return self if obj is None else _pytypes.MethodType(self, obj)


def _dispatcher_repr(self):
    return f"<kjit function {self.__qualname__}>"


def _inspect_types(self, file=None):
    """Print (or write to ``file``) the typed IR of every specialisation.
    A function kjit read from its bytecode (it has no source text) says so
    in a first line."""
    if getattr(self, "_frontend", "source") == "bytecode":
        print(f"# {self.__name__}: read from its bytecode", file=file)
    print(self._inspect_types_text(), file=file)


def _inspect_llvm(self, signature=None):
    """The optimised LLVM IR, by signature."""
    code = self._inspect_code(False)
    return code if signature is None else code[signature]


def _inspect_asm(self, signature=None):
    """The host assembly, by signature."""
    code = self._inspect_code(True)
    return code if signature is None else code[signature]


def _dispatcher_reduce(self):
    return serialize.reduce_dispatcher(self, _rebuild_dispatcher)


def _rebuild_dispatcher(key, func, options, sigs):
    """A pickled @jit function, made again here (kjit/serialize.py)."""
    return serialize.rebuild_dispatcher(_make_dispatcher, key, func, options, sigs)


Dispatcher.__reduce__ = _dispatcher_reduce
Dispatcher.__get__ = _dispatcher_get
Dispatcher.__repr__ = _dispatcher_repr
Dispatcher.inspect_types = _inspect_types
Dispatcher.inspect_llvm = _inspect_llvm
Dispatcher.inspect_asm = _inspect_asm


def _signatures(arg):
    return kt.signature_list(arg)


def jit(signature_or_function=None, **options):
    """Compile a function for the CPU (nopython mode).

    ``@jit``, ``@jit(fastmath=True)``, ``@jit("float64(float64[:])")`` and
    ``@jit(["int64(int64)", "float64(float64)"], nogil=True)`` all work, as
    in Numba. Options: nopython (always), nogil, parallel (with prange),
    fastmath, boundscheck, cache.
    """
    if callable(signature_or_function) and not isinstance(signature_or_function, (str, kt.Type, kt.Signature)):
        return _make_dispatcher(signature_or_function, options)
    sigs = _signatures(signature_or_function)

    def wrap(func):
        return _make_dispatcher(func, options, sigs)

    return wrap


def njit(*args, **options):
    """``jit`` with nopython=True (kjit's only mode)."""
    options.setdefault("nopython", True)
    return jit(*args, **options)
