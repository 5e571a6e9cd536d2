"""The pieces the bytecode frontend builds a function from: markers for
what the stack holds besides expressions, Python `ast` nodes positioned at
the instructions that made them, and the expression builders that turn
jumps into `not`, `and`, `or`, chained comparisons and conditional
expressions.
"""
import ast
import types

from kjit.bytecode.cfg import Unsupported

# -- stack markers -------------------------------------------------------------


class _Null:
    def __repr__(self):
        return "NULL"


NULL = _Null()


SAVED = _Null()  # a value LOAD_FAST_AND_CLEAR saved for a comprehension to restore (3.12+)


class Iter:
    """GET_ITER's result: the iterator over `iterable`."""

    def __init__(self, iterable):
        self.iterable = iterable


class CompAdd(ast.stmt):
    """A comprehension's LIST_APPEND / SET_ADD / MAP_ADD: the element (and
    key) it adds; read back by StackMachine.comprehension."""
    _fields = ("key", "value")

    def __init__(self, key, value):
        super().__init__()
        self.key, self.value = key, value


class TryMarker(ast.expr):
    """The condition of the branch the CFG adds at a `try` body's start: true
    on the way to its handlers (StackMachine, tries.py reads it back)."""
    _fields = ()


class ExcMarker:
    """What PUSH_EXC_INFO pushes: the exception being handled (and the one before)."""


class ExcMatch(ast.expr):
    """CHECK_EXC_MATCH: whether the exception is one of `type`."""
    _fields = ("type",)

    def __init__(self, type_):
        super().__init__()
        self.type = type_


class TryEnd(ast.stmt):
    """Where a `try` body's protected range ends (an `else:` clause follows)."""
    _fields = ()


class ExceptAs(ast.stmt):
    """`except E as name`: the exception stored in `name`."""
    _fields = ("name",)

    def __init__(self, name):
        super().__init__()
        self.name = name


class LoopItem:
    """The value FOR_ITER pushes: stored into the loop's target."""


class UnpackItem:
    """Item `index` of UNPACK_SEQUENCE over `group`."""

    def __init__(self, group, index):
        self.group = group
        self.index = index


class UnpackGroup:
    def __init__(self, value, count, instr):
        self.value = value
        self.targets = [None] * count
        self.instr = instr
        self.parent = None  # (group, index) when nested


class FuncObj:
    """MAKE_FUNCTION's result."""

    def __init__(self, code, defaults, instr):
        self.code = code
        self.defaults = defaults
        self.instr = instr


