"""``@jitclass``: classes whose instances compiled code makes and uses, as
Numba's ``numba.experimental.jitclass``.

    from kjit import float32, int32
    from kjit.experimental import jitclass

    @jitclass([("value", int32), ("array", float32[:])])
    class Bag:
        def __init__(self, value):
            self.value = value
            self.array = np.zeros(value, dtype=np.float32)

        @property
        def size(self):
            return self.array.size

        def increment(self, val):
            for i in range(self.size):
                self.array[i] += val
            return self.array

The spec gives each field's type (a list of (name, type) pairs, a dict, or
the class's annotations). ``__init__``, the methods, the properties' getters
and setters and the static methods are compiled as @njit functions, the
instance first. In compiled code an instance is a reference to its fields
(a change is seen through every reference, as in Numba); from Python,
``Bag(21)`` runs the compiled constructor and gives an instance whose
fields are read and written as attributes and whose methods run compiled.
Python keeps a Python instance's fields in a box that a call reads and, if
the call changed a field, writes back (see docs/language.md, section 16).
"""
import hashlib
import inspect
import itertools

from kjit import types as kt

__all__ = ["jitclass"]

_CLASSES = {}  # id -> the Python class


class _Builtin:
    """A name the constructor's text uses that the compiler implements."""

    def __init__(self, name):
        self._kjit_builtin = name


class _InstanceType:
    """``Cls.class_type.instance_type``: the type of Cls's instances, for
    the spec of a class that holds one (Numba's spelling)."""

    def __init__(self, cls):
        self._kjit_jitclass = cls

    def __repr__(self):
        return f"instance.jitclass.{self._kjit_jitclass.__name__}"


class _ClassType:
    def __init__(self, cls):
        self.instance_type = _InstanceType(cls)
        self.class_name = cls.__name__


def _type_text(t, cls_name, field):
    """The compiler's text of a field's type."""
    if isinstance(t, type) and hasattr(t, "_kjit_class_id"):
        return "jitclass:" + t._kjit_class_id
    inner = getattr(t, "_kjit_jitclass", None)
    if inner is not None:
        return "jitclass:" + inner._kjit_class_id
    if isinstance(t, kt.Type):
        return t.name
    if isinstance(t, str):
        return t
    if type(t).__module__.startswith("numba"):
        return str(t)
    raise TypeError(f"@jitclass {cls_name}: field {field!r} has the type {t!r}, which is not a "
                    "type (use kjit's types: int32, float64[:], ...)")


def _spec_pairs(cls, spec):
    if spec is None:
        pairs = []
    elif isinstance(spec, dict):
        pairs = list(spec.items())
    else:
        pairs = [tuple(p) for p in spec]
        if not all(len(p) == 2 and isinstance(p[0], str) for p in pairs):
            raise TypeError("spec must be a list of (name, type) pairs or a dict")
    named = {n for n, _ in pairs}
    # Annotations name the fields the spec does not (as in Numba).
    for name, t in getattr(cls, "__annotations__", {}).items():
        if name not in named:
            pairs.append((name, t))
    return pairs


def _class_id(cls, field_names, field_types):
    """module.qualname#digest of the fields and the functions' text: argument
    types name the class by it, so compiled code kept on disk (cache=True)
    is not used for a class that has changed since."""
    h = hashlib.sha1(repr((field_names, field_types)).encode())
    for attr, v in sorted(cls.__dict__.items(), key=lambda kv: kv[0]):
        funcs = [v.__func__] if isinstance(v, staticmethod) else \
            [f for f in (v.fget, v.fset) if f] if isinstance(v, property) else \
            [v] if inspect.isfunction(v) else []
        for f in funcs:
            try:
                text = inspect.getsource(f)
            except (OSError, TypeError):
                text = repr((f.__code__.co_code, f.__code__.co_consts))
            h.update(f"{attr}\n{text}".encode())
    base = f"{cls.__module__}.{cls.__qualname__}#{h.hexdigest()[:16]}"
    cid = base
    for k in itertools.count(1):  # the same class defined again in this process
        if cid not in _CLASSES:
            return cid
        cid = f"{base}.{k}"


def _param_text(sig):
    """The constructor's parameter list and its call of __init__."""
    params, args = [], []
    for i, p in enumerate(sig.parameters.values()):
        if i == 0:
            continue  # self
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            raise TypeError("@jitclass __init__ takes positional parameters only (no *args, "
                            "**kwargs or keyword-only ones)")
        if p.default is p.empty:
            params.append(p.name)
        else:
            params.append(f"{p.name}={p.default!r}")
        args.append(p.name)
    return ", ".join(params), ", ".join(["__kjit_self"] + args)


