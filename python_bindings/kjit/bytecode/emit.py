"""Text for a rebuilt AST, with a map back to the user's positions.

kjit's parser reads text. The bytecode frontend writes the function it
rebuilt as Python text and, for every node, the range of that text next to
the range in the user's file (from ``co_positions``). The parser parses the
text, then moves every node's location through the map (SourceMap in
frontend/), so diagnostics name the user's line and column.
"""
import ast

# Precedences, loosest first (Python's grammar).
_TUPLE, _LAMBDA, _IFEXP, _OR, _AND, _NOT, _CMP, _BOR, _BXOR, _BAND, _SHIFT, _ARITH, _TERM, _FACTOR, \
    _POWER, _ATOM = range(16)

_BIN = {
    ast.Add: ("+", _ARITH), ast.Sub: ("-", _ARITH), ast.Mult: ("*", _TERM), ast.Div: ("/", _TERM),
    ast.FloorDiv: ("//", _TERM), ast.Mod: ("%", _TERM), ast.MatMult: ("@", _TERM),
    ast.Pow: ("**", _POWER), ast.LShift: ("<<", _SHIFT), ast.RShift: (">>", _SHIFT),
    ast.BitOr: ("|", _BOR), ast.BitXor: ("^", _BXOR), ast.BitAnd: ("&", _BAND),
}
_CMP_TEXT = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
             ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}
_UNARY = {ast.USub: ("-", _FACTOR), ast.UAdd: ("+", _FACTOR), ast.Invert: ("~", _FACTOR),
          ast.Not: ("not ", _NOT)}


def _const_text(v):
    if isinstance(v, float):
        if v != v:
            return "(1e999 - 1e999)"
        if v in (float("inf"), float("-inf")):
            return "1e999" if v > 0 else "-1e999"
        return repr(v)
    if isinstance(v, complex):
        if v.real == 0 and not (str(v.real).startswith("-")):
            return repr(v.imag) + "j" if v.imag == v.imag else "(1e999j - 1e999j)"
        return repr(v)
    if v is Ellipsis:
        return "..."
    return repr(v)


def _const_prec(v):
    if isinstance(v, (int, float)) and not isinstance(v, bool) and (v < 0 or str(v).startswith("-")):
        return _FACTOR
    if isinstance(v, complex) and not (v.real == 0 and not str(v.real).startswith("-")):
        return _ATOM  # repr gives parentheses
    return _ATOM


