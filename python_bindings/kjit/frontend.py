"""The kernel-language frontend, from Python.

``parse(source, filename, first_line, function)`` reads a module's text or a
function's text (as ``inspect.getsource`` gives it, with the line number of
its first line in the real file) and returns a ``ParsedModule``; errors raise
``kjit.errors.CompileError`` or a subclass, with the location.
"""
from kjit._kjit import ParsedModule, parse

__all__ = ["parse", "ParsedModule"]
