"""Instructions, basic blocks and the loop structure of a code object.

The bytecode frontend reads a function's code object with ``dis`` (CPython
3.11 to 3.13), cuts it into basic blocks, undoes CPython's inversion of
``while`` loops (the condition is compiled twice: once before the body, once
at its end, jumping back), and finds the loops (back edges, natural loops)
and post-dominators the structurer needs.
"""
import dis
import sys

PY = sys.version_info[:2]


class Unsupported(Exception):
    """Bytecode the frontend cannot rebuild; `instr` locates it."""

    def __init__(self, message, instr=None):
        super().__init__(message)
        self.instr = instr


def _norm(opname):
    """The opname with the jump direction removed (3.11 spells it)."""
    return opname.replace("_FORWARD", "").replace("_BACKWARD", "")


_COND_JUMPS = {
    "POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE", "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE",
    "JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP",
}
_UNCOND_JUMPS = {"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP",
                 "JUMP_NO_INTERRUPT", "JUMP_ABSOLUTE"}
_TERMINAL = {"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE"}
_SKIP = {"CACHE", "EXTENDED_ARG", "RESUME", "NOP", "PRECALL", "MAKE_CELL", "COPY_FREE_VARS",
         "NOT_TAKEN"}


_STATEMENT_ENDS = {"POP_TOP", "RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "FOR_ITER",
                   "GET_ITER", "END_FOR", "DELETE_FAST"}


_FLIP = {"POP_JUMP_IF_TRUE": "POP_JUMP_IF_FALSE", "POP_JUMP_IF_FALSE": "POP_JUMP_IF_TRUE",
         "POP_JUMP_IF_NONE": "POP_JUMP_IF_NOT_NONE", "POP_JUMP_IF_NOT_NONE": "POP_JUMP_IF_NONE"}


def is_cond_jump(ins):
    return _norm(ins.opname) in _COND_JUMPS


def is_uncond_jump(ins):
    return _norm(ins.opname) in _UNCOND_JUMPS or ins.opname in _UNCOND_JUMPS


def is_terminal(ins):
    return ins.opname in _TERMINAL


class Block:
    __slots__ = ("id", "start", "instrs", "succs", "preds", "fall", "target")

    def __init__(self, id_, start):
        self.id = id_
        self.start = start
        self.instrs = []
        self.succs = []
        self.preds = []
        self.fall = None    # the next block when control falls through (or None)
        self.target = None  # the jump target block (or None)

    @property
    def last(self):
        return self.instrs[-1]

    def __repr__(self):
        return f"<block {self.id} @{self.start}>"


_TRY_JUMP = "POP_JUMP_FORWARD_IF_TRUE" if PY < (3, 12) else "POP_JUMP_IF_TRUE"


class InlineComprehension:
    """A comprehension CPython 3.12+ compiled in place (PEP 709), cut out of
    the function's instructions: read as 3.11's function of its own would
    be (`kjit_instrs`: its collection, the loop over `.0`, its return)."""

    def __init__(self, code, kind, instrs, names):
        self.code = self  # (what FuncObj offers)
        self.co_name = kind
        self.kjit_instrs = instrs
        self.names = names
        for attr in ("co_flags", "co_consts", "co_varnames", "co_argcount", "co_kwonlyargcount",
                     "co_firstlineno", "co_filename"):
            setattr(self, attr, getattr(code, attr))
        self.co_flags &= ~(0x20 | 0x80 | 0x100 | 0x200)


_COMP_KINDS = {"BUILD_LIST": "<listcomp>", "BUILD_SET": "<setcomp>", "BUILD_MAP": "<dictcomp>"}


