"""Undoing what CPython's code layout adds to a rebuilt function: branches
that end with copies of the statements that follow them, copies of the
implicit `return None`, the `continue` that ends a loop body.
"""
import ast

from kjit.bytecode.nodes import _same



def _terminates(stmts):
    return bool(stmts) and isinstance(stmts[-1], (ast.Return, ast.Raise, ast.Break, ast.Continue))


def _tidy(body, top_level=False):
    """Undo what CPython's code layout adds: an `if` branch that ends with
    the same statements as those following the `if` (CPython copies small
    exit blocks), and the implicit `return None` at the end."""
    out = []
    for k, s in enumerate(body):
        if isinstance(s, ast.If):
            s.body = _tidy(s.body)
            s.orelse = _tidy(s.orelse)
            rest = body[k + 1:]
            n = len(rest)
            if n and _terminates(rest):
                for branch in ("body", "orelse"):
                    stmts = getattr(s, branch)
                    if len(stmts) > n and all(_same(a, b) for a, b in zip(stmts[-n:], rest)):
                        setattr(s, branch, stmts[:-n])
                if not s.body:
                    s.body = [ast.Pass()]
            if len(s.orelse) == 1 and isinstance(s.orelse[0], ast.Pass):
                s.orelse = []
        elif isinstance(s, (ast.For, ast.While)):
            s.body = _tidy_loop(s.body)
            s.orelse = _tidy(s.orelse)
        out.append(s)
    if top_level and out and isinstance(out[-1], ast.Return) and isinstance(out[-1].value, ast.Constant) \
            and out[-1].value.value is None:
        out.pop()
    if top_level:
        out = _fold_implicit_returns(out)
    return out


def _same_return(a, b):
    """Two returns that are one statement of the source: CPython copied it
    (the copy keeps the original's position)."""
    return isinstance(a, ast.Return) and isinstance(b, ast.Return) and _same(a, b) and \
        getattr(a, "lineno", None) is not None and \
        (a.lineno, a.col_offset) == (getattr(b, "lineno", None), getattr(b, "col_offset", None))


def _fold_implicit_returns(body):
    """`if c: A; return` followed by the rest of the function, where the
    `return` is CPython's copy of the implicit one or of the function's last
    `return`: `if c: A else: rest` (how an if/elif/else at the end of a
    function compiles)."""
    for k in range(len(body) - 1, -1, -1):
        s = body[k]
        if not isinstance(s, ast.If):
            continue
        if s.orelse:
            s.orelse = _fold_implicit_returns(s.orelse)
        if not (s.body and len(s.body) > 1 and not s.orelse and k + 1 < len(body)):
            continue
        last, rest = s.body[-1], body[k + 1:]
        if len(rest) > 1 and _same_return(last, rest[-1]):
            s.body = _fold_implicit_returns(s.body[:-1])
            s.orelse = _fold_implicit_returns(rest[:-1])
            body = body[:k + 1] + [rest[-1]]
        elif isinstance(last, ast.Return) and getattr(last, "_implicit", False):
            s.body = _fold_implicit_returns(s.body[:-1])
            s.orelse = _fold_implicit_returns(rest)
            body = body[:k + 1]
    return body


def _tidy_loop(body):
    body = _tidy(body)
    while body and isinstance(body[-1], ast.Continue):
        body = body[:-1]
    # `if c: ...; continue` at the end of a body: the continue is implicit.
    if body and isinstance(body[-1], ast.If):
        for branch in ("body", "orelse"):
            stmts = getattr(body[-1], branch)
            if stmts and isinstance(stmts[-1], ast.Continue) and len(stmts) > 1:
                setattr(body[-1], branch, stmts[:-1])
    return body or [ast.Pass()]
