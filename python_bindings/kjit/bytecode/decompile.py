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
import os
import types

from kjit.bytecode.cfg import CFG, PY, Unsupported, is_cond_jump, postdominators
from kjit.bytecode.dispatch import Dispatcher
from kjit.bytecode.machine import StackMachine
from kjit.bytecode.nodes import (NULL, ExcMatch, Iter, LoopItem, TryEnd, TryMarker, _and, _at, _negate, _or, _span,
                                 _value_if)
from kjit.bytecode.tries import rebuild_tries
from kjit.bytecode.tidy import _tidy, _tidy_loop


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


class Decompiler(StackMachine):
    """The structurer: control flow into statements."""

    def __init__(self, code):
        self.code = code
        self.cfg = CFG(code)
        self.kwnames = None
        # Expressions duplicated with COPY, by id; the dict keeps each alive, so
        # that no later object can take a freed one's id (a false match, which
        # rebuilt a program wrongly now and then).
        self.copied = {}
        self.emitting = set()  # loop heads being emitted
        self.came = None  # the jump instruction that led to the current block
        self._returns = None
        self.steps = 0  # instructions run, all paths together
        self.step_limit = 8 * len(self.cfg.instrs) + 4096

    # -- entry ---------------------------------------------------------------
    def function(self):
        """The body's statements (a lambda's: its one `return`)."""
        top = _Ctx(None, {b.id for b in self.cfg.reachable})
        body, _ = self.seq(self.cfg.blocks[0], 0, [], top, None)
        if self.code.co_name == "<lambda>":
            return body
        return _tidy(rebuild_tries(body), top_level=True) or [ast.Pass()]

    def body_of(self, code):
        return function_body(code)

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
                    # (Only where every way out of the loop goes there: a
                    # second target, or a follow that leads elsewhere, is
                    # a jump no `break` says, as when CPython 3.11's
                    # `continue` jumps to a while loop's guard while the
                    # copy of its condition at the end of the body leaves.)
                    if (getattr(ctx, "threaded", None) not in (None, b)) or (
                            ctx.follow is not None and self._skip_cleanup(ctx.follow) is not b):
                        raise Unsupported("kjit could not rebuild this loop from its bytecode: a jump leaves it "
                                          "for another place than its other exits; give kjit the source text",
                                          self.came or b.instrs[0])
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
                stack = tstack[:-1] + [self.born(_value_if(cond, tstack[-1], fstack[-1]))]
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
        if not any(s.id not in body_ids for bid in body_ids for s in cfg.byid[bid].succs):
            j = None  # (a loop no path leaves: `while True:` without break or return; nothing follows it)
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
                    body, _ = self.seq(h, 0, list(stack), body_ctx, None, enter_head=True)
                    # (`while True:` leaves a NOP at its own line, just before the body.)
                    at = h.instrs[0]
                    prev = [i for i in cfg.all_instrs if i.offset < h.start]
                    if prev and prev[-1].opname == "NOP" and getattr(prev[-1].positions, "lineno", None):
                        at = prev[-1]
                    true = _at(ast.Constant(value=True), at)
                    node = _span(ast.While(test=true, body=_tidy_loop(body), orelse=[]), true, true)
                    after_stack = stack  # (the body ran on a copy: the stack at the loop's exits)
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
                self.steps += 1
                if self.steps > self.step_limit:
                    # Paths that the structurer walks again and again: a
                    # control flow it does not follow (refused, not hung).
                    raise Unsupported("kjit could not rebuild this function's control flow from its bytecode "
                                      "(its paths are too tangled to follow); give kjit the source text", ins)
                if op == "FOR_ITER":
                    raise Unsupported("kjit could not rebuild this loop from its bytecode", ins)
                if ins.offset in self.cfg.try_ends and not probe and len(stack) == self.cfg.try_ends[ins.offset]:
                    # The protected range ends between statements: an `else:`
                    # follows. (A body ending in `return v` ends inside it:
                    # the return itself cannot raise.)
                    out.append(_at(TryEnd(), ins))
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
        # (A try's branch to its handlers pops nothing: its condition is a marker.)
        v = _at(TryMarker(), ins) if ins.offset in self.cfg.try_heads else stack.pop()
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
            t, f = (b.target, list(rest)), (b.fall, list(rest))
            if op.endswith("NOT_NONE"):
                cond = _span(ast.Compare(left=v, ops=[ast.IsNot()], comparators=[none]), v, v)
            return cond, t, f
        if op in ("JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP"):
            self.copied[id(v)] = v
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
        if not is_cond_jump(ins[-1]) or ins[-1].offset in self.cfg.try_heads:
            return None
        st = list(stack)
        out = []
        try:
            for i in ins[idx:-1]:
                self.steps += 1  # (these count too: a condition read again and again)
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
        # A block that only jumps (kept by _resolve: its target is a loop's
        # follow or head) leads where its target does.
        for x, y in ((a, b), (b, a)):
            if x[0] is not None and y[0] is not None and y[1] == 0 and len(x[2]) == len(y[2]) and \
                    [i.opname for i in x[0].instrs[x[1]:]] == ["JUMP_FORWARD"] and x[0].target is y[0]:
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


