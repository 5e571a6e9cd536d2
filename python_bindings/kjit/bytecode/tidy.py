"""Undoing what CPython's code layout adds to a rebuilt function: branches
that end with copies of the statements that follow them, copies of the
implicit `return None`, the `continue` that ends a loop body.
"""
import ast

from kjit.bytecode.nodes import _negate, _same


def _terminates(stmts):
    return bool(stmts) and isinstance(stmts[-1], (ast.Return, ast.Raise, ast.Break, ast.Continue))


def _tidy(body, top_level=False):
    """Undo what CPython's code layout adds: an `if` branch that ends with
    the same statements as those following the `if` (CPython copies small
    exit blocks), and the implicit `return None` at the end."""
    out = []
    body = _guarded_loops(body)
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


def _jumps(stmts, kinds):
    """Whether `stmts` hold a break or continue (`kinds`) of the loop they
    are the body of."""
    todo = list(stmts)
    while todo:
        n = todo.pop()
        if isinstance(n, kinds):
            return True
        if isinstance(n, (ast.For, ast.While)):
            todo.extend(n.orelse)
        elif isinstance(n, ast.stmt) and not isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            todo.extend(c for c in ast.iter_child_nodes(n) if isinstance(c, ast.stmt))
    return False


def _exit_test(loop):
    """(test, exit statements) of `while True: body; if test: exit`, or None."""
    if not (isinstance(loop, ast.While) and not loop.orelse and isinstance(loop.test, ast.Constant) and
            loop.test.value is True and len(loop.body) >= 2):
        return None
    last = loop.body[-1]
    if not (isinstance(last, ast.If) and not last.orelse and last.body):
        return None
    return last.test, last.body


def _opposite(a, b):
    return _same(_negate(a), b) or _same(a, _negate(b))


def _same_stmts(a, b):
    return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))


def _guarded_loops(body):
    """A while loop whose condition CPython copied to the end of the body in
    a shape the CFG could not join to the guard (a chained comparison in an
    `and`) comes back as a guard and a `while True` that leaves when the
    copy fails; each layout below is `while c: body`:

        if c:                     if not c:               if c:
            while True:               exit                    while True:
                body              while True:                     body
                if not c:             body                        if not c:
                    break             if not c:                       exit
                                          exit                exit

    where `exit` (CPython's copy of what follows the loop) ends in a return
    or raise. A `continue` in the body (which would skip the copy) keeps
    the rebuilt form, as does a `break` where the loop's exits differ."""
    out = []
    k = 0
    while k < len(body):
        s = body[k]
        nxt = body[k + 1] if k + 1 < len(body) else None
        # (1) and (3): the loop inside the guard.
        if isinstance(s, ast.If) and not s.orelse and len(s.body) == 1:
            e = _exit_test(s.body[0])
            if e is not None and _opposite(e[0], s.test) and not _jumps(s.body[0].body[:-1], ast.Continue):
                loop_body = s.body[0].body[:-1]
                brk = len(e[1]) == 1 and isinstance(e[1][0], ast.Break)
                copied = _terminates(e[1]) and _same_stmts(e[1], body[k + 1:k + 1 + len(e[1])]) and \
                    not _jumps(loop_body, ast.Break)
                if brk or copied:
                    out.append(ast.copy_location(ast.While(test=s.test, body=loop_body, orelse=[]), s))
                    k += 1
                    continue
        # (2): the guard leaves, the loop follows.
        if isinstance(s, ast.If) and not s.orelse and _terminates(s.body) and nxt is not None:
            e = _exit_test(nxt)
            if e is not None and _same(e[0], s.test) and _same_stmts(e[1], s.body) and \
                    not _jumps(nxt.body[:-1], (ast.Continue, ast.Break)):
                out.append(ast.copy_location(ast.While(test=_negate(s.test), body=nxt.body[:-1], orelse=[]), s))
                out.extend(s.body)
                k += 2
                continue
        out.append(s)
        k += 1
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
