"""The bytecode frontend: a function's source rebuilt from its code object.

kjit compiles a function from its source text. Where there is none (``python
-c``, the interactive prompt, ``exec``, a function unpickled in another
process whose sender had no text either) or it no longer matches the code object (the file was edited after
import), ``function_source`` rebuilds the function from its bytecode
(CPython 3.11 to 3.13): the text of an equivalent function and a map from
that text's positions to the positions the code object records, so that
diagnostics still name the user's line and column. The structurer
(decompile.py) says the control flow with if, while and for; where it
cannot, the blocks become the cases of a loop over a block number
(dispatch.py), a form that exists for any control flow.
"""
import dis

from kjit.bytecode.cfg import Unsupported
from kjit.bytecode.decompile import decompile_function
from kjit.bytecode.emit import emit_function


def function_source(func):
    """(text, locations) for `func`, rebuilt from its bytecode.

    `locations` lists (text line, text column, text end line, text end
    column, line, column, end line, end column) tuples, 1-based columns,
    the second half in the file that defined `func`.
    """
    try:
        node = decompile_function(func)
        return emit_function(node)
    except RecursionError:
        # Paths the structurer follows around a cycle it does not read, or
        # nesting deeper than Python's stack: refused, never a crash.
        code = func.__code__
        first = next((i for i in dis.get_instructions(code) if i.opname != "RESUME"), None)
        raise Unsupported("kjit could not rebuild this function's control flow from its bytecode (it nests "
                          "too deeply to follow); give kjit the source text", first) from None


__all__ = ["function_source", "Unsupported"]


def stub_source(func):
    """A def with `func`'s name and parameters and an empty body: the text
    of a function whose bytecode could not be rebuilt (its error is
    reported at compile time)."""
    code = func.__code__
    names = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    k = len(names)
    if code.co_flags & 0x04:
        names.insert(code.co_argcount, "*" + code.co_varnames[k])
        k += 1
    elif code.co_kwonlyargcount:
        names.insert(code.co_argcount, "*")
    if code.co_flags & 0x08:
        names.append("**" + code.co_varnames[k])
    if code.co_name == "<lambda>":
        return f"_ = lambda {', '.join(names)}: None\n"
    return f"def {func.__name__}({', '.join(names)}):\n    pass\n"


def error_location(func, exc, why=None):
    """(message, line, column, end column) of bytecode the frontend could
    not rebuild: the instruction's position in the user's file."""
    code = func.__code__
    ins = getattr(exc, "instr", None)
    pos = getattr(ins, "positions", None)
    line = (pos.lineno if pos is not None and pos.lineno else None) or code.co_firstlineno
    col = (pos.col_offset + 1) if pos is not None and pos.col_offset is not None else 1
    end_col = (pos.end_col_offset + 1) if pos is not None and pos.end_col_offset is not None and \
        pos.end_lineno == pos.lineno else col + 1
    message = str(exc)
    if why:
        message += f" (kjit read {func.__qualname__}() from its bytecode: its source cannot be read: {why})"
    return message, line, col, end_col