def _cut_comprehensions(code, instrs, table, inline=None):
    """Replaces each in-place comprehension (3.12+: LOAD_FAST_AND_CLEAR of
    its names, the collection, the loop, END_FOR) by one pseudo-instruction
    KJIT_COMPREHENSION that pops the iterator and pushes the saved names and
    the result, as the region does; drops the exception-table entries of
    the region (the handler that restores the names). A layout not
    recognised is left as it is (and refused with the table)."""
    out = []
    k = 0
    cut = []
    while k < len(instrs):
        i = instrs[k]
        if i.opname != "LOAD_FAST_AND_CLEAR":
            out.append(i)
            k += 1
            continue
        m = k
        while m < len(instrs) and instrs[m].opname == "LOAD_FAST_AND_CLEAR":
            m += 1
        names = [x.argval for x in instrs[k:m]]
        shape = [x.opname for x in instrs[m:m + 4]]
        if len(shape) < 4 or shape[0] != "SWAP" or shape[1] not in _COMP_KINDS or instrs[m + 1].arg != 0 or \
                shape[2] != "SWAP" or shape[3] != "FOR_ITER":
            out.append(i)
            k += 1
            continue
        loop = instrs[m + 3]
        end = next((j for j in range(m + 4, len(instrs)) if instrs[j].offset >= loop.argval), None)
        if end is None or instrs[end].opname != "END_FOR":
            out.append(i)
            k += 1
            continue
        if PY >= (3, 13) and end + 1 < len(instrs) and instrs[end + 1].opname == "POP_TOP":
            end += 1
        build, swap = instrs[m + 1], instrs[m + 2]
        body = [build, swap._replace(opname="LOAD_FAST", opcode=dis.opmap["LOAD_FAST"], arg=0, argval=".0",
                                     argrepr=".0")]
        body += instrs[m + 3:end + 1]
        last = instrs[end]
        body.append(last._replace(opname="RETURN_VALUE", opcode=dis.opmap["RETURN_VALUE"], arg=None,
                                  argval=None, argrepr="", offset=last.offset + 1))
        comp = InlineComprehension(code, _COMP_KINDS[build.opname], body, names)
        out.append(i._replace(opname="KJIT_COMPREHENSION", argval=comp, argrepr="comprehension"))
        cut.append((i.offset, instrs[end].offset))
        k = end + 1
    if cut:
        # (and the entries that protect one handler's code with another's)
        handlers = {e.target for e in table if any(lo <= e.start <= hi for lo, hi in cut)}
        table = [e for e in table if not any(lo <= e.start <= hi for lo, hi in cut) and e.target not in handlers]
    if code.co_flags & 0x20 and inline is None:
        # A generator's StopIteration guard (3.12+) is not the source's.
        at = {i.offset: i for i in instrs}
        table = [e for e in table if getattr(at.get(e.target), "opname", None) != "CALL_INTRINSIC_1"]
    return out, table