def _build(cls, spec):
    from kjit import _kjit
    from kjit.dispatcher import _make_dispatcher, njit

    if not isinstance(cls, type):
        raise TypeError(f"@jitclass decorates a class, not {cls!r}")
    name = cls.__name__
    pairs = _spec_pairs(cls, spec)
    field_names = [n for n, _ in pairs]
    field_types = [_type_text(t, name, n) for n, t in pairs]
    cid = _class_id(cls, field_names, field_types)

    methods, getters, setters, statics = {}, {}, {}, {}
    init = None
    for attr, v in cls.__dict__.items():
        if isinstance(v, staticmethod):
            statics[attr] = njit(v.__func__)
        elif isinstance(v, property):
            if v.fget is not None:
                getters[attr] = njit(v.fget)
            if v.fset is not None:
                setters[attr] = njit(v.fset)
        elif isinstance(v, classmethod):
            raise TypeError(f"@jitclass {name}: class methods are not supported (as in Numba)")
        elif inspect.isfunction(v):
            if attr == "__init__":
                init = njit(v)
            elif attr not in ("__annotations__",):
                methods[attr] = njit(v)
    for attr in field_names:
        if attr in methods or attr in getters or attr in statics:
            raise TypeError(f"@jitclass {name}: {attr!r} is both a field and a method")

    # The constructor: allocate the instance (fields zeroed), run __init__.
    if init is not None:
        params, call = _param_text(inspect.signature(init.py_func))
        body = f"    __kjit_init({call})\n"
    else:
        params, body = "", ""
    text = (f"def {name}({params}):\n    __kjit_self = __kjit_new()\n{body}"
            "    return __kjit_self\n")
    namespace = {"__kjit_new": _Builtin("kjit.jitclass_new:" + cid), "__kjit_init": init}
    exec(compile(text, f"<jitclass {name}>", "exec"), namespace)
    ctor = _make_dispatcher(namespace[name], {"nopython": True}, source=(f"<jitclass {name}>", text))

    ns = {"__slots__": ("_kjit_box", "__weakref__"), "__module__": cls.__module__,
          "__qualname__": cls.__qualname__, "__doc__": cls.__doc__, "_kjit_class_id": cid,
          "_kjit_ctor": ctor}
    for i, field in enumerate(field_names):
        ns[field] = property(_field_getter(i), _field_setter(i), doc=f"field {field}")
    for attr, d in methods.items():
        ns[attr] = _method(d)
    for attr in set(getters) | set(setters):
        g, s = getters.get(attr), setters.get(attr)
        ns[attr] = property(g and _method(g), s and _method(s))
    for attr, d in statics.items():
        ns[attr] = staticmethod(d)
    out = _JitClassMeta(name, (), ns)
    out.class_type = _ClassType(out)
    out.spec = list(zip(field_names, (t for _, t in pairs)))
    _CLASSES[cid] = out
    _kjit.register_jitclass(cid, name, field_names, field_types, ctor, methods, getters, setters,
                            statics)
    return out


class _JitClassMeta(type):
    """Calling a @jitclass runs its compiled constructor."""

    def __call__(cls, *args, **kwargs):
        return cls._kjit_ctor(*args, **kwargs)


def _field_getter(i):
    def get(self):
        return self._kjit_box[0][i]
    return get


def _field_setter(i):
    def set_(self, value):
        fields = list(self._kjit_box[0])
        fields[i] = value
        self._kjit_box[0] = tuple(fields)
    return set_


def _method(d):
    def call(self, *args, **kwargs):
        return d(self, *args, **kwargs)
    call.__name__ = d.__name__
    call.__doc__ = d.__doc__
    return call


def _wrap(cid, box):
    """The Python instance of class `cid` over `box` (a list of one tuple,
    its fields): what compiled code's instances become in Python."""
    obj = object.__new__(_CLASSES[cid])
    obj._kjit_box = box
    return obj


def jitclass(cls_or_spec=None, spec=None):
    """``@jitclass(spec)``, ``@jitclass`` (fields from annotations) or
    ``jitclass(cls, spec)``, as Numba's."""
    if isinstance(cls_or_spec, type):
        return _build(cls_or_spec, spec)

    def wrap(cls):
        return _build(cls, cls_or_spec if spec is None else spec)
    return wrap
