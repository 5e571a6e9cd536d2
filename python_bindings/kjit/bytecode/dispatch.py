"""A function's body as a dispatch over its basic blocks: the form that
exists for any control flow.

Where the structurer (decompile.py) cannot say a function's control flow
with `if`, `while` and `for` (a jump it does not read, a value it would
write twice), its blocks are written as the cases of one loop:

    kjit_b = 0
    while True:
        if kjit_b == 0:
            ...block 0's statements...
            kjit_b = 3 if <its condition> else 5   (as an if/else)
        elif kjit_b == 3:
            ...

Nothing is evaluated twice: a value the bytecode keeps on the stack from
one block to the next goes through a name of its own (`kjit_s3_0`, the
first value on block 3's stack), and a value the bytecode copies (COPY) is
stored once (`kjit_t1`) and read from that name, in the order the bytecode
computed the values. A `for` statement stays a `for` (kjit iterates only
in `for`): its body is a dispatch of its own, left by `break` when a jump
goes elsewhere (the outer dispatch takes the block number). A block inside
a `try` is written inside `try: ... except E: kjit_b = <the clause's
first block>`, one `try` per level of nesting, so nested try statements
need nothing more.
"""
import ast

from kjit.bytecode.cfg import Unsupported
from kjit.bytecode.flat import _PAIRS, FlatCFG, local_webs
from kjit.bytecode.machine import StackMachine
from kjit.bytecode.nodes import NULL, SAVED, ExcMarker, FuncObj, Iter, LoopItem, UnpackItem

_MARKERS = (ExcMarker, Iter, LoopItem)


def _name(id_, store=False):
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _assign(targets, values):
    """`a = v` or `a, b = v, w` (all at once: a value may be a name assigned here)."""
    if len(targets) == 1:
        return ast.Assign(targets=[_name(targets[0], True)], value=values[0])
    return ast.Assign(targets=[ast.Tuple(elts=[_name(t, True) for t in targets], ctx=ast.Store())],
                      value=ast.Tuple(elts=list(values), ctx=ast.Load()))


def _is_marker(v):
    return v is NULL or v is SAVED or isinstance(v, _MARKERS)


def _same_marker(a, b):
    if a is NULL or a is SAVED or b is NULL or b is SAVED:
        return a is b
    return type(a) is type(b)