class CFG:
    def __init__(self, code):
        self.code = code
        if PY < (3, 11):
            raise Unsupported(
                f"kjit reads bytecode on CPython 3.11 to 3.13, not {sys.version.split()[0]}: "
                "define the function in a file so that kjit can read its source")
        inline = getattr(code, "kjit_instrs", None)  # (an inlined comprehension's own instructions)
        instrs = inline if inline is not None else [i for i in dis.get_instructions(code) if i.opname != "CACHE"]
        self.all_instrs = instrs
        if code.co_flags & (0x80 | 0x100 | 0x200):  # coroutines, async generators
            yields = [i for i in instrs if i.opname in ("YIELD_VALUE", "RETURN_GENERATOR")]
            raise Unsupported("coroutines ('async def') are not supported", (yields or instrs or [None])[-1])
        try:
            table = dis._parse_exception_table(code) if inline is None else []
        except Exception:  # noqa: BLE001 - older layouts
            table = []
        if PY >= (3, 12):
            instrs, table = _cut_comprehensions(code, instrs, table, inline)
        self.try_heads, self.try_ends = {}, {}
        if table and PY < (3, 14) and not {"BEFORE_WITH", "LOAD_FAST_AND_CLEAR"} & {i.opname for i in instrs}:
            table = self._tries(instrs, table)
        if table:
            first = min(e.start for e in table)
            at = next((i for i in instrs if i.offset >= first), instrs[0])
            ops = {i.opname for i in instrs}
            if "BEFORE_WITH" in ops:
                why = "'with' statements are not supported in kernels"
            elif "LOAD_FAST_AND_CLEAR" in ops:
                why = ("kjit could not rebuild this comprehension from its bytecode (a layout it does not "
                       "know); give kjit the source text, or write a loop")
            elif {"GET_YIELD_FROM_ITER", "SEND"} & ops:
                why = "'yield from' is not supported; yield the values one by one in a loop"
                at = next((i for i in instrs if i.opname in ("GET_YIELD_FROM_ITER", "SEND")), at)
            else:
                why = ("kjit could not read this try/except from its bytecode; give kjit the source text (in a "
                       "kernel try/except is not supported: check the condition with 'if' and raise)")
            raise Unsupported(why, at)
        self.instrs = [i for i in instrs if i.opname not in _SKIP]
        for head in sorted(self.try_heads):  # (after the first protected instruction's NOP)
            k = next(k for k, i in enumerate(self.instrs) if i.offset > head)
            first = self.instrs[k]
            fields = dict(opname=_TRY_JUMP, opcode=dis.opmap[_TRY_JUMP], arg=0, argval=self.try_heads[head],
                          argrepr="kjit: to the handlers", offset=head, is_jump_target=False)
            self.instrs.insert(k, first._replace(**{f: v for f, v in fields.items() if f in first._fields}))
        self.index = {ins.offset: k for k, ins in enumerate(self.instrs)}
        self.redirect = {}
        self._uninvert_whiles()
        self._build_blocks()
        self._stack_depths()
        self._dominators()
        self._loops()

    # -- try statements (CPython 3.11's exception table) ---------------------
    def _tries(self, instrs, table):
        """Reads the entries of `try` statements: each handler (PUSH_EXC_INFO)
        gets a branch at its body's start (a pseudo-instruction at the odd
        offset before it, conditional on a TryMarker) and its body's end is
        noted. Returns the entries it could not read (the caller refuses
        them): entries into a handler's own cleanup (lasti) are read with it."""
        at = {i.offset: i for i in instrs}
        handlers, depths = {}, {}
        for e in table:
            target = at.get(e.target)
            if e.lasti:
                continue
            if target is None or target.opname != "PUSH_EXC_INFO":
                return table
            lo, hi = handlers.get(e.target, (e.start, e.end))
            handlers[e.target] = (min(lo, e.start), max(hi, e.end))
            depths[e.target] = e.depth
        # A try whose first protected instruction lies in another's handler
        # code is an outer try that began with an inner one (3.11 leaves the
        # inner body to the inner handler alone): not read yet.
        cleanup = {}
        for e in table:
            if e.lasti:
                lo, hi = cleanup.get(e.target, (e.start, e.end))
                cleanup[e.target] = (min(lo, e.start), max(hi, e.end))
        # Or an inner try's handler code (its clause bodies, its cleanup)
        # protected by an outer try whose protected range begins after
        # the inner try's body.
        for e in table:
            if e.lasti or e.target not in handlers:
                continue
            for h, (lo, _) in handlers.items():
                code_lo, code_hi = h, max(cleanup.get(h, (h, h))[1], h + 1)
                for c, (clo, chi) in cleanup.items():
                    if clo <= h < chi:
                        code_hi = max(code_hi, chi + 8)
                if h != e.target and e.start < code_hi and code_lo <= e.end:
                    if lo < handlers[e.target][0]:
                        raise Unsupported("a try statement that begins with another try statement is read from "
                                          "source text only; give kjit the source text, or put a statement "
                                          "before the inner try", at.get(lo))
                    # (Nested tries come back wrong where the inner one's
                    # paths end in the outer one's handlers: refused.)
                    raise Unsupported("a try statement inside another try statement is read from source text "
                                      "only; give kjit the source text", at.get(lo))
        for h, (lo, _) in handlers.items():
            for other, (clo, chi) in cleanup.items():
                if clo <= lo < chi and other != h:
                    raise Unsupported("a try statement that begins with another try statement is read from "
                                      "source text only; give kjit the source text, or put a statement "
                                      "before the inner try", at.get(lo))
        # Tries that start together (nested): the outer one's branch first,
        # at offsets between the instruction before and the first protected one.
        starts = {}
        for h, (lo, hi) in sorted(handlers.items(), key=lambda item: (item[1][0], -item[1][1])):
            n = starts[lo] = starts.get(lo, -1) + 1
            self.try_heads[lo - 1 + n / 16] = h
            if hi != h:
                self.try_ends[hi] = depths[h]  # (a statement ends there when the stack is back at this depth)
        return []

    # -- while-loop un-inversion -------------------------------------------
    def _next_offset(self, offset):
        """The offset of the first kept instruction at or after `offset`."""
        for ins in self.instrs:
            if ins.offset >= offset:
                return ins.offset
        return None

    def _normalized(self, lo, hi):
        """Instructions [lo, hi) as (operation, operand, first index) triples
        in which `cond-jump L; JUMP T; L:` reads as the inverted condition
        jumping to T (CPython writes a jump back that way), jump directions
        are dropped and jump targets are instruction offsets."""
        ins = self.instrs
        out = []
        k = lo
        while k < hi:
            i = ins[k]
            if is_cond_jump(i) and k + 1 < hi and is_uncond_jump(ins[k + 1]) and k + 2 < len(ins) and \
                    self._next_offset(i.argval) == ins[k + 2].offset and i.opname.startswith("POP_JUMP"):
                out.append((_FLIP[_norm(i.opname)], self._next_offset(ins[k + 1].argval), k))
                k += 2
                continue
            if is_cond_jump(i) or is_uncond_jump(i):
                out.append((_norm(i.opname), self._next_offset(i.argval), k))
            else:
                out.append((i.opname, (i.arg, repr(i.argval)), k))
            k += 1
        return out

    def _uninvert_whiles(self):
        """CPython compiles ``while c: body`` as ``if c: do { body } while c``.
        Where the condition at the bottom repeats the guard before the body,
        the bottom copy is replaced by a jump to the guard, so that the guard
        is the loop's single head (and ``continue``, which jumps there, is an
        ordinary edge)."""
        ins = self.instrs
        tangled = {}  # loop head -> its guard's last jump, for guards with jumps inside
        for k, back in enumerate(ins):
            if not (back.opname.endswith("BACKWARD") or (is_cond_jump(back) and back.argval < back.offset)):
                continue
            h = self._next_offset(back.argval)
            hk = self.index.get(h)
            if hk is None or hk == 0 or not is_cond_jump(ins[hk - 1]) or ins[hk - 1].opname.startswith("JUMP_IF"):
                continue
            exit_ = self._next_offset(ins[hk - 1].argval)
            cond_lo, knotted = self._tangled(hk)
            if knotted:
                tangled.setdefault(h, ins[hk - 1])
            guard = self._normalized(0, hk)
            bottom = self._normalized(hk, k + 1)
            if not guard or not bottom:
                continue
            # The bottom's end, read as the guard's: `cond X; JUMP h` (3.12+)
            # or `cond-back h` falling through to X (3.11).
            last = bottom[-1]
            if last[0] == "JUMP" and last[1] == h:
                bottom = bottom[:-1]
                end = k
            elif last[0] in _FLIP and last[1] == h and k + 1 < len(ins) and ins[k + 1].offset == exit_:
                bottom = bottom[:-1] + [(_FLIP[last[0]], exit_, last[2])]
                end = k + 1
            else:
                continue
            # Jumps inside a copy (`a if c else b`, `(a or b) and c`) are
            # compared by where they land from the copy's end.
            guard = self._relative(guard, 0, hk)
            bottom = self._relative(bottom, hk, end)
            n = 0
            while n < len(guard) and n < len(bottom):
                a, b = guard[-1 - n], bottom[-1 - n]
                op = ins[a[2]].opname
                if op.startswith("STORE") or op in _STATEMENT_ENDS or a[:2] != b[:2]:
                    break
                n += 1
            if n == 0 or guard[-1][:2] != bottom[-1][:2] or guard[-1][1] != exit_:
                continue
            # The copies may only be joined where no value is on the stack:
            # at the start of the condition or between operands of `and`
            # and `or`, not inside an operand (`a if c else b` jumps within
            # each copy, so only a part of it matches).
            depth = self._depths()
            base = depth.get(ins[hk].offset)
            if depth.get(ins[guard[-n][2]].offset) != base or depth.get(ins[bottom[-n][2]].offset) != base:
                continue
            if knotted and guard[-n][2] != cond_lo:
                continue  # (only the whole of such a condition joins the copies)
            g0, d0 = ins[guard[-n][2]], ins[bottom[-n][2]]
            if g0.offset >= d0.offset:
                continue
            self.redirect[d0.offset] = g0.offset
            tangled.pop(h, None)
        # A condition with jumps inside it (`a if c else b`, `(a or b) and
        # c`) whose copies could not be joined: the structurer would read
        # the loop's paths wrong, so it is refused.
        for h, at in tangled.items():
            if h not in self.redirect.values() and not any(self.index.get(v, -1) < self.index[h]
                                                           for v in self.redirect.values()):
                raise Unsupported("kjit could not rebuild this while loop from its bytecode: its condition "
                                  "holds a conditional expression or nested and/or; give kjit the source "
                                  "text, or compute the condition into a variable before the loop and at the "
                                  "end of its body", at)

    def _tangled(self, hk):
        """(first instruction, whether a jump lands inside it) of the
        condition that ends just before instruction `hk` (from the last
        statement before it)."""
        ins = self.instrs
        depth = self._depths()
        base = depth.get(ins[hk].offset)
        lo = hk - 1
        while lo > 0:
            p = ins[lo - 1]
            if p.opname.startswith("STORE") or p.opname in _STATEMENT_ENDS or is_terminal(p) or \
                    p.opname == "FOR_ITER" or (is_uncond_jump(p) and depth.get(p.offset) == base):
                break
            lo -= 1
        for i in ins[lo:hk]:
            if is_cond_jump(i) or is_uncond_jump(i):
                t = self.index.get(self._next_offset(i.argval))
                if t is not None and lo < t < hk:
                    return lo, True
        return lo, False

    def _relative(self, entries, lo, end):
        """`entries` (of _normalized) with jump targets at instructions
        (lo, end) written as their distance from `end` (a jump to `lo`, the
        loop's body, stays as it is)."""
        out = []
        for op, arg, k in entries:
            if (op in _COND_JUMPS or op in _UNCOND_JUMPS) and isinstance(arg, int):
                t = self.index.get(arg)
                if t is not None and lo < t < end:
                    arg = ("inside", t - end)
            out.append((op, arg, k))
        return out

    def _depths(self):
        """The stack's depth before each instruction (by offset), followed
        forward through the instructions in order (a loop's head is reached
        before its jump back)."""
        if getattr(self, "_depth_at", None) is not None:
            return self._depth_at
        ins = self.all_instrs  # (PRECALL, left out of self.instrs, pops CALL's arguments)
        at = {ins[0].offset: 0} if ins else {}
        for k, i in enumerate(ins):
            d = at.get(i.offset)
            if d is None:
                continue
            if i.opcode >= dis.HAVE_ARGUMENT:
                jd = dis.stack_effect(i.opcode, i.arg, jump=True)
                fd = dis.stack_effect(i.opcode, i.arg, jump=False)
            else:
                jd = fd = dis.stack_effect(i.opcode)
            if is_cond_jump(i) or is_uncond_jump(i) or i.opname == "FOR_ITER":
                at.setdefault(i.argval, d + jd)
            if k + 1 < len(ins) and not is_uncond_jump(i) and not is_terminal(i):
                at.setdefault(ins[k + 1].offset, d + fd)
        self._depth_at = at
        return at

    # -- blocks ---------------------------------------------------------------
    def _build_blocks(self):
        ins = self.instrs
        leaders = {ins[0].offset}
        for k, i in enumerate(ins):
            if is_cond_jump(i) or is_uncond_jump(i) or i.opname == "FOR_ITER":
                leaders.add(self._next_offset(i.argval))
                if k + 1 < len(ins):
                    leaders.add(ins[k + 1].offset)
            elif is_terminal(i) and k + 1 < len(ins):
                leaders.add(ins[k + 1].offset)
            if i.opname == "FOR_ITER":
                leaders.add(i.offset)
        for a, b in self.redirect.items():
            leaders.add(a)
            leaders.add(b)
        leaders.discard(None)
        self.blocks = []
        self.at = {}
        for i in ins:
            if i.offset in leaders:
                b = Block(len(self.blocks), i.offset)
                self.blocks.append(b)
                self.at[i.offset] = b
            self.blocks[-1].instrs.append(i)

        def block_of(offset):
            off = self._next_offset(offset)
            off = self.redirect.get(off, off)
            return self.at[off]

        self.block_of = block_of
        for k, b in enumerate(self.blocks):
            last = b.last
            nxt = self.blocks[k + 1] if k + 1 < len(self.blocks) else None
            if nxt is not None and nxt.start in self.redirect:
                nxt = self.at[self.redirect[nxt.start]]
            if is_uncond_jump(last):
                b.target = block_of(last.argval)
            elif is_cond_jump(last) or last.opname == "FOR_ITER":
                b.target = block_of(last.argval)
                b.fall = nxt
            elif not is_terminal(last):
                b.fall = nxt
            for s in (b.fall, b.target):
                if s is not None and s not in b.succs:
                    b.succs.append(s)
        # Only what is reachable from the entry counts.
        seen, todo = set(), [self.blocks[0]]
        while todo:
            b = todo.pop()
            if b.id in seen:
                continue
            seen.add(b.id)
            todo.extend(b.succs)
        self.reachable = [b for b in self.blocks if b.id in seen]
        for b in self.reachable:
            for s in b.succs:
                s.preds.append(b)

    # -- stack depths ----------------------------------------------------------
    def _stack_depths(self):
        depth = {self.blocks[0].id: 0}
        todo = [self.blocks[0]]
        while todo:
            b = todo.pop()
            d = depth[b.id]
            for i in b.instrs[:-1]:
                d += dis.stack_effect(i.opcode, i.arg) if i.opcode >= dis.HAVE_ARGUMENT else \
                    dis.stack_effect(i.opcode)
            last = b.last
            outs = []
            if last.opcode >= dis.HAVE_ARGUMENT:
                jd = dis.stack_effect(last.opcode, last.arg, jump=True)
                fd = dis.stack_effect(last.opcode, last.arg, jump=False)
            else:
                jd = fd = dis.stack_effect(last.opcode)
            if last.opname == "FOR_ITER" and PY >= (3, 12):
                jd = -1  # the exit (END_FOR is skipped over)
            if last.offset in self.try_heads:
                jd = fd = 0  # (its TryMarker is pushed and popped by the branch)
            if b.target is not None:
                outs.append((b.target, d + jd))
            if b.fall is not None:
                outs.append((b.fall, d + fd))
            for s, sd in outs:
                if s.id not in depth:
                    depth[s.id] = sd
                    todo.append(s)
        self.depth = depth

    # -- dominators and loops ----------------------------------------------------
    def _dominators(self):
        order = self._rpo()
        idom = {order[0].id: order[0].id}
        pos = {b.id: k for k, b in enumerate(order)}

        def intersect(a, b):
            while a != b:
                while pos[a] > pos[b]:
                    a = idom[a]
                while pos[b] > pos[a]:
                    b = idom[b]
            return a

        changed = True
        while changed:
            changed = False
            for b in order[1:]:
                ps = [p.id for p in b.preds if p.id in idom]
                if not ps:
                    continue
                new = ps[0]
                for p in ps[1:]:
                    new = intersect(p, new)
                if idom.get(b.id) != new:
                    idom[b.id] = new
                    changed = True
        self.idom = idom
        self.rpo = order

    def _rpo(self):
        seen, out = set(), []

        def visit(b):
            stack = [(b, iter(b.succs))]
            seen.add(b.id)
            while stack:
                node, it = stack[-1]
                for s in it:
                    if s.id not in seen:
                        seen.add(s.id)
                        stack.append((s, iter(s.succs)))
                        break
                else:
                    stack.pop()
                    out.append(node)

        visit(self.blocks[0])
        return out[::-1]

    def dominates(self, a, b):
        while True:
            if a == b:
                return True
            nb = self.idom.get(b)
            if nb is None or nb == b:
                return False
            b = nb

    def _loops(self):
        """Natural loops: header block id -> set of body block ids."""
        self.loops = {}
        for b in self.reachable:
            for s in b.succs:
                if self.dominates(s.id, b.id):
                    body = self.loops.setdefault(s.id, {s.id})
                    todo = [b]
                    while todo:
                        n = todo.pop()
                        if n.id in body:
                            continue
                        body.add(n.id)
                        todo.extend(n.preds)
        # A for loop whose body never goes back to its head (every path in it
        # breaks, returns or raises: CPython drops the code after the jump)
        # has no back edge: its body is what its first block dominates.
        for h in self.reachable:
            if h.last.opname == "FOR_ITER" and h.id not in self.loops and h.fall is not None:
                body = {h.id}
                body.update(b.id for b in self.reachable if self.dominates(h.fall.id, b.id))
                self.loops[h.id] = body
        byid = {b.id: b for b in self.blocks}
        self.byid = byid


def postdominators(nodes, succs):
    """Post-dominator sets over `nodes` (ids); succs(n) gives successor ids,
    the exit node being "EXIT" (which every path reaches)."""
    allnodes = set(nodes) | {"EXIT"}
    pdom = {n: set(allnodes) for n in allnodes}
    pdom["EXIT"] = {"EXIT"}
    changed = True
    order = list(nodes)[::-1]
    while changed:
        changed = False
        for n in order:
            ss = succs(n)
            if not ss:
                new = {n, "EXIT"}
            else:
                new = set.intersection(*(pdom[s] for s in ss)) | {n}
            if new != pdom[n]:
                pdom[n] = new
                changed = True
    return pdom