def _where(node):
    """An instruction-like object at `node`'s position (for Unsupported)."""
    return types.SimpleNamespace(positions=dis.Positions(
        getattr(node, "lineno", None), getattr(node, "end_lineno", None),
        getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)))


def _no_markers(node):
    """Refuses a rebuild that kept one of the structurer's own nodes (an
    exception test or a try marker that no `try` took: a handler that leaves
    a loop, found by tools/bytecode_fuzz.py): no text can say it."""
    for n in ast.walk(node):
        if type(n).__module__ == ExcMatch.__module__:
            raise Unsupported("kjit could not rebuild this try statement from its bytecode; give kjit the "
                              "source text", _where(n))


def _identifiers(node):
    """Refuses names no source can hold: bytecode that a tool rewrote
    (pytest's assertion rewriting names its temporaries `@py_assert1`)."""
    for n in ast.walk(node):
        name = n.id if isinstance(n, ast.Name) else n.arg if isinstance(n, ast.arg) else None
        if name is not None and not name.isidentifier():
            raise Unsupported(f"the bytecode uses the name {name!r}, which is not a Python identifier: it was "
                              "rewritten by a tool (pytest rewrites assert statements: run it with "
                              "--assert=plain); give kjit the source text", _where(n))


def _evaluated_once(node):
    """Refuses a rebuild that writes one computed value twice: the bytecode
    evaluated it once (a COPY), so the text would evaluate it again (twice
    the calls, the side effects). A name or a constant may repeat."""
    seen = {}
    for n in ast.walk(node):
        for child in ast.iter_child_nodes(n):
            if not isinstance(child, ast.expr) or isinstance(child, (ast.Name, ast.Constant)):
                continue
            if id(child) in seen and seen[id(child)] is not n:
                raise Unsupported("kjit could not rebuild this expression from its bytecode without evaluating "
                                  "a part of it twice; give kjit the source text", _where(child))
            seen[id(child)] = n


class _Outer(StackMachine):
    """Makes the function's own definition (its body by either form)."""

    def __init__(self):
        pass

    def structured(self, code):
        return Decompiler(code).function()

    def body_of(self, code):
        return function_body(code)


def function_body(code):
    """The statements of a def's body: by the structurer, else (a control
    flow it cannot say) in the dispatch form (dispatch.py), which exists
    for any; the structurer's refusal when neither can."""
    if os.environ.get("KJIT_BYTECODE_FORM") == "dispatch":  # (a test mode: the dispatch form first)
        try:
            body = Dispatcher(code, function_body, Decompiler).function()
            _checked(body)
            return body
        except Unsupported:
            pass
    try:
        body = Decompiler(code).function()
        _checked(body)
        return body
    except (Unsupported, RecursionError) as e:
        first = e
    try:
        body = Dispatcher(code, function_body, Decompiler).function()
        _checked(body)
        return body
    except Unsupported:
        raise first from None


def _checked(body):
    """Refuses a body that kept a marker or would evaluate a value twice."""
    node = ast.Module(body=body, type_ignores=[])
    _no_markers(node)
    _evaluated_once(node)


def decompile_function(func):
    """Python's AST (a FunctionDef, or a Lambda) of `func`, rebuilt from its
    bytecode."""
    code = func.__code__
    node = _Outer().definition(code, func.__defaults__, func.__name__)
    _no_markers(node)
    _identifiers(node)
    _evaluated_once(node)
    doc = func.__doc__
    if isinstance(node, ast.FunctionDef) and doc is not None and code.co_consts and code.co_consts[0] == doc:
        node.body.insert(0, ast.Expr(value=ast.Constant(value=doc)))
    return node


__all__ = ["decompile_function", "Unsupported", "Decompiler"]
