"""The control-flow graph of a code object as it is, for the dispatch form.

Where the structurer (cfg.py, decompile.py) cannot rebuild a function's
statements, dispatch.py writes its blocks as the cases of a loop over a
block number. That form needs only the plain graph: basic blocks cut at
every jump, jump target and edge of an exception-table entry (so that a
block is protected by one entry, or none), the clauses of each `try`'s
handler read from the table (`except E:` and a bare `except:`; each
clause's body is a block of its own), the natural loops of `for`
statements (FOR_ITER heads: a `for` stays a `for`, its body a dispatch of
its own) and a reverse post-order that visits a block after the blocks
that lead to it.
"""
import dis

from kjit.bytecode.cfg import (PY, _SKIP, Unsupported, _cut_comprehensions, is_cond_jump, is_terminal,
                               is_uncond_jump)


class FlatBlock:
    __slots__ = ("id", "instrs", "fall", "target", "succs", "preds", "handler")

    def __init__(self, id_):
        self.id = id_
        self.instrs = []
        self.fall = None
        self.target = None
        self.succs = []   # normal successors
        self.preds = []   # normal and exception predecessors
        self.handler = None  # the table entry protecting the block

    @property
    def start(self):
        return self.instrs[0].offset

    @property
    def last(self):
        return self.instrs[-1]

    def __repr__(self):
        return f"<flat block {self.id} @{self.start}>"


class Clause:
    """One `except` clause: `type` an expression (None for a bare
    `except:`), `body` the block its statements begin."""

    def __init__(self, type_, body):
        self.type = type_
        self.body = body


class Level:
    """The clauses of one `try` an exception meets, and the depth of the
    stack its handler keeps."""

    def __init__(self, clauses, depth):
        self.clauses = clauses
        self.depth = depth


def _refuse(why, ins):
    raise Unsupported(why + "; give kjit the source text", ins)