_BINOPS = {
    "+": ast.Add, "-": ast.Sub, "*": ast.Mult, "/": ast.Div, "//": ast.FloorDiv, "%": ast.Mod,
    "**": ast.Pow, "@": ast.MatMult, "<<": ast.LShift, ">>": ast.RShift, "&": ast.BitAnd,
    "|": ast.BitOr, "^": ast.BitXor,
}
_CMPOPS = {"<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE, "==": ast.Eq, "!=": ast.NotEq}


def _pos(ins):
    p = getattr(ins, "positions", None)
    if p is None or p.lineno is None:
        return {}
    return {"lineno": p.lineno, "end_lineno": p.end_lineno if p.end_lineno is not None else p.lineno,
            "col_offset": p.col_offset if p.col_offset is not None else 0,
            "end_col_offset": p.end_col_offset if p.end_col_offset is not None else 0}


def _at(node, ins, **more):
    for k, v in _pos(ins).items():
        setattr(node, k, v)
    for k, v in more.items():
        setattr(node, k, v)
    return node


def _span(node, first, last):
    """Give `node` the range from `first`'s start to `last`'s end."""
    if getattr(first, "lineno", None) is not None:
        node.lineno, node.col_offset = first.lineno, first.col_offset
    if getattr(last, "end_lineno", None) is not None:
        node.end_lineno, node.end_col_offset = last.end_lineno, last.end_col_offset
    return node


def _same(a, b):
    """Structural equality of two ASTs, positions ignored."""
    return ast.dump(a) == ast.dump(b)


def _const(value, ins):
    if isinstance(value, tuple):
        t = _at(ast.Tuple(elts=[_const(v, ins) for v in value], ctx=ast.Load()), ins)
        t._from_const = True  # f(*t) is f(a, b, ...): how CPython calls with many constants
        return t
    if isinstance(value, frozenset):
        raise Unsupported("set literals are not supported in kernels", ins)
    return _at(ast.Constant(value=value), ins)


def _pos_node(ins):
    """A node-like holder of an instruction's position (for _span)."""
    return types.SimpleNamespace(**_pos(ins))


def _none_to_absent(v):
    if isinstance(v, ast.Constant) and v.value is None:
        return None
    return v


def _same_target(load, store):
    if isinstance(load, ast.Name) and isinstance(store, ast.Name):
        return load.id == store.id
    if isinstance(load, ast.Subscript) and isinstance(store, ast.Subscript):
        return load.value is store.value and load.slice is store.slice
    if isinstance(load, ast.Attribute) and isinstance(store, ast.Attribute):
        return load.value is store.value and load.attr == store.attr
    return False


_INVERSE = {ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}


def _negate(cond):
    if isinstance(cond, ast.UnaryOp) and isinstance(cond.op, ast.Not):
        return cond.operand
    if isinstance(cond, ast.BoolOp) and any(isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.Not)
                                            for v in cond.values):
        op = ast.Or() if isinstance(cond.op, ast.And) else ast.And()
        node = ast.BoolOp(op=op, values=[_negate(v) for v in cond.values])
        return _span(node, cond, cond)
    if isinstance(cond, ast.Compare) and len(cond.ops) == 1 and type(cond.ops[0]) in _INVERSE:
        node = ast.Compare(left=cond.left, ops=[_INVERSE[type(cond.ops[0])]()], comparators=cond.comparators)
        return _span(node, cond, cond)
    node = ast.UnaryOp(op=ast.Not(), operand=cond)
    return _span(node, cond, cond)


def _and(a, b):
    # a < b and b < c  ->  a < b < c (the middle operand evaluated once)
    if isinstance(a, ast.Compare) and isinstance(b, ast.Compare) and b.left is a.comparators[-1]:
        node = ast.Compare(left=a.left, ops=a.ops + b.ops, comparators=a.comparators + b.comparators)
        return _span(node, a, b)
    if isinstance(a, ast.BoolOp) and isinstance(a.op, ast.And):
        last = a.values[-1]
        if isinstance(last, ast.Compare) and isinstance(b, ast.Compare) and b.left is last.comparators[-1]:
            # x and a < b, then b < c: the chain is the last operand
            return _span(ast.BoolOp(op=ast.And(), values=a.values[:-1] + [_and(last, b)]), a, b)
        node = ast.BoolOp(op=ast.And(), values=a.values + [b])
    else:
        node = ast.BoolOp(op=ast.And(), values=[a, b])
    return _span(node, a, b)


def _or(a, b):
    if isinstance(a, ast.BoolOp) and isinstance(a.op, ast.Or):
        node = ast.BoolOp(op=ast.Or(), values=a.values + [b])
    else:
        node = ast.BoolOp(op=ast.Or(), values=[a, b])
    return _span(node, a, b)


def _value_if(cond, yes, no):
    """The value of `yes if cond else no`, as the source most likely said it."""
    if no is cond:
        return _and(cond, yes)
    if yes is cond:
        return _or(cond, no)
    if isinstance(cond, ast.BoolOp) and cond.values and yes is cond.values[-1]:
        if isinstance(cond.op, ast.And):
            return _or(cond, no)
    if isinstance(cond, ast.BoolOp) and cond.values and no is cond.values[-1]:
        if isinstance(cond.op, ast.Or):
            return _and(cond, yes)
    node = ast.IfExp(test=cond, body=yes, orelse=no)
    return _span(node, yes, no)