class Emitter:
    def __init__(self):
        self.lines = []
        self.cur = ""
        self.map = []  # (gline, gcol, gendline, gendcol, line, col, endline, endcol), 1-based cols

    # -- output -----------------------------------------------------------------
    def w(self, text):
        self.cur += text

    def nl(self):
        self.lines.append(self.cur)
        self.cur = ""

    def here(self):
        return len(self.lines) + 1, len(self.cur.encode("utf-8")) + 1

    def record(self, node, start, orig=None):
        src = orig if orig is not None else node
        line = getattr(src, "lineno", None)
        if line is None:
            return
        col = getattr(src, "col_offset", None) or 0
        endline = getattr(src, "end_lineno", None) or line
        endcol = getattr(src, "end_col_offset", None)
        if endcol is None:
            endcol = col
        gl, gc = start
        el, ec = self.here()
        self.map.append((gl, gc, el, ec, line, col + 1, endline, endcol + 1))

    # -- statements ---------------------------------------------------------------
    def function(self, node, indent=0):
        for d in node.decorator_list:
            self.w("    " * indent + "@")
            self.expr(d, _ATOM if False else _TUPLE + 1)
            self.nl()
        self.w("    " * indent)
        start = self.here()
        self.w(f"def {node.name}(")
        self.arguments(node.args)
        self.w("):")
        self.record(node, start)
        self.nl()
        self.block(node.body, indent + 1)

    def arguments(self, a):
        parts = []
        n = len(a.args)
        dflt = [None] * (n - len(a.defaults)) + list(a.defaults)
        for arg, d in zip(a.args, dflt):
            parts.append((arg.arg, d))
        first = True

        def sep():
            nonlocal first
            if not first:
                self.w(", ")
            first = False

        for name, d in parts:
            sep()
            self.w(name)
            if d is not None:
                self.w("=")
                self.expr(d, _TUPLE + 1)
        if a.vararg is not None:
            sep()
            self.w("*" + a.vararg.arg)
        elif a.kwonlyargs:
            sep()
            self.w("*")
        for arg in a.kwonlyargs:
            sep()
            self.w(arg.arg)
        if a.kwarg is not None:
            sep()
            self.w("**" + a.kwarg.arg)

    def block(self, stmts, indent):
        for s in stmts:
            self.stmt(s, indent)

    def stmt(self, s, indent, keyword=None):
        pad = "    " * indent
        if isinstance(s, ast.FunctionDef):
            self.function(s, indent)
            return
        self.w(pad)
        start = self.here()
        if isinstance(s, ast.If):
            kw = keyword or "if"
            self.w(kw + " ")
            self.expr(s.test, _TUPLE + 1)
            self.w(":")
            self.record(s, start, _shifted(s.test, len(kw) + 1))
            self.nl()
            self.block(s.body, indent + 1)
            if len(s.orelse) == 1 and isinstance(s.orelse[0], ast.If):
                self.stmt(s.orelse[0], indent, "elif")
            else:
                self.else_clause(s.orelse, indent)
            return
        if isinstance(s, ast.Try):
            self.w("try:")
            self.record(s, start)
            self.nl()
            self.block(s.body or [ast.Pass()], indent + 1)
            for h in s.handlers:
                self.w(pad)
                here = self.here()
                self.w("except")
                if h.type is not None:
                    self.w(" ")
                    if isinstance(h.type, ast.Tuple):
                        self.w("(")
                        self.expr(h.type, _TUPLE)
                        self.w(")")
                    else:
                        self.expr(h.type, _TUPLE + 1)
                if h.name is not None:
                    self.w(" as " + h.name)
                self.w(":")
                self.record(h, here)
                self.nl()
                self.block(h.body or [ast.Pass()], indent + 1)
            self.else_clause(s.orelse, indent)
            return
        if isinstance(s, (ast.While, ast.For)):
            if isinstance(s, ast.While):
                self.w("while ")
                self.expr(s.test, _TUPLE + 1)
                orig = _shifted(s.test, 6)
            else:
                self.w("for ")
                self.target(s.target)
                self.w(" in ")
                self.expr(s.iter, _TUPLE + 1)
                orig = _shifted(s.target, 4)
            self.w(":")
            self.record(s, start, orig)
            self.nl()
            self.block(s.body, indent + 1)
            self.else_clause(s.orelse, indent)
            return
        if isinstance(s, ast.Assign):
            for t in s.targets:
                self.target(t)
                self.w(" = ")
            self.expr(s.value, _TUPLE - 1)  # (`x = yield v` needs none either)
        elif isinstance(s, ast.AugAssign):
            self.target(s.target)
            self.w(" " + _BIN[type(s.op)][0] + "= ")
            self.expr(s.value, _TUPLE)
        elif isinstance(s, ast.Return):
            self.w("return")
            if s.value is not None:
                self.w(" ")
                self.expr(s.value, _TUPLE)
        elif isinstance(s, ast.Delete):
            self.w("del ")
            for i, t in enumerate(s.targets):
                if i:
                    self.w(", ")
                self.target(t)
        elif isinstance(s, ast.Pass):
            self.w("pass")
        elif isinstance(s, ast.Break):
            self.w("break")
        elif isinstance(s, ast.Continue):
            self.w("continue")
        elif isinstance(s, ast.Expr):
            self.expr(s.value, _TUPLE - 1)  # (`yield v` as a statement: no parentheses)
        elif isinstance(s, ast.Raise):
            self.w("raise")
            if s.exc is not None:
                self.w(" ")
                self.expr(s.exc, _TUPLE + 1)
            if s.cause is not None:
                self.w(" from ")
                self.expr(s.cause, _TUPLE + 1)
        elif isinstance(s, ast.Assert):
            self.w("assert ")
            self.expr(s.test, _TUPLE + 1)
            if s.msg is not None:
                self.w(", ")
                self.expr(s.msg, _TUPLE + 1)
        else:
            raise TypeError(f"cannot write {type(s).__name__}")
        self.record(s, start)
        self.nl()

    def else_clause(self, stmts, indent):
        if stmts:
            self.w("    " * indent + "else:")
            self.nl()
            self.block(stmts, indent + 1)

    def target(self, t):
        if isinstance(t, ast.Tuple):
            start = self.here()
            for k, e in enumerate(t.elts):
                if k:
                    self.w(", ")
                if isinstance(e, ast.Tuple):
                    self.w("(")
                    self.target(e)
                    self.w(")")
                else:
                    self.target(e)
            if len(t.elts) == 1:
                self.w(",")
            self.record(t, start)
            return
        self.expr(t, _TUPLE + 1)

    # -- expressions -------------------------------------------------------------
    def expr(self, e, prec):
        """Writes `e`, in parentheses when it binds more loosely than `prec`."""
        mine = self.prec(e)
        paren = mine < prec
        if paren:
            self.w("(")
        start = self.here()
        self._expr(e)
        self.record(e, start)
        if paren:
            self.w(")")

    def prec(self, e):
        if isinstance(e, ast.Yield):
            return _TUPLE - 1  # (parenthesised but as a whole statement or right-hand side)
        if isinstance(e, ast.Tuple):
            return _TUPLE
        if isinstance(e, ast.Lambda):
            return _LAMBDA
        if isinstance(e, ast.IfExp):
            return _IFEXP
        if isinstance(e, ast.BoolOp):
            return _OR if isinstance(e.op, ast.Or) else _AND
        if isinstance(e, ast.UnaryOp):
            return _UNARY[type(e.op)][1]
        if isinstance(e, ast.Compare):
            return _CMP
        if isinstance(e, ast.BinOp):
            return _BIN[type(e.op)][1]
        if isinstance(e, ast.Constant):
            return _const_prec(e.value)
        return _ATOM

    def _expr(self, e):
        if isinstance(e, ast.Name):
            self.w(e.id)
        elif isinstance(e, ast.Constant):
            self.w(_const_text(e.value))
        elif isinstance(e, ast.Tuple):
            for k, x in enumerate(e.elts):
                if k:
                    self.w(", ")
                self.expr(x, _TUPLE + 1)
            if len(e.elts) == 1:
                self.w(",")
            if not e.elts:
                self.w("()")
        elif isinstance(e, ast.List):
            self.w("[")
            for k, x in enumerate(e.elts):
                if k:
                    self.w(", ")
                self.expr(x, _TUPLE + 1)
            self.w("]")
        elif isinstance(e, ast.Dict):
            self.w("{")
            for k, (key, value) in enumerate(zip(e.keys, e.values)):
                if k:
                    self.w(", ")
                self.expr(key, _TUPLE + 1)
                self.w(": ")
                self.expr(value, _TUPLE + 1)
            self.w("}")
        elif isinstance(e, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            self.w({ast.ListComp: "[", ast.GeneratorExp: "("}.get(type(e), "{"))
            if isinstance(e, ast.DictComp):
                self.expr(e.key, _TUPLE + 1)
                self.w(": ")
                self.expr(e.value, _TUPLE + 1)
            else:
                self.expr(e.elt, _TUPLE + 1)
            for g in e.generators:
                self.w(" for ")
                self.expr(g.target, _TUPLE)
                self.w(" in ")
                self.expr(g.iter, _IFEXP + 1)
                for c in g.ifs:
                    self.w(" if ")
                    self.expr(c, _IFEXP + 1)
            self.w({ast.ListComp: "]", ast.GeneratorExp: ")"}.get(type(e), "}"))
        elif isinstance(e, ast.UnaryOp):
            text, p = _UNARY[type(e.op)]
            self.w(text)
            self.expr(e.operand, p)
        elif isinstance(e, ast.BinOp):
            text, p = _BIN[type(e.op)]
            if isinstance(e.op, ast.Pow):
                self.expr(e.left, p + 1)
                self.w(f" {text} ")
                self.expr(e.right, _FACTOR)
            else:
                self.expr(e.left, p)
                self.w(f" {text} ")
                self.expr(e.right, p + 1)
        elif isinstance(e, ast.BoolOp):
            p = self.prec(e)
            word = " or " if isinstance(e.op, ast.Or) else " and "
            for k, x in enumerate(e.values):
                if k:
                    self.w(word)
                self.expr(x, p + 1)
        elif isinstance(e, ast.Compare):
            self.expr(e.left, _CMP + 1)
            for op, x in zip(e.ops, e.comparators):
                self.w(f" {_CMP_TEXT[type(op)]} ")
                self.expr(x, _CMP + 1)
        elif isinstance(e, ast.IfExp):
            self.expr(e.body, _IFEXP + 1)
            self.w(" if ")
            self.expr(e.test, _IFEXP + 1)
            self.w(" else ")
            self.expr(e.orelse, _IFEXP)
        elif isinstance(e, ast.Call) and len(e.args) == 1 and not e.keywords and \
                isinstance(e.args[0], ast.GeneratorExp):  # f(x for x in r): the call's parentheses are its own
            self.expr(e.func, _ATOM)
            self._expr(e.args[0])
        elif isinstance(e, ast.Call):
            self.expr(e.func, _ATOM)
            self.w("(")
            first = True
            for a in e.args:
                if not first:
                    self.w(", ")
                first = False
                self.expr(a, _TUPLE + 1)
            for kw in e.keywords:
                if not first:
                    self.w(", ")
                first = False
                if kw.arg is None:
                    self.w("**")
                    self.expr(kw.value, _TUPLE + 1)
                else:
                    self.w(kw.arg + "=")
                    self.expr(kw.value, _TUPLE + 1)
            self.w(")")
        elif isinstance(e, ast.Starred):
            self.w("*")
            self.expr(e.value, _BOR)
        elif isinstance(e, ast.Attribute):
            if isinstance(e.value, ast.Constant) and isinstance(e.value.value, int):
                self.w("(")
                self.expr(e.value, _TUPLE)
                self.w(")")
            else:
                self.expr(e.value, _ATOM)
            self.w("." + e.attr)
        elif isinstance(e, ast.Subscript):
            self.expr(e.value, _ATOM)
            self.w("[")
            self.index(e.slice)
            self.w("]")
        elif isinstance(e, ast.Slice):
            self.slice(e)
        elif isinstance(e, ast.Yield):
            self.w("yield")
            if e.value is not None:
                self.w(" ")
                self.expr(e.value, _TUPLE)
        elif isinstance(e, ast.Lambda):
            self.w("lambda")
            if e.args.args or e.args.vararg or e.args.kwonlyargs or e.args.kwarg:
                self.w(" ")
                self.arguments(e.args)
            self.w(": ")
            self.expr(e.body, _LAMBDA)
        else:
            raise TypeError(f"cannot write {type(e).__name__}")

    def index(self, s):
        if isinstance(s, ast.Tuple) and s.elts:
            start = self.here()
            for k, x in enumerate(s.elts):
                if k:
                    self.w(", ")
                if isinstance(x, ast.Slice):
                    st = self.here()
                    self.slice(x)
                    self.record(x, st)
                else:
                    self.expr(x, _TUPLE + 1)
            if len(s.elts) == 1:
                self.w(",")
            self.record(s, start)
        elif isinstance(s, ast.Slice):
            st = self.here()
            self.slice(s)
            self.record(s, st)
        else:
            self.expr(s, _TUPLE)

    def slice(self, s):
        if s.lower is not None:
            self.expr(s.lower, _TUPLE + 1)
        self.w(":")
        if s.upper is not None:
            self.expr(s.upper, _TUPLE + 1)
        if s.step is not None:
            self.w(":")
            self.expr(s.step, _TUPLE + 1)

    def text(self):
        if self.cur:
            self.nl()
        return "\n".join(self.lines) + "\n"


class _Shift:
    def __init__(self, node, by):
        self.lineno = getattr(node, "lineno", None)
        self.col_offset = max(0, (getattr(node, "col_offset", 0) or 0) - by)
        self.end_lineno = getattr(node, "end_lineno", None)
        self.end_col_offset = getattr(node, "end_col_offset", None)


def _shifted(node, by):
    """A statement's start guessed from its first expression (`if ` before
    the test): bytecode keeps the expressions' positions, not the keywords'."""
    return _Shift(node, by)


def emit_function(node):
    """(text, map) for a FunctionDef or Lambda (written as a def)."""
    em = Emitter()
    if isinstance(node, ast.Lambda):
        # As inspect gives a lambda's source: a line holding the lambda.
        em.w("_ = ")
        em.expr(node, _TUPLE)
        em.nl()
        return em.text(), em.map
    em.function(node)
    return em.text(), em.map