class FlatCFG:
    """Blocks, exception levels, for-loop bodies and an order of a code
    object (CPython 3.11 to 3.13). Offers what the stack machine reads of a
    CFG (`all_instrs`, `instrs`, `index`)."""

    def __init__(self, code, machine):
        self.code = code
        if PY < (3, 11):
            raise Unsupported("kjit reads bytecode on CPython 3.11 to 3.13: define the function in a file so "
                              "that kjit can read its source")
        instrs = [i for i in dis.get_instructions(code) if i.opname != "CACHE"]
        self.all_instrs = instrs
        try:
            table = dis._parse_exception_table(code)
        except Exception:  # noqa: BLE001 - older layouts
            table = []
        if PY >= (3, 12):
            instrs, table = _cut_comprehensions(code, instrs, table)
        ops = {i.opname for i in instrs}
        if ops & {"BEFORE_WITH", "SETUP_WITH", "LOAD_FAST_AND_CLEAR", "SEND", "GET_YIELD_FROM_ITER"}:
            _refuse("kjit could not rebuild this function's control flow from its bytecode", instrs[0])
        self.table = table
        self.instrs = [i for i in instrs if i.opname not in _SKIP]
        self.index = {ins.offset: k for k, ins in enumerate(self.instrs)}
        self.at = {i.offset: i for i in self.instrs}
        self._machine = machine
        self._build()
        self._levels = {}
        self._exception_edges()
        self._order()
        self._for_loops()

    # -- blocks -----------------------------------------------------------------
    def next_offset(self, offset):
        for ins in self.instrs:
            if ins.offset >= offset:
                return ins.offset
        return None

    def _entry(self, offset):
        """The exception-table entry protecting the instruction at `offset`."""
        for e in self.table:
            if e.start <= offset < e.end:
                return e
        return None

    def _build(self):
        ins = self.instrs
        leaders = {ins[0].offset}
        self.for_exit = {}
        for k, i in enumerate(ins):
            if is_cond_jump(i) or is_uncond_jump(i) or i.opname == "FOR_ITER":
                leaders.add(self.next_offset(i.argval))
                if k + 1 < len(ins):
                    leaders.add(ins[k + 1].offset)
            elif is_terminal(i) and k + 1 < len(ins):
                leaders.add(ins[k + 1].offset)
            if i.opname == "FOR_ITER":
                leaders.add(i.offset)
                # The loop's exit: past END_FOR (3.12) and its POP_TOP (3.13).
                t = self.index.get(self.next_offset(i.argval))
                if t is not None and ins[t].opname == "END_FOR":
                    t += 1
                    if PY >= (3, 13) and t < len(ins) and ins[t].opname == "POP_TOP":
                        t += 1
                if t is None or t >= len(ins):
                    _refuse("kjit could not rebuild this loop from its bytecode", i)
                self.for_exit[i.offset] = ins[t].offset
                leaders.add(ins[t].offset)
        for e in self.table:
            for off in (e.start, e.end, e.target):
                leaders.add(self.next_offset(off))
        self.clause_starts = set()
        for e in self.table:
            if not e.lasti:
                for c in self._parse_handler(e.target)[0]:
                    leaders.add(c[1])
                    self.clause_starts.add(c[1])
        leaders.discard(None)
        self.blocks = []
        self.block_at = {}
        for i in ins:
            if i.offset in leaders:
                b = FlatBlock(len(self.blocks))
                self.blocks.append(b)
                self.block_at[i.offset] = b
            self.blocks[-1].instrs.append(i)
        for k, b in enumerate(self.blocks):
            last = b.last
            nxt = self.blocks[k + 1] if k + 1 < len(self.blocks) else None
            if last.opname == "FOR_ITER":
                b.target = self.block_at[self.for_exit[last.offset]]
                b.fall = nxt
            elif is_uncond_jump(last):
                b.target = self.block_at[self.next_offset(last.argval)]
            elif is_cond_jump(last):
                b.target = self.block_at[self.next_offset(last.argval)]
                b.fall = nxt
            elif not is_terminal(last):
                b.fall = nxt
            for s in (b.fall, b.target):
                if s is not None and s not in b.succs:
                    b.succs.append(s)
            b.handler = self._entry(b.start)

    # -- try statements ------------------------------------------------------------
    def _parse_handler(self, target):
        """([(type instructions, first offset of the clause's body)], offset
        of the RERAISE of an exception no clause takes or None, whether a
        bare `except:` ends the chain) of the handler at `target`."""
        ins = self.instrs
        k = self.index.get(self.next_offset(target))
        if k is None or ins[k].opname != "PUSH_EXC_INFO":
            _refuse("kjit could not rebuild this try statement from its bytecode (a 'finally' or 'with' "
                    "it does not read)", ins[k] if k is not None else None)
        k += 1
        clauses = []
        for _ in range(64):
            if k >= len(ins):
                break
            i = ins[k]
            if i.opname == "POP_TOP":  # a bare `except:`
                clauses.append(((), ins[k + 1].offset))
                return clauses, None, True
            if i.opname == "RERAISE":
                return clauses, i.offset, False
            m = k
            while m < len(ins) and ins[m].opname != "CHECK_EXC_MATCH":
                if is_cond_jump(ins[m]) or is_uncond_jump(ins[m]) or is_terminal(ins[m]):
                    break
                m += 1
            if m + 2 >= len(ins) or ins[m].opname != "CHECK_EXC_MATCH" or not is_cond_jump(ins[m + 1]) or \
                    "FALSE" not in ins[m + 1].opname:
                _refuse("kjit could not rebuild this try statement from its bytecode", i)
            if ins[m + 2].opname != "POP_TOP":
                raise Unsupported("'except E as name' is not supported (the exception object cannot be bound)",
                                  ins[m + 2])
            clauses.append((tuple(ins[k:m]), ins[m + 3].offset))
            k = self.index.get(self.next_offset(ins[m + 1].argval))
            if k is None:
                break
        _refuse("kjit could not rebuild this try statement from its bytecode", ins[-1])

    def _is_cleanup(self, target):
        """Whether `target` is a handler's cleanup: COPY 3, POP_EXCEPT, RERAISE 1."""
        k = self.index.get(self.next_offset(target))
        ops = [i.opname for i in self.instrs[k:k + 3]] if k is not None else []
        return ops == ["COPY", "POP_EXCEPT", "RERAISE"]

    def levels(self, offset, seen=()):
        """The `try` levels an exception raised at `offset` meets, innermost
        first."""
        if offset in self._levels:
            return self._levels[offset]
        e = self._entry(offset)
        if e is None:
            out = []
        elif len(seen) > 64 or e.target in seen:
            _refuse("kjit could not rebuild this try statement from its bytecode", self.at.get(offset))
        elif e.lasti:
            if not self._is_cleanup(e.target):
                _refuse("kjit could not rebuild this try statement from its bytecode (a 'finally' or 'with' "
                        "it does not read)", self.at.get(self.next_offset(e.target)))
            out = self.levels(self.next_offset(e.target), seen + (e.target,))
        else:
            clauses, reraise, bare = self._parse_handler(e.target)
            level = Level([Clause(self._type(t), self.block_at[b]) for t, b in clauses], e.depth)
            out = [level]
            if not bare:
                out = out + self.levels(reraise, seen + (e.target,))
        self._levels[offset] = out
        return out

    def _type(self, instrs):
        """The expression of an except clause's class (None: a bare except)."""
        if not instrs:
            return None
        stack, out = [], []
        m = self._machine
        for i in instrs:
            if m.step(i, stack, out, None) or out:
                _refuse("kjit could not rebuild this except clause from its bytecode", i)
        if len(stack) != 1:
            _refuse("kjit could not rebuild this except clause from its bytecode", instrs[-1])
        return stack[0]

    def _exception_edges(self):
        """Each block's exception successors: the bodies of the clauses its
        exceptions can land in."""
        self.exc_succs = {}
        for b in self.blocks:
            out = []
            if b.handler is not None:
                for level in self.levels(b.start):
                    out += [c.body for c in level.clauses if c.body not in out]
            self.exc_succs[b.id] = out

    # -- order, dominators, for loops ---------------------------------------------------
    def all_succs(self, b):
        return b.succs + [s for s in self.exc_succs[b.id] if s not in b.succs]

    def _order(self):
        seen, out = {self.blocks[0].id}, []
        stack = [(self.blocks[0], iter(self.all_succs(self.blocks[0])))]
        while stack:
            node, it = stack[-1]
            for s in it:
                if s.id not in seen:
                    seen.add(s.id)
                    stack.append((s, iter(self.all_succs(s))))
                    break
            else:
                stack.pop()
                out.append(node)
        self.rpo = out[::-1]
        self.pos = {b.id: k for k, b in enumerate(self.rpo)}
        for b in self.rpo:
            for s in self.all_succs(b):
                s.preds.append(b)
        idom = {self.rpo[0].id: self.rpo[0].id}

        def intersect(a, c):
            while a != c:
                while self.pos[a] > self.pos[c]:
                    a = idom[a]
                while self.pos[c] > self.pos[a]:
                    c = idom[c]
            return a

        changed = True
        while changed:
            changed = False
            for b in self.rpo[1:]:
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

    def dominates(self, a, b):
        while True:
            if a == b:
                return True
            nb = self.idom.get(b)
            if nb is None or nb == b:
                return False
            b = nb

    def _for_loops(self):
        """For each FOR_ITER head: the blocks of its body (the natural loop
        of its back edges, and the body's first block); `loop_of` maps each
        block to the innermost for loop (head id) whose body holds it."""
        self.bodies = {}
        byid = {b.id: b for b in self.blocks}
        self.byid = byid
        for h in self.rpo:
            if h.last.opname != "FOR_ITER":
                continue
            if len(h.instrs) != 1:
                _refuse("kjit could not rebuild this loop from its bytecode", h.last)
            body = {h.fall.id}
            todo = [p for p in h.preds if self.dominates(h.id, p.id)]
            while todo:
                n = todo.pop()
                if n.id in body or n is h:
                    continue
                body.add(n.id)
                todo.extend(n.preds)
            self.bodies[h.id] = body
        # A loop inside another's body is a part of it (its body may never
        # go back to the outer head: every path in it leaves).
        changed = True
        while changed:
            changed = False
            for hid, body in self.bodies.items():
                for o, ob in self.bodies.items():
                    if o != hid and o in body and not ob <= body:
                        body |= ob
                        changed = True
        self.loop_of = {}
        # Inner loops have smaller bodies: the innermost one wins.
        for hid, body in sorted(self.bodies.items(), key=lambda kv: -len(kv[1])):
            for bid in body:
                self.loop_of[bid] = hid
        for hid, body in self.bodies.items():
            h = byid[hid]
            outside = [p for p in h.preds if p.id not in body]
            if len(outside) != 1 or outside[0].fall is not h or outside[0].last.opname != "GET_ITER":
                _refuse("kjit could not rebuild this for loop from its bytecode", h.last)
            inner = [o for o, ob in self.bodies.items() if o != hid and o in body]
            for o in inner:
                if not self.bodies[o] <= body:
                    _refuse("kjit could not rebuild this for loop from its bytecode", h.last)


