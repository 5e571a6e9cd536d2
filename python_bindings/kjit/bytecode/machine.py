"""The stack machine of the bytecode frontend: one instruction at a time,
on a stack of expressions (and markers), producing statements; stores
become assignments, tuple assignments, augmented assignments, loop targets
and nested functions.
"""
import ast

from kjit.bytecode.cfg import PY, Unsupported
from kjit.bytecode.nodes import (_BINOPS, _CMPOPS, NULL, SAVED, CompAdd, ExceptAs, ExcMarker, ExcMatch, FuncObj, Iter,
                                 LoopItem, UnpackGroup, UnpackItem,
                                 _at, _const, _none_to_absent, _pos_node, _same_target, _span)


_COMPREHENSIONS = ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>")


def _negated(test, ins):
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    return _span(_at(ast.UnaryOp(op=ast.Not(), operand=test), ins), test, test)


class StackMachine:
    """Instruction semantics; the structurer (decompile.Decompiler) drives it."""

    def born(self, v):
        """`v`, marked with when it was complete: a run of stores (`a, b =
        x, y`) pairs targets with values in that order, whatever the swaps."""
        if isinstance(v, ast.expr) and not hasattr(v, "_birth"):
            self._births = getattr(self, "_births", 0) + 1
            v._birth = self._births
        return v

    def step(self, ins, stack, out, ctx):
        """Runs one instruction; returns True when the path ends here."""
        op = ins.opname
        arg = ins.arg

        def push(v):
            stack.append(self.born(v))

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
            if ins.argval == ".0" and self.code.co_name in _COMPREHENSIONS:
                push(Iter(_at(ast.Name(id=".0", ctx=ast.Load()), ins)))  # the iterator it was called with
            else:
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
        elif op in ("STORE_FAST_STORE_FAST",):  # (3.13) two stores: the first may begin a run
            a, b = ins.argval
            v = pop()
            self.depth = len(stack)
            self.store(_at(ast.Name(id=a, ctx=ast.Store()), ins), v, out, ctx, ins, next_run=("half", ins.offset))
            v = pop()
            self.depth = len(stack)
            self.store(_at(ast.Name(id=b, ctx=ast.Store()), ins), v, out, ctx, ins, run_key=("half", ins.offset))
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
        elif op in ("BUILD_LIST", "BUILD_SET", "BUILD_MAP") and arg == 0 and not stack and \
                self.code.co_name in _COMPREHENSIONS:
            # A comprehension's collection, filled by the CompAdd statements.
            push(_at(ast.List(elts=[], ctx=ast.Load()), ins, _comprehension=True))
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
                if func.code.co_name in _COMPREHENSIONS and len(args) == 1 and isinstance(args[0], Iter):
                    push(self.comprehension(func, args[0], ins))  # (CPython 3.11: a function of its own)
                    return False
                raise Unsupported("kjit could not rebuild this call of a function made in place from its "
                                  "bytecode; define the function first (def), then call it", ins)
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
            if isinstance(posargs, ast.Tuple) and kw is None and (
                    getattr(posargs, "_from_list", False) or getattr(posargs, "_from_const", False)):
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
        elif op == "PUSH_EXC_INFO":  # (the branch to the handlers pushed nothing: both values are markers)
            push(ExcMarker())
            push(ExcMarker())
        elif op == "CHECK_EXC_MATCH":
            t = pop()
            push(_at(ExcMatch(t), ins))
        elif op == "POP_EXCEPT":
            pop()
        elif op == "RERAISE":
            out.append(_at(ast.Raise(exc=None, cause=None), ins))
            return True
        elif op == "POP_TOP":
            v = pop()
            if isinstance(v, UnpackItem):
                # (3.13) a store CPython found dead (`y, y = 1, 2`): the item
                # goes to a name that is not read.
                self.store(_at(ast.Name(id="_", ctx=ast.Store()), ins), v, out, ctx, ins)
                return False
            if v is NULL or isinstance(v, (Iter, LoopItem, ExcMarker)) or id(v) in self.copied:
                return False
            if isinstance(v, ast.expr) and out and isinstance(out[-1], ast.Assign) and \
                    getattr(out[-1], "_run", None) == ins.offset:
                # (3.13) `a, a = x, y` with the first store found dead: `x`
                # is still computed first, as a part of the assignment.
                self.store(_at(ast.Name(id="_", ctx=ast.Store()), ins), v, out, ctx, ins)
                return False
            if isinstance(v, ast.expr):
                out.append(_span(ast.Expr(value=v), v, v))
            return False
        elif op in ("COPY", "SWAP") and len(stack) < arg:
            raise Unsupported("kjit could not follow the stack in this bytecode", ins)
        elif op == "COPY":
            v = stack[-arg]
            self.copied[id(v)] = v
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
        elif op == "BUILD_MAP":  # {k0: v0, k1: v1}: the pairs in order on the stack
            flat = [pop() for _ in range(2 * arg)][::-1]
            push(self._dict(flat[0::2], flat[1::2], ins))
        elif op == "BUILD_CONST_KEY_MAP":  # {"a": x, "b": y}: the values, then a tuple of the keys
            keys = pop()
            values = [pop() for _ in range(arg)][::-1]
            if not isinstance(keys, ast.Tuple) or len(keys.elts) != arg:
                raise Unsupported("kjit could not follow the stack in this bytecode", ins)
            push(self._dict(keys.elts, values, ins))
        elif op in ("BUILD_SET", "DICT_UPDATE", "SET_UPDATE", "DICT_MERGE"):
            raise Unsupported("'**' in a dict display is not supported; add the items in a loop"
                              if op.startswith("DICT") else
                              "set displays are read from source text only (kjit follows the order CPython's "
                              "source compiler gives them); build the set with set() and add()", ins)
        elif op in ("IMPORT_NAME", "IMPORT_FROM"):
            raise Unsupported("import statements are not supported inside kernels; import at module level and use "
                              "the name in the kernel", ins)
        elif op == "DELETE_SUBSCR":  # del a[i]: the parser makes it a.__delitem__(i)
            index = pop()
            container = pop()
            tgt = _span(ast.Subscript(value=container, slice=index, ctx=ast.Del()), container, _pos_node(ins))
            out.append(_span(_at(ast.Delete(targets=[tgt]), ins), _pos_node(ins), tgt))
        elif op == "DELETE_FAST" and ins.argval in getattr(self, "except_names", ()) and out and \
                isinstance(out[-1], ast.Assign) and len(out[-1].targets) == 1 and \
                isinstance(out[-1].targets[0], ast.Name) and out[-1].targets[0].id == ins.argval and \
                isinstance(out[-1].value, ast.Constant) and out[-1].value.value is None:
            out.pop()  # `name = None; del name`: CPython's end of `except E as name:`, not the source's
        elif op in ("DELETE_FAST", "DELETE_ATTR", "DELETE_GLOBAL", "DELETE_DEREF"):
            raise Unsupported("'del' of a name or an attribute is not supported; only 'del a[i]' of a list's "
                              "element or a dict's key, or 'del a[lo:hi]' of a list's slice", ins)
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
        elif op == "RETURN_GENERATOR" and self.code.co_flags & 0x20:
            push(NULL)  # (popped at once)
        elif op == "YIELD_VALUE" and self.code.co_name == "<genexpr>":
            out.append(_at(CompAdd(None, pop()), ins))
            push(NULL)  # what was sent in: popped at once
        elif op in ("GET_YIELD_FROM_ITER", "SEND"):
            raise Unsupported("'yield from' is not supported; yield the values one by one in a loop", ins)
        elif op == "YIELD_VALUE" and self.code.co_flags & 0x20:
            # A generator function's `yield v`: an expression whose value is
            # what was sent in (a statement when it is popped at once).
            v = pop()
            push(_span(_at(ast.Yield(value=v), ins), _pos_node(ins), v))
        elif op in ("LIST_APPEND", "SET_ADD", "MAP_ADD") and self.code.co_name in _COMPREHENSIONS:
            # The comprehension's element: a statement its rebuilding reads
            # (the collection stays below on the stack).
            value = pop()
            key = pop() if op == "MAP_ADD" else None
            out.append(_at(CompAdd(key, value), ins))
        elif op == "KJIT_COMPREHENSION":  # (CPython 3.12+: compiled in place, cut out by the CFG)
            it = pop()
            if not isinstance(it, Iter):
                raise Unsupported("kjit could not rebuild this comprehension from its bytecode; write a loop", ins)
            node = self.comprehension(ins.argval, it, ins)
            for _ in ins.argval.names:
                push(SAVED)
            push(node)
        elif op in ("LOAD_FAST_AND_CLEAR", "LIST_APPEND", "SET_ADD", "MAP_ADD"):
            raise Unsupported("kjit could not rebuild this comprehension from its bytecode (a layout it does "
                              "not know); give kjit the source text, or write a loop", ins)
        else:
            raise Unsupported(f"the instruction {op} is not supported in kjit functions read "
                              "from bytecode", ins)
        return False

    def comprehension(self, fn, it, ins):
        """A comprehension (CPython 3.11 compiles one to a function called
        with the iterator over its first iterable): its code rebuilt as a
        function body (the collection, a loop per `for`, an `if` per
        condition, the element added), read back into the expression."""
        body = self.structured(fn.code)
        kind = {"<listcomp>": ast.ListComp, "<setcomp>": ast.SetComp, "<dictcomp>": ast.DictComp,
                "<genexpr>": ast.GeneratorExp}[fn.code.co_name]
        gens, element = [], []

        def walk(stmts, gen):
            for st in stmts:
                if isinstance(st, ast.For) and not st.orelse:
                    g = ast.comprehension(target=st.target, iter=st.iter, ifs=[], is_async=0)
                    gens.append(g)
                    walk(st.body, g)
                elif isinstance(st, ast.If) and not st.orelse and gen is not None and                         len(st.body) == 1 and isinstance(st.body[0], ast.Continue):  # if not cond: continue
                    gen.ifs.append(_negated(st.test, ins))
                elif isinstance(st, ast.If) and not st.orelse and gen is not None:
                    gen.ifs.append(st.test)
                    walk(st.body, gen)
                elif isinstance(st, ast.If) and gen is not None and not st.body and st.orelse:
                    gen.ifs.append(_negated(st.test, ins))
                    walk(st.orelse, gen)
                elif isinstance(st, CompAdd) and gen is not None and not element:
                    element.append(st)
                elif isinstance(st, (ast.Continue, ast.Pass)):
                    continue
                elif isinstance(st, ast.Return) and gen is None:
                    continue
                else:
                    raise Unsupported("kjit could not rebuild this comprehension from its bytecode; write "
                                      "a loop", ins)

        walk(body, None)
        if not gens or not element or not (isinstance(gens[0].iter, ast.Name) and gens[0].iter.id == ".0"):
            raise Unsupported("kjit could not rebuild this comprehension from its bytecode; write a loop", ins)
        gens[0].iter = it.iterable
        add = element[0]
        if kind is ast.DictComp:
            node = ast.DictComp(key=add.key, value=add.value, generators=gens)
        else:
            node = kind(elt=add.value, generators=gens)
        return _at(node, ins)

    @staticmethod
    def _dict(keys, values, ins):
        node = _at(ast.Dict(keys=list(keys), values=list(values)), ins)
        if keys:
            _span(node, keys[0], values[-1])
            _at(node, ins)  # (the display's own position: where CPython builds it)
        return node

    def store(self, target, v, out, ctx, ins, run_key=None, next_run=None):
        """STORE of `v` into `target`: a statement, a loop target, a part of
        a tuple assignment or an augmented assignment. A run of stores of
        values already on the stack (`a, b = x, y`) continues where the last
        assignment's `_run` is `run_key` (default: this instruction's
        offset) and goes on at `next_run` (default: the next instruction
        when it is a store)."""
        run_key = ins.offset if run_key is None else run_key
        if v is SAVED:  # a comprehension's names restored after it (3.12+): nothing of the source's
            return
        if isinstance(v, ExcMarker) and isinstance(target, ast.Name):  # except E as name
            self.except_names = getattr(self, "except_names", set()) | {target.id}
            out.append(_at(ExceptAs(target.id), ins))
            return
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
        if next_run is None:
            next_run = self._next_store(ins)
        if out and isinstance(out[-1], ast.Assign) and getattr(out[-1], "_run", None) == run_key:
            # The source's order is the order the values were computed in
            # (not their places on the stack: CPython swaps them so that the
            # targets are stored left to right).
            prev = out[-1]
            stored = prev._stored + [(getattr(v, "_birth", depth), target, v)]
            pairs = sorted(stored, key=lambda p: p[0])
            names = [ast.dump(p[1]) for p in stored]
            if len(set(names)) < len(names) and [id(p[2]) for p in pairs] != [id(p[2]) for p in stored]:
                raise Unsupported("kjit could not rebuild this tuple assignment from its bytecode", ins)
            prev._stored = stored
            tt = ast.Tuple(elts=[p[1] for p in pairs], ctx=ast.Store())
            vt = ast.Tuple(elts=[p[2] for p in pairs], ctx=ast.Load())
            _span(tt, tt.elts[0], tt.elts[-1])
            _span(vt, vt.elts[0], vt.elts[-1])
            prev.targets, prev.value = [tt], vt
            _span(prev, tt, vt)
            prev._run = next_run
            return
        node = _span(ast.Assign(targets=[target], value=v), target, v)
        node._run = next_run
        node._stored = [(getattr(v, "_birth", depth), target, v)]
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
        stores = ("STORE_FAST", "STORE_DEREF", "STORE_GLOBAL", "STORE_NAME", "STORE_FAST_STORE_FAST", "POP_TOP")
        if nxt.opname in stores and not nxt.is_jump_target:
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
    def structured(self, code):
        """The statements of `code`'s body by the structurer (if, while, for)."""
        return type(self)(code).function()

    def body_of(self, code):
        """The statements of a def's body (decompile.py: the dispatch form
        where the structurer cannot say them)."""
        return self.structured(code)

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
                dflt = [ast.Constant(value=d) for d in defaults]
        return ast.arguments(posonlyargs=[], args=args, vararg=vararg, kwonlyargs=kwonly,
                             kw_defaults=[None] * len(kwonly), kwarg=kwarg, defaults=dflt)

    def definition(self, code, defaults, name, decorators=(), instr=None):
        """The FunctionDef of `code` (a Lambda when it is one), rebuilt by a
        structurer of its own; at `instr` (MAKE_FUNCTION) when nested."""
        body = self.structured(code) if code.co_name == "<lambda>" else self.body_of(code)
        args = self._args(code, defaults)
        if code.co_name == "<lambda>":
            if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
                raise Unsupported("kjit could not rebuild this lambda from its bytecode", instr)
            node = ast.Lambda(args=args, body=body[0].value)
        else:
            node = ast.FunctionDef(name=name, args=args, body=body, decorator_list=list(decorators),
                                   returns=None)
        if instr is not None:
            _at(node, instr)
        if instr is None or isinstance(node, ast.FunctionDef):
            node.lineno = code.co_firstlineno
        if instr is None:
            node.col_offset = 0
        return node

    def inner_function(self, fn, name, decorators):
        return self.definition(fn.code, fn.defaults, name, decorators, fn.instr)

    def lambda_expr(self, fn):
        if fn.code.co_name != "<lambda>":
            raise Unsupported("kjit could not rebuild this function value from its bytecode", fn.instr)
        return self.definition(fn.code, fn.defaults, "<lambda>", (), fn.instr)
