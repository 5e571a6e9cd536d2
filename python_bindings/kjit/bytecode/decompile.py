"""A function's AST rebuilt from its code object.

The structurer walks the control-flow graph (cfg.py) from the entry, running
each block's instructions on a stack of expressions. A conditional jump
becomes a condition (``and``, ``or`` and chained comparisons are the jumps
that share a target), then an ``if`` whose branches meet at the branch's
immediate post-dominator in the enclosing loop body, or a value (``a if c
else b``, ``a and b``) when the branches only push a value. Loop heads are
``for`` (FOR_ITER) or ``while`` (a condition that leaves the body), else
``while True``; edges to the head are ``continue``, to the loop's follow
``break``. Every node carries the position of the instruction that made it
(``co_positions``), so diagnostics point at the user's line and column.

The result is a ``ast.FunctionDef`` of Python's own ``ast`` module; emit.py
writes it as text with a map from the text's positions to the user's.
"""
import ast
import dis
import sys

from kjit.bytecode.cfg import CFG, PY, Unsupported, is_cond_jump, postdominators

# -- stack markers -------------------------------------------------------------


class _Null:
    def __repr__(self):
        return "NULL"


NULL = _Null()


class Iter:
    """GET_ITER's result: the iterator over `iterable`."""

    def __init__(self, iterable):
        self.iterable = iterable


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


class AssertErr:
    """LOAD_ASSERTION_ERROR."""


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
        return _at(ast.Tuple(elts=[_const(v, ins) for v in value], ctx=ast.Load()), ins)
    if isinstance(value, frozenset):
        raise Unsupported("set literals are not supported in kernels", ins)
    return _at(ast.Constant(value=value), ins)


class _Ctx:
    """Where a statement sequence is: the innermost loop's head and follow,
    and the blocks of its body (the region branches join within)."""

    def __init__(self, parent, region, header=None, follow=None, kind=None):
        self.parent = parent
        self.region = region
        self.header = header
        self.follow = follow
        self.kind = kind
        self.target = None  # a for loop's target, once stored
        self.pdom = None


