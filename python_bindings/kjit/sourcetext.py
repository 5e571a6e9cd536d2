"""A function's source text, checked against its code object: whether
the lines ``inspect`` finds still define the function (the file may have
been edited since), and whether they say which lambda it is. Used where a
function is compiled (kjit.dispatcher) and where it is pickled with its
text (kjit.serialize)."""
import ast as _ast
import inspect
import textwrap


def source_matches(func, text):
    """Whether `text` (read from the file) still defines `func`: the file may
    have been edited since the function was defined. The name and the
    parameters must agree (the body may differ from the bytecode: import
    hooks such as pytest's rewrite it)."""
    code = func.__code__
    try:
        tree = _ast.parse(textwrap.dedent(text))
    except SyntaxError:
        return code.co_name == "<lambda>"  # a lambda's line may be part of a statement
    params = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    for node in _ast.walk(tree):
        if isinstance(node, (_ast.FunctionDef, _ast.Lambda)):
            if isinstance(node, _ast.FunctionDef) and node.name != code.co_name:
                continue
            if isinstance(node, _ast.Lambda) and code.co_name != "<lambda>":
                continue
            a = node.args
            if [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs] == params:
                return True
    return False


def ambiguous_lambda(func, text):
    """Whether `func` is a lambda and `text` (its lines) holds another lambda
    with the same parameters (`{"+": lambda a, b: a + b, "-": lambda a, b:
    a - b}`): the text cannot say which one it is; the bytecode can."""
    code = func.__code__
    if code.co_name != "<lambda>":
        return False
    try:
        tree = _ast.parse(textwrap.dedent(text))
    except SyntaxError:
        return True
    params = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    same = [n for n in _ast.walk(tree) if isinstance(n, _ast.Lambda) and
            [x.arg for x in n.args.posonlyargs + n.args.args + n.args.kwonlyargs] == params]
    return len(same) > 1


def read_source(func):
    """(file name, text, first line) of `func`'s source when it can be read
    and still defines `func` (and says which lambda it is), else None."""
    carried = getattr(func, "__kjit_source__", None)
    if carried is not None:
        return carried
    try:
        lines, first = inspect.getsourcelines(func)
        filename = inspect.getsourcefile(func) or func.__code__.co_filename
    except (OSError, TypeError):
        return None
    text = "".join(lines)
    if ambiguous_lambda(func, text) or not source_matches(func, text):
        return None
    return filename, text, first
