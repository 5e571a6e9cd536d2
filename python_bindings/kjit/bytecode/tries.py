"""`try` statements read back (CPython 3.11).

The CFG gives each `try` a branch at its body's start, taken "when an
exception is raised" (a TryMarker condition): the structurer builds it as
an `if` with the handlers on one side and the body, a TryEnd marker, then
the `else:` clause on the other. The handlers arrive as CPython compiles
them: a test per clause (ExcMatch), the clause's body after it (first an
ExceptAs for `as name`), and a bare `raise` when no clause matched. This
module turns each such `if` into the `try` statement."""
import ast

from kjit.bytecode.cfg import Unsupported
from kjit.bytecode.nodes import ExceptAs, ExcMatch, TryEnd, TryMarker


def _is_not(e, cls):
    return isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not) and isinstance(e.operand, cls)


def _handler(type_, body, at):
    name = None
    if body and isinstance(body[0], ExceptAs):
        name, body = body[0].name, body[1:]
    h = ast.ExceptHandler(type=type_, name=name, body=body or [ast.Pass()])
    for k in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
        setattr(h, k, getattr(type_ if type_ is not None else at, k, getattr(at, k, None)))
    return h


def _handlers(stmts, at):
    """The except clauses of a handler side, in order."""
    if not stmts:
        raise Unsupported("kjit could not rebuild this try statement from its bytecode", None)
    first = stmts[0]
    if isinstance(first, ast.If) and isinstance(first.test, ExcMatch):
        # if <matches>: clause  else: the next clauses (both meet after the try)
        rest = list(first.orelse) + list(stmts[1:])
        return [_handler(first.test.type, first.body, first.test)] + _chain(rest, at)
    if isinstance(first, ast.If) and _is_not(first.test, ExcMatch):
        # if not <matches>: the next clauses  (the clause follows the `if`)
        return [_handler(first.test.operand.type, list(first.orelse) + list(stmts[1:]), first.test.operand)] + \
            _chain(first.body, at)
    return [_handler(None, stmts, at)]  # a bare `except:`


def _chain(stmts, at):
    """What follows a clause that did not match: more clauses, or the bare
    `raise` of an exception no clause takes."""
    if len(stmts) == 1 and isinstance(stmts[0], ast.Raise) and stmts[0].exc is None:
        return []
    return _handlers(stmts, at)


def _split_else(stmts):
    for k, s in enumerate(stmts):
        if isinstance(s, TryEnd):
            return stmts[:k], stmts[k + 1:]
    return stmts, []


def rebuild_tries(stmts):
    """`stmts` with every branch on a TryMarker made a `try` statement (recursively)."""
    return _strip_ends(_rebuild(stmts))


def _strip_ends(stmts):
    """Without the TryEnd markers left (bodies that end the function have no `else:`)."""
    out = []
    for s in stmts:
        if isinstance(s, TryEnd):
            continue
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(s, field, None), list):
                setattr(s, field, _strip_ends(getattr(s, field)))
        for h in getattr(s, "handlers", ()):
            h.body = _strip_ends(h.body)
        out.append(s)
    return out


def _rebuild(stmts):
    out = []
    stmts = list(stmts)
    at = 0
    while at < len(stmts):
        s = stmts[at]
        at += 1
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(s, field, None), list):
                setattr(s, field, _rebuild(getattr(s, field)))
        if isinstance(s, ast.Try):
            for h in s.handlers:
                h.body = _rebuild(h.body)
        if isinstance(s, ast.If) and (isinstance(s.test, TryMarker) or _is_not(s.test, TryMarker)):
            handler_side, normal = (s.body, s.orelse) if isinstance(s.test, TryMarker) else (s.orelse, s.body)
            # A side that ends every path (a return, a raise) was laid out
            # inside the `if`; the other side is then what follows it.
            if not handler_side:
                handler_side, at = _rebuild(stmts[at:]), len(stmts)
            elif not normal:
                normal, at = _rebuild(stmts[at:]), len(stmts)
            body, orelse = _split_else(list(normal))
            node = ast.Try(body=body or [ast.Pass()], handlers=_handlers(list(handler_side), s), orelse=orelse,
                           finalbody=[])
            marker = s.test.operand if _is_not(s.test, TryMarker) else s.test
            for key in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
                setattr(node, key, getattr(marker, key, getattr(s, key, None)))
            out.append(node)
            continue
        out.append(s)
    return out