class Decompiler:
    def __init__(self, code, func_name=None):
        self.code = code
        self.cfg = CFG(code)
        self.name = func_name or code.co_name
        self.kwnames = None
        self.copied = set()   # ids of expressions duplicated with COPY
        self.emitting = set()  # loop heads being emitted
        self.came = None  # the jump instruction that led to the current block
        self._returns = None

    # -- entry ---------------------------------------------------------------
    def function(self):
        code = self.code
        top = _Ctx(None, {b.id for b in self.cfg.reachable})
        body, _ = self.seq(self.cfg.blocks[0], 0, [], top, None)
        body = _tidy(body, top_level=True)
        if not body:
            body = [ast.Pass()]
        return body

    # -- post-dominators per region ---------------------------------------------
    def _ipdom(self, ctx, b):
        if ctx.pdom is None:
            cfg = self.cfg
            region = ctx.region

            def succs(n):
                if n in ("C", "B", "X"):
                    return ["EXIT"]
                blk = cfg.byid[n]
                out = []
                if not blk.succs:
                    out.append("X")
                for s in blk.succs:
                    if ctx.header is not None and s.id == ctx.header.id:
                        out.append("C")
                    elif ctx.follow is not None and s is ctx.follow:
                        out.append("B")
                    elif s.id in region:
                        out.append(s.id)
                    else:
                        out.append("X")
                return out

            nodes = [n for n in region if ctx.header is None or n != ctx.header.id] + ["C", "B", "X"]
            if ctx.header is not None:
                nodes.append(ctx.header.id)
            ctx.pdom = (postdominators(nodes, succs), succs)
        pdom, succs = ctx.pdom
        cands = pdom.get(b.id, set()) - {b.id}
        # The immediate one: the candidate every other candidate post-dominates.
        best = None
        for c in cands:
            if all(o == c or o in pdom.get(c, ()) for o in cands):
                best = c
                break
        return best

    # -- statement sequences ---------------------------------------------------------
    def seq(self, b, idx, stack, ctx, stop, enter_head=False):
        """Statements from block `b` (instruction `idx`) until `stop` (a block,
        or "C"/"B" for the loop's head/follow) or the end of every path.
        Returns (statements, stack at `stop` or None when every path ended)."""
        out = []
        while True:
            if b is None:
                return out, None
            if stop is not None and idx == 0 and (
                    b is stop or (stop == "C" and b is ctx.header) or (stop == "B" and b is ctx.follow)):
                return out, stack
            if ctx.header is not None and b is ctx.header and idx == 0 and not enter_head:
                out.append(self._jump_stmt(ast.Continue()))
                return out, None
            enter_head = False
            if ctx.follow is not None and b is ctx.follow and idx == 0:
                out.append(self._jump_stmt(ast.Break()))
                return out, None
            if idx == 0 and b.id not in ctx.region and ctx.follow is not None and \
                    self._skip_cleanup(b) is ctx.follow:
                out.append(self._jump_stmt(ast.Break(), b))
                return out, None
            if idx == 0 and b.id not in ctx.region and ctx.kind is not None:
                # A break whose jump CPython threaded to where the loop's
                # follow leads (an outer loop's head or follow).
                outer = ctx.parent
                while outer is not None and not (b is outer.header or b is outer.follow):
                    outer = outer.parent
                if outer is not None:
                    out.append(self._jump_stmt(ast.Break()))
                    ctx.threaded = b
                    return out, None
            if idx == 0 and b.id in self.cfg.loops and b.id not in self.emitting:
                stmt, nb, nidx, nstack = self.loop(b, stack, ctx)
                out.append(stmt)
                if nb is None:
                    return out, None
                b, idx, stack = nb, nidx, nstack
                continue
            res = self.run(b, idx, stack, out, ctx)
            kind = res[0]
            if kind == "end":
                return out, None
            if kind == "goto":
                b, idx, stack = res[1], res[2], res[3]
                continue
            # A condition.
            _, cond, (tb, ti, ts), (fb, fi, fs), start = res
            assert_stmt = self._assert(cond, (tb, ti, ts), (fb, fi, fs), ctx)
            if assert_stmt is not None:
                stmt, (b, idx, stack) = assert_stmt
                out.append(stmt)
                continue
            join = self._ipdom(ctx, start)
            if join in ("X", None, "EXIT"):
                jb = None
            elif join == "C":
                jb = "C"
            elif join == "B":
                jb = "B"
            else:
                jb = self.cfg.byid[join]
            if jb is None and id(cond) in self.copied:
                # A value (`a and b`, `a < b < c`) whose paths each return it:
                # CPython copied the `return` into both.
                tstmts, _ = self.seq(tb, ti, ts, ctx, None)
                fstmts, _ = self.seq(fb, fi, fs, ctx, None)
                if len(tstmts) == 1 and len(fstmts) == 1 and isinstance(tstmts[0], ast.Return) and \
                        isinstance(fstmts[0], ast.Return) and tstmts[0].value is not None and \
                        fstmts[0].value is not None:
                    value = _value_if(cond, tstmts[0].value, fstmts[0].value)
                    out.append(_span(ast.Return(value=value), tstmts[0], value))
                    return out, None
            st, sf = self._short(tb, ti, ts, ctx), self._short(fb, fi, fs, ctx)
            if jb is None or (jb in ("C", "B") and (st or sf) and not (st and sf)):
                # No join: one branch goes inside the `if`, the other follows.
                # Inside: an explicit break/continue, else the branch laid out
                # first (the source's `if` body follows its test).
                nt, nf = self._natural(tb, ti, ctx), self._natural(fb, fi, ctx)
                if st and sf:
                    inside_t = st == "B" or sf != "B"
                elif st or sf:
                    inside_t = bool(st)
                elif nt != nf:
                    inside_t = nf  # the end of the loop's body follows the `if`
                elif self._bare_return(tb, ti) != self._bare_return(fb, fi):
                    inside_t = self._bare_return(fb, fi)  # a copy of the function's last return
                else:
                    inside_t = tb is not None and (fb is None or (tb.start, ti) <= (fb.start, fi))
                if not inside_t:
                    cond = _negate(cond)
                    (tb, ti, ts), (fb, fi, fs) = (fb, fi, fs), (tb, ti, ts)
                body, _ = self.seq(tb, ti, ts, ctx, None)
                out.append(_span(ast.If(test=cond, body=body or [ast.Pass()], orelse=[]), cond, cond))
                b, idx, stack = fb, fi, fs
                continue
            tstmts, tstack = self.seq(tb, ti, ts, ctx, jb)
            fstmts, fstack = self.seq(fb, fi, fs, ctx, jb)
            if tstack is not None and fstack is not None and (
                    len(tstack) != len(fstack) or any(x is not y for x, y in zip(tstack, fstack))):
                # The branches push a value: an expression.
                if tstmts or fstmts or len(tstack) != len(fstack) or \
                        any(x is not y for x, y in zip(tstack[:-1], fstack[:-1])):
                    raise Unsupported("kjit could not rebuild an expression from this bytecode",
                                      start.instrs[-1])
                stack = tstack[:-1] + [_value_if(cond, tstack[-1], fstack[-1])]
                if jb in ("C", "B"):
                    raise Unsupported("kjit could not rebuild an expression from this bytecode",
                                      start.instrs[-1])
                b, idx = jb, 0
                continue
            if not tstmts and fstmts:
                cond = _negate(cond)
                tstmts, fstmts = fstmts, []
            out.append(_span(ast.If(test=cond, body=tstmts or [ast.Pass()], orelse=fstmts), cond, cond))
            stack = tstack if tstack is not None else fstack
            if stack is None:
                return out, None
            if jb == "C":
                if stop == "C":
                    return out, stack
                out.append(ast.Continue())
                return out, None
            if jb == "B":
                if stop == "B":
                    return out, stack
                out.append(ast.Break())
                return out, None
            b, idx = jb, 0

    def _jump_stmt(self, node, blk=None):
        """A break or continue, at the position of the jump that made it."""
        ins = self.came
        if blk is not None:
            jumps = [i for i in blk.instrs if i.opname.startswith("JUMP")]
            ins = jumps[-1] if jumps else ins
        if ins is not None:
            _at(node, ins)
        self.came = None
        return node

    def _natural(self, b, idx, ctx):
        """Whether the path at `b` is the jump back at the end of the loop."""
        if b is None or ctx.header is None:
            return False
        ops = [i.opname for i in b.instrs[idx:] if i.opname not in ("NOP",)]
        return len(ops) == 1 and b.target is ctx.header and self._natural_end(b, ctx)

    def _bare_return(self, b, idx):
        """Whether the path at `b` only returns a constant that other paths
        return too: a copy CPython made of the function's last `return`."""
        if b is None:
            return False
        ins = [i for i in b.instrs[idx:] if i.opname not in ("POP_TOP", "NOP")]
        if [i.opname for i in ins] not in (["RETURN_CONST"], ["LOAD_CONST", "RETURN_VALUE"]):
            return False
        if self._returns is None:
            self._returns = {}
            instrs = self.cfg.instrs
            for k, i in enumerate(instrs):
                if i.opname == "RETURN_CONST":
                    key = repr(i.argval)
                elif i.opname == "RETURN_VALUE" and k and instrs[k - 1].opname == "LOAD_CONST":
                    key = repr(instrs[k - 1].argval)
                else:
                    continue
                self._returns[key] = self._returns.get(key, 0) + 1
        return self._returns.get(repr(ins[0].argval), 0) >= 2

    def _terminal(self, b, ctx):
        """Whether every path from `b` ends in a return or raise without
        reaching the loop's head, its follow or another loop."""
        seen, todo = set(), [b]
        while todo:
            n = todo.pop()
            if n.id in seen:
                continue
            seen.add(n.id)
            if n.id in self.cfg.loops or (ctx.header is not None and n is ctx.header) or \
                    (ctx.follow is not None and n is ctx.follow):
                return False
            if n.id in ctx.region and ctx.header is not None:
                return False
            todo.extend(n.succs)
        return True

    @staticmethod
    def _skip_cleanup(b):
        """The block a break lands in: past the block that pops the loop's
        iterator and jumps forward."""
        for _ in range(20):
            ops = [i.opname for i in b.instrs if i.opname not in ("POP_TOP", "NOP")]
            if not ops and b.fall is not None:
                b = b.fall
            elif len(ops) == 1 and ops[0].startswith("JUMP") and b.target is not None:
                b = b.target
            else:
                break
        return b

    def _natural_end(self, b, ctx):
        """Whether `b` is the last jump back to the loop's head in the
        layout: the end of the body, not a `continue`."""
        h = ctx.header
        srcs = [p for p in h.preds if p.id in ctx.region and p.start >= h.start]
        return bool(srcs) and b is max(srcs, key=lambda p: p.start)

    def _short(self, b, idx, stack, ctx):
        """Whether the path at `b` is one jump-only statement (break,
        continue, return of a constant or name)."""
        if b is None:
            return None
        if idx == 0 and ctx.header is not None and b is ctx.header:
            return "C"
        if idx == 0 and ctx.follow is not None and b is ctx.follow:
            return "B"
        ins = b.instrs[idx:]
        ops = [i.opname for i in ins if i.opname != "POP_TOP"]
        if len(ops) == 1 and ops[0].startswith("JUMP") and b.target is not None:
            t = b.target
            if ctx.header is not None and t is ctx.header and not self._natural_end(b, ctx):
                return "C"
            if ctx.follow is not None and t is ctx.follow:
                return "B"
        return None

    def _assert(self, cond, t, f, ctx):
        """`assert c, msg`: the false branch raises AssertionError."""
        tb = t[0]
        if tb is not None and t[1] == 0 and tb.instrs and tb.instrs[0].opname == "LOAD_ASSERTION_ERROR":
            cond, t, f = _negate(cond), f, t
        fb, fi, fs = f
        if fb is None or fi != 0 or not fb.instrs or fb.instrs[0].opname != "LOAD_ASSERTION_ERROR":
            return None
        tmp = []
        res = self.run(fb, 0, list(fs), tmp, ctx)
        if res[0] != "end" or len(tmp) != 1 or not isinstance(tmp[0], ast.Raise):
            return None
        exc = tmp[0].exc
        msg = None
        if isinstance(exc, ast.Call) and isinstance(exc.func, ast.Name) and exc.func.id == "AssertionError":
            msg = exc.args[0] if exc.args else None
        elif not (isinstance(exc, ast.Name) and exc.id == "AssertionError"):
            return None
        node = ast.Assert(test=cond, msg=msg)
        _span(node, cond, msg if msg is not None else cond)
        return node, t

    # -- loops ---------------------------------------------------------------------
    def loop(self, h, stack, ctx):
        cfg = self.cfg
        body_ids = cfg.loops[h.id]
        # The follow: where the loop's paths meet after it, in the enclosing body.
        j = self._ipdom(ctx, h)
        while j not in (None, "X", "EXIT", "C", "B") and j in body_ids:
            j = self._ipdom(ctx, cfg.byid[j])
        follow = None
        if j == "C":
            follow = ctx.header
        elif j == "B":
            follow = ctx.follow
        elif j not in (None, "X", "EXIT"):
            follow = cfg.byid[j]
            fb, fi, _ = self._resolve(follow, [])
            if fi == 0:
                follow = fb
        breaks = set()
        for bid in body_ids:
            blk = cfg.byid[bid]
            if blk is h:
                continue
            for s in blk.succs:
                if s.id not in body_ids and not self._terminal(s, _Ctx(ctx, body_ids, h, None)):
                    breaks.add(self._skip_cleanup(s).id)
        self.emitting.add(h.id)
        try:
            last = h.instrs[-1]
            if last.opname == "FOR_ITER" and len(h.instrs) == 1:
                if not stack or not isinstance(stack[-1], Iter):
                    raise Unsupported("kjit could not rebuild this loop from its bytecode", last)
                it = stack[-1]
                outer_stack = stack[:-1]
                exit_b = h.target
                exit_idx = 0
                if exit_b.instrs and exit_b.instrs[0].opname == "END_FOR":
                    exit_idx = 1
                    if PY >= (3, 13) and len(exit_b.instrs) > 1 and exit_b.instrs[1].opname == "POP_TOP":
                        exit_idx = 2
                if follow is None and not breaks:
                    follow = exit_b if exit_idx == 0 else None
                elif follow is None and len(breaks) == 1:
                    follow = cfg.byid[next(iter(breaks))]
                body_ctx = _Ctx(ctx, body_ids, h, follow, "for")
                body_ctx.threaded = None
                body, _ = self.seq(h.fall, 0, stack + [LoopItem()], body_ctx, None)
                target = body_ctx.target
                if target is None:
                    raise Unsupported("kjit could not find this for loop's target in its bytecode", last)
                node = ast.For(target=target, iter=it.iterable, body=_tidy_loop(body), orelse=[])
                _span(node, target, it.iterable)
                node.lineno = getattr(it.iterable, "lineno", getattr(target, "lineno", None))
                after_stack = outer_stack
                exit_pos = (exit_b, exit_idx)
            else:
                res = self.run(h, 0, list(stack), [], ctx, probe=True)
                if res[0] == "cond":
                    _, cond, (tb, ti, ts), (fb, fi, fs), _ = res
                    t_in, f_in = tb is not None and tb.id in body_ids, fb is not None and fb.id in body_ids
                    if t_in and not f_in:
                        pass
                    elif f_in and not t_in:
                        cond = _negate(cond)
                        (tb, ti, ts), (fb, fi, fs) = (fb, fi, fs), (tb, ti, ts)
                    else:
                        cond = None
                else:
                    cond = None
                if cond is not None:
                    exit_b, exit_idx = fb, fi
                    if follow is None and not breaks:
                        follow = exit_b if exit_idx == 0 else None
                    elif follow is None and len(breaks - {exit_b.id}) == 1:
                        follow = cfg.byid[next(iter(breaks - {exit_b.id}))]
                    body_ctx = _Ctx(ctx, body_ids, h, follow, "while")
                    body_ctx.threaded = None
                    body, _ = self.seq(tb, ti, ts, body_ctx, None)
                    node = _span(ast.While(test=cond, body=_tidy_loop(body), orelse=[]), cond, cond)
                    after_stack = fs
                    exit_pos = (exit_b, exit_idx)
                else:
                    if follow is None and len(breaks) == 1:
                        follow = cfg.byid[next(iter(breaks))]
                    body_ctx = _Ctx(ctx, body_ids, h, follow, "while")
                    body_ctx.threaded = None
                    body, _ = self.seq(h, 0, stack, body_ctx, None, enter_head=True)
                    true = _at(ast.Constant(value=True), h.instrs[0])
                    node = _span(ast.While(test=true, body=_tidy_loop(body), orelse=[]), true, true)
                    after_stack = stack
                    exit_pos = None
            # The else clause: the normal exit, when it is not the follow.
            if exit_pos is not None:
                eb, ei = exit_pos
                if follow is not None and eb is follow:
                    return node, eb, ei, after_stack
                if follow is None and not breaks and body_ctx.threaded is None:
                    # No break: what follows the loop is the exit itself.
                    return node, eb, ei, after_stack
                orelse, st = self.seq(eb, ei, after_stack, ctx, follow)
                node.orelse = orelse
            nxt = follow if follow is not None else body_ctx.threaded
            if nxt is None:
                return node, None, 0, None
            return node, nxt, 0, after_stack
        finally:
            self.emitting.discard(h.id)

    # -- one block ---------------------------------------------------------------------
    def run(self, b, idx, stack, out, ctx, probe=False):
        """Runs block `b` from instruction `idx`. Returns ("goto", block, idx,
        stack), ("end",) or ("cond", expr, true-exit, false-exit, start)
        where an exit is (block, idx, stack)."""
        start = b
        while True:
            ins_list = b.instrs
            k = idx
            while k < len(ins_list):
                ins = ins_list[k]
                op = ins.opname
                if op == "FOR_ITER":
                    raise Unsupported("kjit could not rebuild this loop from its bytecode", ins)
                if is_cond_jump(ins):
                    if k != len(ins_list) - 1:
                        raise Unsupported("unexpected jump in bytecode", ins)
                    if probe and out:
                        return ("stmts",)
                    return self.condition(b, stack, ctx, start)
                if op in ("JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP",
                          "JUMP_NO_INTERRUPT", "JUMP_ABSOLUTE"):
                    self.came = ins
                    return ("goto", b.target, 0, stack)
                done = self.step(ins, stack, out, ctx)
                if probe and out:
                    return ("stmts",)
                if done:
                    return ("end",)
                k += 1
            nxt = b.fall
            if nxt is None:
                return ("end",)
            self.came = None
            return ("goto", nxt, 0, stack)

    # -- conditions -----------------------------------------------------------------------
    def _cond_of(self, b, stack):
        """The condition at the end of block `b` (its last instruction),
        with its two exits: (expr, (tblock, tstack), (fblock, fstack))."""
        ins = b.instrs[-1]
        op = ins.opname.replace("_FORWARD", "").replace("_BACKWARD", "")
        v = stack.pop()
        rest = stack
        if op in ("POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE"):
            cond = v
            jump_when = op.endswith("TRUE")
            t, f = (b.target, list(rest)), (b.fall, list(rest))
            if not jump_when:
                t, f = f, t
            return cond, t, f
        if op in ("POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE"):
            none = _at(ast.Constant(value=None), ins)
            cond = _span(ast.Compare(left=v, ops=[ast.Is()], comparators=[none]), v, v)
            _at(cond, ins) if not hasattr(v, "lineno") else None
            t, f = (b.target, list(rest)), (b.fall, list(rest))
            if op.endswith("NOT_NONE"):
                cond = _span(ast.Compare(left=v, ops=[ast.IsNot()], comparators=[none]), v, v)
            return cond, t, f
        if op in ("JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP"):
            self.copied.add(id(v))
            kept = list(rest) + [v]
            if op == "JUMP_IF_TRUE_OR_POP":
                return v, (b.target, kept), (b.fall, list(rest))
            return v, (b.fall, list(rest)), (b.target, kept)
        raise Unsupported(f"unsupported jump {ins.opname}", ins)

    def _resolve(self, blk, stack, ctx=None):
        """Skips cleanup: blocks that only pop copies or jump (a jump to a
        loop's head or follow stays: it is a break or continue)."""
        idx = 0
        seen = 0
        while blk is not None and seen < 50:
            seen += 1
            ins = blk.instrs
            k = idx
            while k < len(ins) and ins[k].opname == "POP_TOP" and stack and (
                    id(stack[-1]) in self.copied or stack[-1] is NULL):
                stack = stack[:-1]
                k += 1
            if k < len(ins) and ins[k].opname in ("JUMP_FORWARD",) and blk.target is not None:
                loops = []
                c = ctx
                while c is not None:
                    loops += [c.header, c.follow]
                    c = c.parent
                if any(blk.target is x for x in loops if x is not None):
                    return blk, k, stack
                blk, idx = blk.target, 0
                continue
            if k == len(ins) and blk.fall is not None and k > idx:
                blk, idx = blk.fall, 0
                continue
            return blk, k, stack
        return blk, idx, stack

    def _pure(self, blk, idx, stack, ctx=None):
        """Runs `blk` as a condition block: no statements, ends in a
        conditional jump. Returns (cond, t, f) with t/f = (block, idx, stack)
        resolved, or None."""
        if blk is None or blk.id in self.cfg.loops:
            return None
        ins = blk.instrs
        if not is_cond_jump(ins[-1]):
            return None
        st = list(stack)
        out = []
        try:
            for i in ins[idx:-1]:
                if self.step(i, st, out, None) or out:
                    return None
        except Unsupported:
            return None
        cond, t, f = self._cond_of(blk, st)
        return cond, self._resolve(*t, ctx), self._resolve(*f, ctx)

    @staticmethod
    def _eq(a, b):
        if a[0] is b[0] and a[1] == b[1] and len(a[2]) == len(b[2]):
            return True
        # Copies of the same tail (CPython duplicates small exit blocks).
        if a[0] is None or b[0] is None or len(a[2]) != len(b[2]):
            return False
        ia, ib = a[0].instrs[a[1]:], b[0].instrs[b[1]:]
        if len(ia) != len(ib) or not ia or ia[-1].opname not in ("RETURN_VALUE", "RETURN_CONST"):
            return False
        return all(x.opname == y.opname and x.argval == y.argval for x, y in zip(ia, ib)) and \
            a[0].fall is None and b[0].fall is None

    def condition(self, b, stack, ctx, start):
        cond, t, f = self._cond_of(b, list(stack))
        t, f = self._resolve(*t, ctx), self._resolve(*f, ctx)
        changed = True
        while changed:
            changed = False
            for side in ("t", "f"):
                nxt = t if side == "t" else f
                if nxt[0] is None or nxt[1] != 0 or len(nxt[0].preds) == 0:
                    continue
                if ctx is not None and ((ctx.header is not None and nxt[0] is ctx.header)
                                        or (ctx.follow is not None and nxt[0] is ctx.follow)):
                    continue
                p = self._pure(*nxt, ctx)
                if p is None:
                    continue
                c1, t1, f1 = p
                if side == "t" and self._eq(f1, f):       # c and c1
                    cond, t, f = _and(cond, c1), t1, f
                elif side == "t" and self._eq(t1, f):     # not c or c1
                    cond, t, f = _or(_negate(cond), c1), t1, f1
                elif side == "f" and self._eq(t1, t):     # c or c1
                    cond, t, f = _or(cond, c1), t, f1
                elif side == "f" and self._eq(f1, t):     # not c and c1
                    cond, t, f = _and(_negate(cond), c1), t1, f1
                else:
                    continue
                changed = True
                break
        return ("cond", cond, t, f, start)

    # -- instructions -------------------------------------------------------------------------
    def step(self, ins, stack, out, ctx):
        """Runs one instruction; returns True when the path ends here."""
        op = ins.opname
        arg = ins.arg
        push = stack.append

        def pop():
            if not stack:
                raise Unsupported("kjit could not follow the stack in this bytecode", ins)
            return stack.pop()

        if op in ("NOP", "RESUME", "PRECALL", "MAKE_CELL", "COPY_FREE_VARS", "EXTENDED_ARG",
                  "CACHE", "NOT_TAKEN", "TO_BOOL", "END_FOR"):
            return False
        if op == "LOAD_CONST" or op == "LOAD_SMALL_INT":
            push(_const(ins.argval, ins) if not hasattr(ins.argval, "co_code") else ins.argval)
        elif op == "RETURN_CONST":
            node = _at(ast.Return(value=_const(ins.argval, ins)), ins)
            node._implicit = ins.argval is None and self._copied_position(ins, 1)
            out.append(node)
            return True
        elif op in ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_DEREF", "LOAD_CLOSURE", "LOAD_NAME",
                    "LOAD_FAST_BORROW", "LOAD_CLASSDEREF"):
            push(_at(ast.Name(id=ins.argval, ctx=ast.Load()), ins))
        elif op in ("LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW"):
            a, b = ins.argval
            push(_at(ast.Name(id=a, ctx=ast.Load()), ins))
            push(_at(ast.Name(id=b, ctx=ast.Load()), ins))
        elif op == "LOAD_GLOBAL":
            if arg is not None and arg & 1:
                if PY >= (3, 13):
                    push(_at(ast.Name(id=ins.argval, ctx=ast.Load()), ins))
                    push(NULL)
                    return False
                push(NULL)
            push(_at(ast.Name(id=ins.argval, ctx=ast.Load()), ins))
        elif op == "PUSH_NULL":
            push(NULL)
        elif op == "LOAD_ASSERTION_ERROR":
            push(_at(ast.Name(id="AssertionError", ctx=ast.Load()), ins))
        elif op in ("LOAD_ATTR", "LOAD_METHOD"):
            obj = pop()
            name = ins.argval
            node = _span(_at(ast.Attribute(value=obj, attr=name, ctx=ast.Load()), ins), obj, _pos_node(ins))
            method = op == "LOAD_METHOD" or (PY >= (3, 12) and arg is not None and arg & 1)
            if method:
                if PY >= (3, 13):
                    push(node)
                    push(NULL)
                    return False
                push(NULL)
            push(node)
        elif op in ("STORE_FAST", "STORE_DEREF", "STORE_GLOBAL", "STORE_NAME"):
            v = pop()
            self.depth = len(stack)
            self.store(_at(ast.Name(id=ins.argval, ctx=ast.Store()), ins), v, out, ctx, ins)
        elif op in ("STORE_FAST_STORE_FAST",):
            a, b = ins.argval
            v = pop()
            self.store(_at(ast.Name(id=a, ctx=ast.Store()), ins), v, out, ctx, ins)
            v = pop()
            self.store(_at(ast.Name(id=b, ctx=ast.Store()), ins), v, out, ctx, ins)
        elif op == "STORE_FAST_LOAD_FAST":
            a, b = ins.argval
            v = pop()
            self.store(_at(ast.Name(id=a, ctx=ast.Store()), ins), v, out, ctx, ins)
            push(_at(ast.Name(id=b, ctx=ast.Load()), ins))
        elif op == "STORE_SUBSCR":
            index = pop()
            container = pop()
            v = pop()
            tgt = _span(ast.Subscript(value=container, slice=index, ctx=ast.Store()), container, _pos_node(ins))
            self.store(tgt, v, out, ctx, ins)
        elif op == "STORE_SLICE":
            stop_ = pop()
            start_ = pop()
            container = pop()
            v = pop()
            sl = ast.Slice(lower=_none_to_absent(start_), upper=_none_to_absent(stop_), step=None)
            _span(sl, start_, stop_)
            tgt = _span(ast.Subscript(value=container, slice=sl, ctx=ast.Store()), container, _pos_node(ins))
            self.store(tgt, v, out, ctx, ins)
        elif op == "STORE_ATTR":
            obj = pop()
            v = pop()
            tgt = _span(_at(ast.Attribute(value=obj, attr=ins.argval, ctx=ast.Store()), ins), obj, _pos_node(ins))
            self.store(tgt, v, out, ctx, ins)
        elif op == "BINARY_OP":
            rhs = pop()
            lhs = pop()
            sym = ins.argrepr
            inplace = sym.endswith("=") and sym not in ("==",)
            base = sym[:-1] if inplace else sym
            if base not in _BINOPS:
                raise Unsupported(f"unsupported operator {sym}", ins)
            node = _at(ast.BinOp(left=lhs, op=_BINOPS[base](), right=rhs), ins)
            node._inplace = inplace
            push(node)
        elif op in ("BINARY_ADD", "BINARY_SUBTRACT"):
            raise Unsupported(f"unsupported instruction {op}", ins)
        elif op in ("UNARY_NEGATIVE", "UNARY_POSITIVE", "UNARY_INVERT", "UNARY_NOT"):
            v = pop()
            uop = {"UNARY_NEGATIVE": ast.USub, "UNARY_POSITIVE": ast.UAdd, "UNARY_INVERT": ast.Invert,
                   "UNARY_NOT": ast.Not}[op]()
            push(_at(ast.UnaryOp(op=uop, operand=v), ins))
        elif op == "CALL_INTRINSIC_1" and ins.argrepr != "INTRINSIC_LIST_TO_TUPLE":
            v = pop()
            if ins.argrepr == "INTRINSIC_UNARY_POSITIVE":
                push(_at(ast.UnaryOp(op=ast.UAdd(), operand=v), ins))
            else:
                raise Unsupported("this construct (%s) is not supported in kjit functions read "
                                  "from bytecode" % ins.argrepr, ins)
        elif op == "COMPARE_OP":
            rhs = pop()
            lhs = pop()
            sym = str(ins.argval)
            sym = sym[5:-1] if sym.startswith("bool(") else sym
            push(_at(ast.Compare(left=lhs, ops=[_CMPOPS[sym]()], comparators=[rhs]), ins))
        elif op == "IS_OP":
            rhs = pop()
            lhs = pop()
            push(_at(ast.Compare(left=lhs, ops=[ast.IsNot() if arg else ast.Is()], comparators=[rhs]), ins))
        elif op == "CONTAINS_OP":
            rhs = pop()
            lhs = pop()
            push(_at(ast.Compare(left=lhs, ops=[ast.NotIn() if arg else ast.In()], comparators=[rhs]), ins))
        elif op == "BINARY_SUBSCR":
            index = pop()
            container = pop()
            push(_span(_at(ast.Subscript(value=container, slice=index, ctx=ast.Load()), ins), container,
                       _pos_node(ins)))
        elif op == "BINARY_SLICE":
            stop_ = pop()
            start_ = pop()
            container = pop()
            sl = _span(ast.Slice(lower=_none_to_absent(start_), upper=_none_to_absent(stop_), step=None),
                       start_, stop_)
            push(_span(_at(ast.Subscript(value=container, slice=sl, ctx=ast.Load()), ins), container,
                       _pos_node(ins)))
        elif op == "BUILD_SLICE":
            step_ = pop() if arg == 3 else None
            stop_ = pop()
            start_ = pop()
            sl = ast.Slice(lower=_none_to_absent(start_), upper=_none_to_absent(stop_),
                           step=_none_to_absent(step_) if step_ is not None else None)
            _span(sl, start_, step_ if step_ is not None else stop_)
            push(sl)
        elif op in ("BUILD_TUPLE", "BUILD_LIST"):
            elts = [pop() for _ in range(arg)][::-1]
            cls = ast.Tuple if op == "BUILD_TUPLE" else ast.List
            node = _at(cls(elts=elts, ctx=ast.Load()), ins)
            if elts:
                _span(node, elts[0], elts[-1])
                if cls is ast.List:
                    _at(node, ins)
            push(node)
        elif op == "LIST_EXTEND":
            seqv = pop()
            lst = stack[-(arg)] if arg else None
            if isinstance(lst, ast.List) and isinstance(seqv, ast.Tuple):
                lst.elts.extend(seqv.elts)
            else:
                raise Unsupported("starred expressions ('*x') are not supported in kernels", ins)
        elif op == "UNPACK_SEQUENCE":
            v = pop()
            if isinstance(v, ast.Tuple) and len(v.elts) == arg and not isinstance(v, UnpackItem):
                group = UnpackGroup(v, arg, ins)
            else:
                group = UnpackGroup(v, arg, ins)
            if isinstance(v, UnpackItem):
                group.parent = (v.group, v.index)
            for i in reversed(range(arg)):
                push(UnpackItem(group, i))
        elif op == "UNPACK_EX":
            raise Unsupported("starred expressions ('*x') are not supported in kernels", ins)
        elif op == "KW_NAMES":
            self.kwnames = self.code.co_consts[ins.arg]
        elif op in ("CALL", "CALL_KW"):
            kwnames = ()
            if op == "CALL_KW":
                kwnames = pop()
                kwnames = kwnames.value if isinstance(kwnames, ast.Constant) else \
                    tuple(e.value for e in kwnames.elts)
            elif self.kwnames is not None:
                kwnames = self.kwnames
                self.kwnames = None
            args = [pop() for _ in range(arg)][::-1]
            x = pop()
            y = pop()
            if x is NULL:
                func = y
            elif y is NULL:
                func = x
            else:
                func, args = y, [x] + args
            npos = len(args) - len(kwnames)
            if any(isinstance(a, FuncObj) and a.code.co_name != "<lambda>" for a in args[:npos]):
                # A decorator applied to an inner def: kept as a call of it.
                fobj = next(a for a in args[:npos] if isinstance(a, FuncObj) and a.code.co_name != "<lambda>")
                if npos == 1 and not kwnames:
                    node = _at(ast.Call(func=func, args=[fobj], keywords=[]), ins)
                    push(node)
                    return False
            args = [self.lambda_expr(a) if isinstance(a, FuncObj) and a.code.co_name == "<lambda>" else a
                    for a in args]
            keywords = [ast.keyword(arg=n, value=v) for n, v in zip(kwnames, args[npos:])]
            for kw, v in zip(keywords, args[npos:]):
                _span(kw, v, v)
            args = [self.lambda_expr(a) if isinstance(a, FuncObj) and a.code.co_name == "<lambda>" else a
                    for a in args]
            if isinstance(func, FuncObj):
                raise Unsupported("comprehensions are not supported in kernels; write a loop", ins)
            node = _at(ast.Call(func=func, args=args[:npos], keywords=keywords), ins)
            push(node)
        elif op == "CALL_FUNCTION_EX":
            kw = pop() if arg & 1 else None
            posargs = pop()
            x = pop()
            y = pop() if stack and (stack[-1] is NULL or PY < (3, 13)) else NULL
            func = x if y is NULL else y
            if x is NULL:
                func = y
            keywords = [ast.keyword(arg=None, value=kw)] if kw is not None else []
            if isinstance(posargs, ast.Tuple) and getattr(posargs, "_from_list", False) and kw is None:
                push(_at(ast.Call(func=func, args=list(posargs.elts), keywords=[]), ins))
                return False
            star = _span(ast.Starred(value=posargs, ctx=ast.Load()), posargs, posargs)
            push(_at(ast.Call(func=func, args=[star], keywords=keywords), ins))
        elif op == "MAKE_FUNCTION":
            code = pop()
            defaults = None
            if PY < (3, 13):
                if arg & 0x08:
                    pop()  # closure cells
                if arg & 0x04:
                    pop()  # annotations
                if arg & 0x02:
                    pop()  # keyword-only defaults
                if arg & 0x01:
                    defaults = pop()
            push(FuncObj(code, defaults, ins))
        elif op == "SET_FUNCTION_ATTRIBUTE":
            fn = pop()
            v = pop()
            if arg & 0x01 and isinstance(fn, FuncObj):
                fn.defaults = v
            push(fn)
        elif op == "GET_ITER":
            v = pop()
            push(Iter(v))
        elif op == "POP_TOP":
            v = pop()
            if v is NULL or isinstance(v, (Iter, LoopItem)) or id(v) in self.copied:
                return False
            if isinstance(v, ast.expr):
                out.append(_span(ast.Expr(value=v), v, v))
            return False
        elif op == "COPY":
            v = stack[-arg]
            self.copied.add(id(v))
            push(v)
        elif op == "SWAP":
            stack[-1], stack[-arg] = stack[-arg], stack[-1]
        elif op == "RETURN_VALUE":
            v = pop()
            node = _span(_at(ast.Return(value=v), ins), _pos_node(ins), v)
            node._implicit = isinstance(v, ast.Constant) and v.value is None and self._copied_position(ins, 2)
            out.append(node)
            return True
        elif op == "RAISE_VARARGS":
            cause = pop() if arg == 2 else None
            exc = pop() if arg >= 1 else None
            out.append(_at(ast.Raise(exc=exc, cause=cause), ins))
            return True
        elif op == "FORMAT_VALUE" or op == "BUILD_STRING" or op == "FORMAT_SIMPLE":
            raise Unsupported("f-strings are not supported in kernels; pass the values to print() as separate "
                              "arguments", ins)
        elif op in ("BUILD_MAP", "BUILD_CONST_KEY_MAP", "BUILD_SET", "DICT_UPDATE", "SET_UPDATE"):
            raise Unsupported("dict literals are not supported in kernels" if op.startswith(("BUILD_MAP", "BUILD_CONST", "DICT"))
                              else "set literals are not supported in kernels", ins)
        elif op in ("IMPORT_NAME", "IMPORT_FROM"):
            raise Unsupported("import statements are not supported inside kernels; import at module level and use "
                              "the name in the kernel", ins)
        elif op in ("DELETE_FAST", "DELETE_SUBSCR", "DELETE_ATTR", "DELETE_GLOBAL", "DELETE_DEREF"):
            raise Unsupported("'del' statements are not supported in kernels", ins)
        elif op == "LIST_APPEND" and isinstance(stack[-1 - arg] if len(stack) > arg else None, ast.List) \
                and not getattr(stack[-1 - arg], "_comprehension", False):
            # A call with many arguments: CPython builds their list.
            v = pop()
            stack[-arg].elts.append(v)
        elif op == "LIST_TO_TUPLE" or (op == "CALL_INTRINSIC_1" and ins.argrepr == "INTRINSIC_LIST_TO_TUPLE"):
            v = pop()
            if not isinstance(v, ast.List):
                raise Unsupported("starred expressions ('*x') are not supported in kernels", ins)
            t = _span(ast.Tuple(elts=v.elts, ctx=ast.Load()), v, v)
            t._from_list = True
            push(t)
        elif op in ("LOAD_FAST_AND_CLEAR", "LIST_APPEND", "SET_ADD", "MAP_ADD"):
            raise Unsupported("comprehensions are not supported in kernels; write a loop", ins)
        else:
            raise Unsupported(f"the instruction {op} is not supported in kjit functions read "
                              "from bytecode", ins)
        return False

    def store(self, target, v, out, ctx, ins):
        """STORE of `v` into `target`: a statement, a loop target, a part of
        a tuple assignment or an augmented assignment."""
        if isinstance(v, LoopItem):
            if ctx is None or ctx.kind != "for" or ctx.target is not None:
                raise Unsupported("kjit could not rebuild this for loop from its bytecode", ins)
            ctx.target = target
            return
        if isinstance(v, UnpackItem):
            g = v.group
            g.targets[v.index] = target
            if any(t is None for t in g.targets):
                return
            tup = ast.Tuple(elts=g.targets, ctx=ast.Store())
            _span(tup, g.targets[0], g.targets[-1])
            if g.parent is not None:
                pg, pi = g.parent
                self.store(tup, UnpackItem(pg, pi), out, ctx, ins)
                return
            if isinstance(g.value, LoopItem):
                self.store(tup, g.value, out, ctx, ins)
                return
            out.append(_span(ast.Assign(targets=[tup], value=g.value), tup, g.value))
            return
        if isinstance(v, FuncObj) and v.code.co_name != "<lambda>":
            if isinstance(target, ast.Name):
                out.append(self.inner_function(v, target.id, []))
                return
            raise Unsupported("kjit could not rebuild this function definition", ins)
        if isinstance(v, ast.Call) and len(v.args) == 1 and isinstance(v.args[0], FuncObj) and \
                v.args[0].code.co_name != "<lambda>" and isinstance(target, ast.Name):
            out.append(self.inner_function(v.args[0], target.id, [v.func]))
            return
        v = self._value(v)
        # `a = b = v`: the same value stored twice.
        if out and isinstance(out[-1], ast.Assign) and out[-1].value is v and id(v) in self.copied:
            out[-1].targets.append(target)
            return
        # Augmented assignment: an in-place operator whose left is the target.
        if isinstance(v, ast.BinOp) and getattr(v, "_inplace", False) and _same_target(v.left, target):
            node = ast.AugAssign(target=target, op=v.op, value=v.right)
            _span(node, target, v.right)
            node.lineno, node.col_offset = getattr(v, "lineno", None), getattr(v, "col_offset", None)
            if node.lineno is None:
                del node.lineno
            out.append(node)
            return
        # `a, b = x, y` compiles to stores of values already on the stack.
        depth = getattr(self, "depth", 0)
        if out and isinstance(out[-1], ast.Assign) and getattr(out[-1], "_run", None) == ins.offset:
            # Values pushed in the source's order: the deepest is the first.
            prev = out[-1]
            pairs = sorted(prev._pairs + [(depth, target, v)], key=lambda p: p[0])
            prev._pairs = pairs
            tt = ast.Tuple(elts=[p[1] for p in pairs], ctx=ast.Store())
            vt = ast.Tuple(elts=[p[2] for p in pairs], ctx=ast.Load())
            _span(tt, tt.elts[0], tt.elts[-1])
            _span(vt, vt.elts[0], vt.elts[-1])
            prev.targets, prev.value = [tt], vt
            _span(prev, tt, vt)
            prev._run = self._next_store(ins)
            return
        node = _span(ast.Assign(targets=[target], value=v), target, v)
        node._run = self._next_store(ins)
        node._pairs = [(depth, target, v)]
        out.append(node)

    def _copied_position(self, ins, back):
        """Whether the `return None` ending at `ins` has the position of the
        instruction before it: CPython's implicit return at the end of a
        function (an explicit one has the position of its own text)."""
        instrs = self.cfg.all_instrs
        k = next((j for j, i in enumerate(instrs) if i.offset == ins.offset), None)
        if k is None or k - back < 0:
            return False
        prev = instrs[k - back]
        return getattr(prev, "positions", None) == getattr(instrs[k - back + 1], "positions", None) and \
            prev.opname not in ("RESUME", "NOP")

    def _next_store(self, ins):
        """The offset of the instruction right after `ins` when it is a plain
        store (a run of stores assigns values already on the stack)."""
        instrs = self.cfg.instrs
        k = self.cfg.index.get(ins.offset)
        if k is None or k + 1 >= len(instrs):
            return None
        nxt = instrs[k + 1]
        if nxt.opname in ("STORE_FAST", "STORE_DEREF", "STORE_GLOBAL", "STORE_NAME") and not nxt.is_jump_target:
            return nxt.offset
        return None

    def _value(self, v):
        if isinstance(v, (Iter, LoopItem, UnpackItem, FuncObj)) or v is NULL:
            if isinstance(v, FuncObj):
                return self.lambda_expr(v)
            raise Unsupported("kjit could not follow the stack in this bytecode")
        self._fix(v)
        return v

    def _fix(self, node):
        """Lambdas inside expressions."""
        for field, value in ast.iter_fields(node):
            if isinstance(value, FuncObj):
                setattr(node, field, self.lambda_expr(value))
            elif isinstance(value, list):
                for i, x in enumerate(value):
                    if isinstance(x, FuncObj):
                        value[i] = self.lambda_expr(x)
                    elif isinstance(x, ast.AST):
                        self._fix(x)
            elif isinstance(value, ast.AST):
                self._fix(value)

    # -- nested functions -----------------------------------------------------------------------
    def _args(self, code, defaults):
        nargs = code.co_argcount
        nkw = code.co_kwonlyargcount
        names = code.co_varnames
        args = [ast.arg(arg=n) for n in names[:nargs]]
        kwonly = [ast.arg(arg=n) for n in names[nargs:nargs + nkw]]
        vararg = kwarg = None
        k = nargs + nkw
        if code.co_flags & 0x04:
            vararg = ast.arg(arg=names[k])
            k += 1
        if code.co_flags & 0x08:
            kwarg = ast.arg(arg=names[k])
        dflt = []
        if defaults is not None:
            if isinstance(defaults, ast.Tuple):
                dflt = list(defaults.elts)
            elif isinstance(defaults, tuple):
                dflt = [_const_value(d) for d in defaults]
        return ast.arguments(posonlyargs=[], args=args, vararg=vararg, kwonlyargs=kwonly,
                             kw_defaults=[None] * len(kwonly), kwarg=kwarg, defaults=dflt)

    def inner_function(self, fn, name, decorators):
        sub = Decompiler(fn.code, name)
        body = sub.function()
        node = ast.FunctionDef(name=name, args=self._args(fn.code, fn.defaults), body=body,
                               decorator_list=decorators, returns=None, type_params=[])
        _at(node, fn.instr)
        node.lineno = fn.code.co_firstlineno
        return node

    def lambda_expr(self, fn):
        if fn.code.co_name != "<lambda>":
            raise Unsupported("kjit could not rebuild this function value from its bytecode", fn.instr)
        sub = Decompiler(fn.code, "<lambda>")
        body = sub.function()
        if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
            raise Unsupported("kjit could not rebuild this lambda from its bytecode", fn.instr)
        node = ast.Lambda(args=self._args(fn.code, fn.defaults), body=body[0].value)
        return _at(node, fn.instr)


