"""Exceptions raised by kjit.

Every compile error names the user's file, line and column: ``str(exc)`` is
the rendered message (``k.py:12:9: error: ...`` followed by the source line
and a caret), and the first error's location is available as attributes.
The class follows the kind of the first error:

- ``UnsupportedError``: valid Python that kernels do not support;
- ``TypingError``: type inference failed (the name is Numba's);
- ``CompileError``: malformed source and other compile failures.
"""


class KjitError(Exception):
    """Base class of every kjit error."""


# The exception classes compiled code names that are not builtins, by the
# name the compiler knows them by (module.qualname): what a raise of one in a
# kernel or a compiled function raises in Python (the binding's
# exceptionClass()).
_RAISED_CLASSES = {}


def _exception_name(cls):
    """The name compiled code raises exception class ``cls`` by: a builtin's
    own name, else module.qualname, registered."""
    import builtins
    if getattr(builtins, cls.__name__, None) is cls:
        return cls.__name__
    name = f"{cls.__module__}.{cls.__qualname__}"
    _RAISED_CLASSES[name] = cls
    return name


class _LocatedError(KjitError):
    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = list(diagnostics)
        first = next((d for d in self.diagnostics if d.get("severity") == "error"), None)
        first = first or (self.diagnostics[0] if self.diagnostics else {})
        self.msg = first.get("message", message)
        self.filename = first.get("filename")
        self.lineno = first.get("lineno")
        self.col = first.get("col")
        self.end_lineno = first.get("end_lineno")
        self.end_col = first.get("end_col")


class CompileError(_LocatedError):
    """The source could not be compiled (syntax errors and other failures)."""


class UnsupportedError(CompileError):
    """Valid Python that is outside the kernel language."""


class TypingError(CompileError):
    """Type inference failed."""


class NumbaWarning(Warning):
    """Base of kjit's warnings (Numba's name)."""


class PerformanceWarning(NumbaWarning, UserWarning):
    """The code compiles, but is slower than it looks (with the line)."""


# Numba's names, for code ported from Numba (``numba.core.errors``).

#: Numba's name of kjit's PerformanceWarning: the same class.
NumbaPerformanceWarning = PerformanceWarning


class NumbaNotImplementedError(KjitError, NotImplementedError):
    """A type kjit (or Numba) has no kjit type for (``from_dtype`` of a
    structured or string dtype, ``typeof`` of an unsupported value)."""


class NumbaValueError(KjitError, ValueError):
    """A value error, with Numba's name."""


class NumbaTypeError(KjitError, TypeError):
    """A type error, with Numba's name."""


class UnrecognizedOptionsError(KjitError, TypeError, KeyError):
    """A decorator option kjit does not know: a TypeError, and a KeyError
    as Numba's CUDA ufuncs raise it."""

    def __str__(self):  # not KeyError's quoted form
        return str(self.args[0]) if self.args else ""