_LOADS = {"LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW"}
_PAIRS = {"LOAD_FAST_LOAD_FAST": "uu", "LOAD_FAST_BORROW_LOAD_FAST_BORROW": "uu", "STORE_FAST_LOAD_FAST": "du",
          "STORE_FAST_STORE_FAST": "dd"}


def _accesses(ins):
    """(kind, name, site) of each local `ins` reads ("u") or writes ("d")."""
    op = ins.opname
    if op in _LOADS:
        return [("u", ins.argval, (ins.offset, 0))]
    if op in ("STORE_FAST", "DELETE_FAST"):
        return [("d", ins.argval, (ins.offset, 0))]
    if op in _PAIRS:
        return [(kind, name, (ins.offset, k)) for k, (kind, name) in enumerate(zip(_PAIRS[op], ins.argval))]
    return []


def local_webs(cfg):
    """A name per read and write of a local variable (by site: offset and
    place in the instruction) where the variable holds unrelated values in
    different parts of the function: the writes that reach a common read
    form one web, and each web but the first gets a name of its own (as
    if the source had used another name), so that a variable that changes
    type keeps the types apart in the dispatch form, as kjit's typer keeps
    them apart in the source's statements. Parameters keep their names;
    closure cells and names that comprehensions read are left alone."""
    code = cfg.code
    keep = set(code.co_cellvars) | set(code.co_freevars)
    for ins in cfg.instrs:
        if ins.opname == "KJIT_COMPREHENSION":
            keep |= {i.argval for i in ins.argval.kjit_instrs if isinstance(i.argval, str)}
            keep |= set(ins.argval.names)
    nparams = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)
    params = set(code.co_varnames[:nparams])
    acc = {b.id: [a for i in b.instrs for a in _accesses(i) if a[1] not in keep] for b in cfg.rpo}
    gen_all = {bid: {(a[1], a[2]) for a in xs if a[0] == "d"} for bid, xs in acc.items()}

    def transfer(bid, live):
        out = dict(live)
        for kind, name, site in acc[bid]:
            if kind == "d":
                out[name] = frozenset([site])
        return out

    entry = {n: frozenset([("param", n)]) for n in params}
    ins_of = {b.id: {} for b in cfg.rpo}
    ins_of[cfg.rpo[0].id] = dict(entry)
    changed = True
    while changed:
        changed = False
        for b in cfg.rpo:
            out = transfer(b.id, ins_of[b.id])
            exc = dict(ins_of[b.id])
            for name, site in gen_all[b.id]:
                exc[name] = exc.get(name, frozenset()) | {site}
            for s, defs in [(s, out) for s in b.succs] + [(s, exc) for s in cfg.exc_succs[b.id]]:
                cur = ins_of[s.id]
                for name, ds in defs.items():
                    if not ds <= cur.get(name, frozenset()):
                        cur[name] = cur.get(name, frozenset()) | ds
                        changed = True
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    use_defs = {}
    for b in cfg.rpo:
        live = dict(ins_of[b.id])
        for kind, name, site in acc[b.id]:
            key = (name, site)
            if kind == "d":
                find(key)
                live[name] = frozenset([site])
                continue
            ds = [(name, d) for d in live.get(name, ())]
            use_defs[key] = ds
            for d in ds[1:]:
                parent[find(d)] = find(ds[0])
    webs = {}
    for key in list(parent):
        webs.setdefault(key[0], {}).setdefault(find(key), []).append(key)
    names = {}
    taken = set(code.co_varnames) | set(code.co_names) | keep
    for name, groups in webs.items():
        if len(groups) < 2:
            continue
        order = sorted(groups, key=lambda r: (0, 0) if any(k[1] == ("param", name) for k in groups[r]) else
                       min(k[1] for k in groups[r] if k[1][0] != "param"))
        for n, root in enumerate(order[1:], 1):
            new = f"{name}_{n}"
            while new in taken:
                new += "_"
            taken.add(new)
            for key in groups[root]:
                names[key] = new
    out = {}
    for key, ds in use_defs.items():
        if ds and ds[0] in names:
            out[key] = names[ds[0]]
    for key, new in names.items():
        if key[1][0] != "param":
            out[key] = new
    return {(site, name): new for (name, site), new in out.items()}