# -- helpers ---------------------------------------------------------------------------------------


class _P:
    """A node-like holder of an instruction's position."""

    def __init__(self, ins):
        for k, v in _pos(ins).items():
            setattr(self, k, v)


def _pos_node(ins):
    return _P(ins)


def _none_to_absent(v):
    if isinstance(v, ast.Constant) and v.value is None:
        return None
    return v


def _const_value(v):
    node = ast.Constant(value=v)
    return node


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
    if isinstance(a, ast.Compare) and isinstance(b, ast.Compare) and b.left is a.comparators[-1] \
            and not isinstance(a.ops[0], (ast.Is, ast.IsNot, ast.In, ast.NotIn)) or (
            isinstance(a, ast.Compare) and isinstance(b, ast.Compare) and b.left is a.comparators[-1]):
        node = ast.Compare(left=a.left, ops=a.ops + b.ops, comparators=a.comparators + b.comparators)
        return _span(node, a, b)
    if isinstance(a, ast.BoolOp) and isinstance(a.op, ast.And) and not getattr(a, "_paren", False):
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
            and out[-1].value.value is None and _implicit_return(out[-1]):
        out.pop()
    if top_level:
        out = _fold_implicit_returns(out)
    return out


def _implicit_return(ret):
    return True


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


def decompile_function(func):
    """Python's AST (a FunctionDef) of `func`, rebuilt from its bytecode."""
    code = func.__code__
    d = Decompiler(code, func.__name__)
    if code.co_name == "<lambda>":
        body, _ = d.seq(d.cfg.blocks[0], 0, [], _Ctx(None, {b.id for b in d.cfg.reachable}), None)
    else:
        body = d.function()
    doc = func.__doc__
    if doc is not None and code.co_consts and code.co_consts[0] == doc and code.co_name != "<lambda>":
        body.insert(0, ast.Expr(value=ast.Constant(value=doc)))
    args = d._args(code, func.__defaults__)
    if code.co_name == "<lambda>":
        if len(body) != 1 or not isinstance(body[0], ast.Return):
            raise Unsupported("kjit could not rebuild this lambda from its bytecode")
        node = ast.Lambda(args=args, body=body[0].value)
        node.lineno, node.col_offset = code.co_firstlineno, 0
        return node
    node = ast.FunctionDef(name=func.__name__, args=args, body=body, decorator_list=[], returns=None,
                           type_params=[])
    node.lineno = code.co_firstlineno
    node.col_offset = 0
    return node


__all__ = ["decompile_function", "Unsupported", "Decompiler"]
del dis, sys