class Dispatcher(StackMachine):
    """Writes a code object's body in the dispatch form."""

    def __init__(self, code, rebuild, structurer):
        self.code = code
        self.rebuild = rebuild        # a def's body, by either form
        self.structurer = structurer  # decompile.Decompiler
        self.copied = {}
        self.kwnames = None
        self.came = None
        self.renames = {}
        self.cfg = FlatCFG(code, self)
        names = set(code.co_varnames) | set(code.co_cellvars) | set(code.co_freevars) | set(code.co_names)
        self.renames = local_webs(self.cfg)
        self.origin = {new: old for (_, old), new in self.renames.items()}
        self.locals = set(code.co_varnames) | set(code.co_cellvars) | set(self.renames.values())
        self.prefix = "kjit_"
        while any(n.startswith(self.prefix) for n in names):
            self.prefix = "_" + self.prefix
        self.var = self.prefix + "b"
        self.temps = 0
        self.items = 0
        self.layouts = {}  # block id -> [("temp", name) | ("attr", name, attr) | ("fixed", value)]
        self.cases = {}    # block id -> statements

    def structured(self, code):
        return self.structurer(code).function()

    def body_of(self, code):
        return self.rebuild(code)

    # -- values ------------------------------------------------------------------------
    def _global(self, v):
        """Whether `v` reads a global (or a closure's value) or a constant:
        safe to read again, and kept as it is (a function kept in a name
        is not something kjit calls)."""
        if isinstance(v, ast.Constant):
            return True
        if isinstance(v, ast.Name):
            return v.id not in self.locals and not v.id.startswith(self.prefix)
        if isinstance(v, ast.Attribute):
            return self._global(v.value)
        return False

    def _trivial(self, v):
        """Whether reading `v` again is reading the same value: nothing to store."""
        if isinstance(v, ast.Tuple):
            return all(self._trivial(e) for e in v.elts)
        return not isinstance(v, ast.expr) or isinstance(v, (ast.Name, ast.Constant)) or self._global(v)

    def _temp(self):
        self.temps += 1
        return f"{self.prefix}t{self.temps}"

    def flush(self, stack, out, keep_top=False):
        """Stores the values on `stack` that are computed but not yet
        written (in the order the bytecode computed them) into names of
        their own, and puts the names on the stack in their place. With
        `keep_top`, the top stays as it is when it was computed last."""
        pending = {}
        for k, v in enumerate(stack):
            if isinstance(v, ast.Attribute) and not self._global(v):
                v = v.value  # (a method: its object is stored, the attribute read where it is called)
            if isinstance(v, ast.Slice):
                raise Unsupported("kjit could not rebuild this slice from its bytecode")
            if not self._trivial(v):
                pending.setdefault(id(v), v)
        if keep_top and stack and id(stack[-1]) in pending:
            top = stack[-1]
            if all(getattr(o, "_birth", 0) <= getattr(top, "_birth", 0) for o in pending.values()):
                del pending[id(top)]
        if not pending:
            return
        names = {}
        for v in sorted(pending.values(), key=lambda x: getattr(x, "_birth", 0)):
            self._fix(v)
            n = self._temp()
            out.append(ast.copy_location(_assign([n], [v]), v) if hasattr(v, "lineno") else _assign([n], [v]))
            names[id(v)] = n
        for k, v in enumerate(stack):
            if id(v) in names:
                stack[k] = _name(names[id(v)])
            elif isinstance(v, ast.Attribute) and id(v.value) in names:
                stack[k] = ast.Attribute(value=_name(names[id(v.value)]), attr=v.attr, ctx=ast.Load())

    def step(self, ins, stack, out, ctx):
        if ins.opname == "RERAISE" or ins.opname == "RAISE_VARARGS" and not ins.arg:
            # (A clause's blocks run after its `except` ended: a bare `raise`
            # there has no exception to raise again.)
            raise Unsupported("kjit could not rebuild this 'raise' of the exception being handled from its "
                              "bytecode; give kjit the source text", ins)
        if self.renames:
            if ins.opname in _PAIRS:
                names = tuple(self.renames.get(((ins.offset, k), n), n) for k, n in enumerate(ins.argval))
                ins = ins._replace(argval=names)
            elif isinstance(ins.argval, str) and ((ins.offset, 0), ins.argval) in self.renames:
                ins = ins._replace(argval=self.renames[((ins.offset, 0), ins.argval)])
        if ins.opname == "COPY" and len(stack) >= (ins.arg or 0) and not self._trivial(stack[-ins.arg]):
            self.flush(stack, out)
        elif ins.opname in ("STORE_FAST", "STORE_DEREF", "STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST") and \
                len(stack) > 1:
            # (A store inside an expression, `(x := v)`: what was computed before it first.)
            below = stack[:-1]
            if any(not self._trivial(v) for v in below if not isinstance(v, UnpackItem)):
                self.flush(stack, out, keep_top=True)
        done = super().step(ins, stack, out, ctx)
        if done and self.code.co_flags & 0x20 and out and isinstance(out[-1], ast.Return) and \
                isinstance(out[-1].value, ast.Constant) and out[-1].value.value is None:
            out[-1].value = None  # (a generator's `return`: it has no value)
        return done

    def store(self, target, v, out, ctx, ins, run_key=None, next_run=None):
        if isinstance(target, ast.Name) and isinstance(v, ast.BinOp) and getattr(v, "_inplace", False) and \
                isinstance(v.left, ast.Name) and v.left.id != target.id and \
                self.origin.get(v.left.id, v.left.id) == self.origin.get(target.id, target.id):
            # `x += v` where the web of `x` changes (local_webs): in place
            # on the old name, then the new one is that value.
            old = ast.Name(id=v.left.id, ctx=ast.Store())
            out.append(ast.AugAssign(target=old, op=v.op, value=v.right))
            out.append(ast.Assign(targets=[target], value=_name(v.left.id)))
            return
        super().store(target, v, out, ctx, ins, run_key, next_run)

    # -- the layout of a block's stack -------------------------------------------------------
    def _layout(self, block, stack):
        out = []
        for k, v in enumerate(stack):
            name = f"{self.prefix}s{block.id}_{k}"
            if _is_marker(v) or self._global(v) and not isinstance(v, ast.Constant) or \
                    isinstance(v, ast.Constant) and v.value is Ellipsis:  # (`...` is only a subscript)
                out.append(("fixed", v))
            elif isinstance(v, ast.Attribute):
                out.append(("attr", name, v.attr))
            elif isinstance(v, ast.expr) and not isinstance(v, ast.Slice):
                out.append(("temp", name))
            else:
                raise Unsupported("kjit could not follow the stack in this bytecode", block.instrs[0])
        return out

    def entry_stack(self, block):
        out = []
        for slot in self.layouts[block.id]:
            if slot[0] == "fixed":
                out.append(slot[1])
            elif slot[0] == "temp":
                out.append(_name(slot[1]))
            else:
                out.append(ast.Attribute(value=_name(slot[1]), attr=slot[2], ctx=ast.Load()))
        return out

    def goto(self, block, stack, region, owner=None):
        """The statements of a jump to `block` with `stack`: its values into
        the names of `block`'s stack, then the block's number (or the `for`
        statement, where `block` is a for loop's head entered from before it)."""
        out = []
        if block.id in self.cfg.bodies:
            if self.inside(region, block.id):  # (the next item: `continue`)
                return [_assign([self.var], [ast.Constant(value=block.id)])]
            return self.for_loop(block, stack, out, region, owner)
        if block.id not in self.layouts:
            self.layouts[block.id] = self._layout(block, stack)
        layout = self.layouts[block.id]
        if len(layout) != len(stack):
            raise Unsupported(f"kjit could not follow the stack in this bytecode {block} {layout} {stack}", block.instrs[0])
        self.flush(stack, out)
        targets, values = [], []
        for slot, v in zip(layout, stack):
            if slot[0] == "fixed":
                ok = _same_marker(slot[1], v) if _is_marker(slot[1]) or _is_marker(v) else \
                    ast.dump(slot[1]) == ast.dump(v)
                if not ok:
                    raise Unsupported("kjit could not follow the stack in this bytecode", block.instrs[0])
            elif slot[0] == "attr":
                if not (isinstance(v, ast.Attribute) and v.attr == slot[2]):
                    raise Unsupported("kjit could not follow the stack in this bytecode", block.instrs[0])
                targets.append(slot[1])
                values.append(v.value)
            else:
                if _is_marker(v) or isinstance(v, (FuncObj, UnpackItem)):
                    raise Unsupported("kjit could not follow the stack in this bytecode", block.instrs[0])
                self._fix(v)
                targets.append(slot[1])
                values.append(v)
        if targets:
            out.append(_assign(targets, values))
        out.append(_assign([self.var], [ast.Constant(value=block.id)]))
        return out

    # -- regions ------------------------------------------------------------------------------
    def function(self):
        first = self.cfg.blocks[0]
        if first.preds:
            body = self.goto(first, [], None)
        else:
            body = self.protect(first, self.run_from(first, [], None, first), [], None)
        loop = self.dispatch(None, root=True)
        if loop is not None:
            body.append(loop)
        return body

    def members(self, region):
        cfg = self.cfg
        return [b for b in cfg.rpo if cfg.loop_of.get(b.id) == region and b.id not in cfg.bodies]

    def dispatch(self, region, root=False):
        """`while True:` over the cases of the blocks of `region` (a for
        loop's head id, or None for the function's body); None when no
        block is left to it (each was written where it is reached)."""
        members = self.members(region)
        done = set()
        progress = True
        while progress:
            progress = False
            for b in members:
                if b.id in done or b.id not in self.layouts:
                    continue
                done.add(b.id)
                progress = True
                self.cases[b.id] = self.block(b, region)
        emitted = [b for b in members if b.id in done]
        if not emitted:
            return None
        chain = None
        for b in reversed(emitted):
            body = self.cases[b.id] or [ast.Pass()]
            if chain is None and root:
                chain = body  # (the last case needs no test: every number the loop sees is one of its cases)
                continue
            test = ast.Compare(left=_name(self.var), ops=[ast.Eq()], comparators=[ast.Constant(value=b.id)])
            chain = [ast.If(test=test, body=body, orelse=chain if chain is not None else [ast.Break()])]
        return ast.While(test=ast.Constant(value=True), body=chain, orelse=[])

    def inside(self, region, head):
        """Whether `region` is the body of the for loop `head` or inside it."""
        while region is not None:
            if region == head:
                return True
            region = self.cfg.loop_of.get(region)
        return False

    def for_loop(self, head, stack, out, region, owner):
        """`for` over the iterator on top of `stack` (entering `head`): the
        loop's item in a name of its own, the body a dispatch, the normal
        exit an `else:` that goes on to the block after the loop."""
        if not stack or not isinstance(stack[-1], Iter):
            raise Unsupported("kjit could not rebuild this loop from its bytecode", head.last)
        it = stack[-1]
        below = stack[:-1]
        self.flush(below, out)
        first = head.fall
        target, skip = self._for_target(first)
        if target is None or not all(p is head for p in first.preds):
            self.items += 1
            item = f"{self.prefix}i{self.items}"
            target, skip = _name(item, True), 0
            entry = below + [it, _name(item)]
        else:
            entry = below + [it]
        if all(p is head for p in first.preds):
            body = self.protect(first, self.run_from(first, list(entry), head.id, first, skip), entry, head.id)
        else:
            body = self.goto(first, entry, head.id)
        loop = self.dispatch(head.id)
        if loop is not None:
            body.append(loop)
        if self._leaves(head):
            # Back at the head: the next item; elsewhere: leave the loop.
            body.append(ast.If(test=ast.Compare(left=_name(self.var), ops=[ast.NotEq()],
                                                comparators=[ast.Constant(value=head.id)]),
                               body=[ast.Break()], orelse=[]))
        self._fix(it.iterable)
        node = ast.For(target=target, iter=it.iterable, body=body, orelse=[])
        out.append(node)
        after = self.edge(head, head.target, list(below), region, owner)
        if self._leaves(head):
            node.orelse = after  # (a jump out of the body skips it)
        else:
            out += after
        return out

    def _for_target(self, first):
        """(target, instructions it takes) where the loop's body begins by
        storing the item in names (`for x in`, `for a, b in`): the `for`
        says them itself (kjit's literal_unroll versions the body by its
        target), else (None, 0)."""
        ins = first.instrs

        def names(i):
            if i.opname == "STORE_FAST":
                return [self.renames.get(((i.offset, 0), i.argval), i.argval)]
            if i.opname == "STORE_FAST_STORE_FAST":
                return [self.renames.get(((i.offset, k), n), n) for k, n in enumerate(i.argval)]
            return None

        one = names(ins[0])
        if one is not None and len(one) == 1:
            return _name(one[0], True), 1
        if ins[0].opname == "UNPACK_SEQUENCE" and ins[0].arg:
            got, k = [], 1
            while len(got) < ins[0].arg and k < len(ins) and names(ins[k]) is not None:
                got += names(ins[k])
                k += 1
            if len(got) == ins[0].arg:
                return ast.Tuple(elts=[_name(n, True) for n in got], ctx=ast.Store()), k
        return None, 0

    def _leaves(self, head):
        """Whether a jump (or an exception) leaves the body of `head` for
        another place than the head."""
        body = self.cfg.bodies[head.id]
        return any(s.id not in body and s is not head for bid in body
                   for s in self.cfg.all_succs(self.cfg.byid[bid]))

    # -- one block -------------------------------------------------------------------------------
    def block(self, b, region):
        stack = self.entry_stack(b)
        entry = list(stack)
        return self.protect(b, self.run_from(b, stack, region, b), entry, region)

    def run_from(self, b, stack, region, owner, skip=0):
        """The statements of block `b` from `stack` (after its first `skip`
        instructions), and of the blocks only it leads to (written in
        place), in the case of block `owner`."""
        out = []
        ins_list = b.instrs
        end = None
        for k, ins in enumerate(ins_list):
            if k < skip:
                continue
            if ins.opname == "FOR_ITER":
                raise Unsupported("kjit could not rebuild this loop from its bytecode", ins)
            if is_jump(ins) and k == len(ins_list) - 1:
                end = ins
                break
            if self.step(ins, stack, out, None):
                return out
        if end is None:
            if b.fall is None:
                raise Unsupported("kjit could not follow the control flow of this bytecode", ins_list[-1])
            out += self.edge(b, b.fall, stack, region, owner)
        elif end.opname.startswith("JUMP") and "IF" not in end.opname:
            out += self.edge(b, b.target, stack, region, owner)
        else:
            out += self.branch(b, end, stack, region, owner)
        return out

    def edge(self, src, t, stack, region, owner):
        """A jump from `src` to `t`: `t` written in place when only `src`
        leads to it (and the same try statements protect it), else a goto."""
        cfg = self.cfg
        for _ in range(8):  # (a block that only jumps, or drops markers and jumps: to where it jumps)
            pops = len(t.instrs) - 1
            if t.id in cfg.bodies or t.target is None or t.target is t or not t.last.opname.startswith("JUMP") or \
                    pops > len(stack) or any(i.opname not in ("POP_TOP", "POP_EXCEPT") for i in t.instrs[:-1]) or \
                    not all(_is_marker(v) for v in stack[len(stack) - pops:]):
                break
            stack = stack[:len(stack) - pops]
            t = t.target
        if owner is not None and t.id not in cfg.bodies and cfg.loop_of.get(t.id) == region and t.id not in self.layouts and \
                all(p is src for p in t.preds) and t.handler is owner.handler and t is not cfg.blocks[0] and \
                not (region is not None and t is cfg.byid[region].fall):
            return self.run_from(t, stack, region, owner)
        return self.goto(t, stack, region, owner)

    def branch(self, b, ins, stack, region, owner):
        op = ins.opname.replace("_FORWARD", "").replace("_BACKWARD", "")
        out = []
        self.flush(stack, out, keep_top=True)
        v = stack.pop()
        self._fix(v)
        if op in ("JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP"):
            if not self._trivial(v):
                stack.append(v)
                self.flush(stack, out)
                v = stack.pop()
            on_jump, on_fall = stack + [v], list(stack)
            cond = v if op == "JUMP_IF_TRUE_OR_POP" else ast.UnaryOp(op=ast.Not(), operand=v)
        else:
            on_jump, on_fall = list(stack), list(stack)
            if op in ("POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE"):
                cond = v if op.endswith("TRUE") else ast.UnaryOp(op=ast.Not(), operand=v)
            elif op in ("POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE"):
                cmp = ast.Is() if op == "POP_JUMP_IF_NONE" else ast.IsNot()
                cond = ast.Compare(left=v, ops=[cmp], comparators=[ast.Constant(value=None)])
            else:
                raise Unsupported(f"unsupported jump {ins.opname}", ins)
        if hasattr(v, "lineno"):
            ast.copy_location(cond, v)
        yes = self.edge(b, b.target, on_jump, region, owner)
        no = self.edge(b, b.fall, on_fall, region, owner)
        out.append(ast.If(test=cond, body=yes, orelse=no))
        return out

    def protect(self, b, out, entry, region):
        """`out` inside a `try` per level of the try statements protecting
        `b`: each clause jumps to its body with the stack the handler keeps
        (and the exception's marker, which POP_EXCEPT takes)."""
        if b.handler is None:
            return out
        for level in self.cfg.levels(b.start):
            if level.depth > len(entry):
                raise Unsupported("kjit could not follow the stack in this bytecode", b.instrs[0])
            handlers = []
            for c in level.clauses:
                kept = list(entry[:level.depth]) + [ExcMarker()]
                handlers.append(ast.ExceptHandler(type=c.type, name=None,
                                                  body=self.goto(c.body, kept, region)))
            out = [ast.Try(body=out or [ast.Pass()], handlers=handlers, orelse=[], finalbody=[])]
        return out


def is_jump(ins):
    from kjit.bytecode.cfg import is_cond_jump, is_uncond_jump
    return is_cond_jump(ins) or is_uncond_jump(ins)


def dispatch_body(code):
    """The statements of `code`'s body in the dispatch form."""
    return Dispatcher(code).function()
