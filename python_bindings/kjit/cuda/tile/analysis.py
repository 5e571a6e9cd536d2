"""The analysis half of a tile program's translation (translate.py): what
each expression is (a tile's shape and element type, or a scalar), the
program's constants and names, and errors at the user's line."""
import ast
import textwrap

from kjit import errors
from kjit import types as kt

# Tile functions by kind (the module's names; `T.` below is kjit.cuda.tile).
_MATH = {"exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2", "sqrt": "sqrt", "sin": "sin",
         "cos": "cos", "tanh": "tanh", "floor": "floor", "ceil": "ceil"}
_REDUCE = {"sum", "max", "min"}
_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
           ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<",
           ast.RShift: ">>"}
_CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}


def _cuda():
    from kjit import cuda
    return cuda


class Tile:
    """A tile variable: its shape, element type and where it lives."""

    def __init__(self, name, shape, dtype, shared):
        self.name, self.shape, self.dtype, self.shared = name, shape, dtype, shared
        self.mirror = None  # a shared copy of a register tile, made where another thread reads it

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n


def _float_rank(t):
    if isinstance(t, kt.Float):
        return t.bitwidth
    return 0


def reduce_type(api, t):
    """The element type of reduction T.<api> of a tile of type t: sums of
    16-bit floats are float32, of bools int32."""
    if api != "sum":
        return t
    if isinstance(t, kt.Float) and t.bitwidth < 32:
        return kt.float32
    return kt.int32 if t == kt.boolean else t


def promote(a, b):
    """The element type of an operation on tiles of types a and b (None: a
    Python scalar, which takes the tile's type)."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    fa, fb = _float_rank(a), _float_rank(b)
    if fa and fb:
        if fa == fb or max(fa, fb) <= 16:
            return kt.float32  # float16 with bfloat16, or two 8-bit formats
        return a if fa > fb else b
    if fa:
        return a
    if fb:
        return b
    if a == kt.boolean:
        return b
    if b == kt.boolean:
        return a
    return a if a.bitwidth >= b.bitwidth else b


class Analysis:
    """A tile program read for one set of argument types: its names,
    constants and the type of each expression."""

    def __init__(self, func, api, arg_types, num_warps, source):
        self.func, self.api = func, api
        self.nt = num_warps * 32
        self.filename, text, first = source
        dedented = textwrap.dedent(text)
        self.col_shift = len(text.splitlines()[0]) - len(dedented.splitlines()[0])
        self.line_shift = first - 1
        self.source_lines = text.splitlines()
        tree = ast.parse(dedented)
        self.fdef = next(n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
        self.env = dict(func.__globals__)
        if func.__closure__:
            for name, cell in zip(func.__code__.co_freevars, func.__closure__):
                try:
                    self.env[name] = cell.cell_contents
                except ValueError:
                    pass
        self.params = [a.arg for a in self.fdef.args.args]
        self.arg_types = dict(zip(self.params, arg_types))
        self.tiles = {}
        self.consts = {}
        self.assigned = self._assignments()
        self.locals = set(self.params) | set(self.assigned)
        self.wants_shared = self._shared_uses()
        self.scalar_names = set()  # names assigned scalars so far
        self.mma = False  # T.dot by matrix instructions where it fits (translate.py), "required": or an error
        self.mma_kind = "mma_sync"  # NVIDIA sm_80+; "mfma": AMD CDNA (self.amd_arch)
        self.amd_arch = None
        self.used_mma = False
        self.lines, self.linemap = [], []
        self.allocs = []
        self.smem_bytes = 0
        self.depth = 1
        self.temps = 0
        self.globals = {"_k_cuda": _cuda(), "_k_math": __import__("math"), "_k_f32": kt.float32,
                        "_k_i32": kt.int32, "_k_i64": kt.int64}
        self.dtype_names = {}
        self.node = self.fdef

    # -- errors -----------------------------------------------------------
    def error(self, node, message, cls=errors.UnsupportedError):
        line = getattr(node, "lineno", self.fdef.lineno)
        col = getattr(node, "col_offset", 0)
        end = getattr(node, "end_col_offset", None) if getattr(node, "end_lineno", None) == line else None
        raise located(cls, self.filename, line + self.line_shift, col + self.col_shift + 1, message,
                      self.source_lines, line - 1, end + self.col_shift if end is not None else None)

    # -- pre-passes ---------------------------------------------------------
    def _assignments(self):
        counts = {}
        for n in ast.walk(self.fdef):
            targets = []
            if isinstance(n, ast.Assign):
                targets = n.targets
            elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For)):
                targets = [n.target]
            for t in targets:
                for x in ast.walk(t):
                    if isinstance(x, ast.Name):
                        counts[x.id] = counts.get(x.id, 0) + 1
        return counts

    def api_name(self, node):
        """The tile function `node` names (`T.load`, `load` imported from the
        module), or None."""
        obj = self.resolve(node)
        if obj is not None and getattr(obj, "__kjit_tile_api__", None):
            return obj.__name__
        return None

    def resolve(self, node):
        """The Python object a global name or attribute chain refers to, or
        None (a local, or not a name)."""
        if isinstance(node, ast.Name):
            if node.id in self.locals:
                return None
            return self.env.get(node.id, getattr(__builtins__, node.id, None) if not isinstance(
                __builtins__, dict) else __builtins__.get(node.id))
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            return getattr(base, node.attr, None) if base is not None else None
        return None

    def _shared_uses(self):
        """Tile names that other threads read: T.dot operands, reduction
        inputs, transposed or broadcast reads. They live in shared memory."""
        names = set()

        def under(node):
            while isinstance(node, ast.Call) and self.api_name(node.func) == "trans" and node.args:
                node = node.args[0]
            while isinstance(node, ast.Attribute) and node.attr == "T":
                node = node.value
            if isinstance(node, ast.Subscript):
                node = node.value
            if isinstance(node, ast.Name):
                names.add(node.id)

        for n in ast.walk(self.fdef):
            if isinstance(n, ast.Call):
                api = self.api_name(n.func)
                if api == "dot" and len(n.args) >= 2:
                    under(n.args[0])
                    under(n.args[1])
                elif api in _REDUCE or api == "trans":
                    if n.args:
                        under(n.args[0])
            elif isinstance(n, ast.BinOp) and isinstance(n.op, ast.MatMult):
                under(n.left)
                under(n.right)
            elif isinstance(n, (ast.Subscript, ast.Attribute)) and (
                    isinstance(n, ast.Subscript) or n.attr == "T"):
                under(n)
        return names

    # -- constants and types ------------------------------------------------
    def const_int(self, node, what="a tile's shape"):
        v = self._const(node)
        if not isinstance(v, int) or isinstance(v, bool):
            self.error(node, f"{what} must be a constant integer (a literal, a module constant, or a local "
                       "assigned such a value once)", errors.TypingError)
        return v

    def _const(self, node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in self.consts:
                return self.consts[node.id]
            if node.id in self.locals:
                return None
            v = self.env.get(node.id)
            return v if isinstance(v, int) else None
        if isinstance(node, ast.Attribute):
            v = self.resolve(node)
            return v if isinstance(v, int) else None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            v = self._const(node.operand)
            return -v if v is not None else None
        if isinstance(node, ast.BinOp) and type(node.op) in (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv,
                                                               ast.Mod, ast.LShift, ast.RShift):
            a, b = self._const(node.left), self._const(node.right)
            if a is None or b is None:
                return None
            try:
                return eval(f"{a} {_BINOPS[type(node.op)]} {b}")  # two ints: no code runs
            except ZeroDivisionError:
                return None
        return None

    def shape_of(self, node):
        if isinstance(node, ast.Tuple):
            shape = tuple(self.const_int(e) for e in node.elts)
        else:
            shape = (self.const_int(node),)
        if not 1 <= len(shape) <= 2 or any(d <= 0 for d in shape):
            self.error(node, f"a tile has 1 or 2 dimensions of positive extent, not {shape}",
                       errors.TypingError)
        return shape

    def dtype_of(self, node):
        if isinstance(node, ast.Attribute) and node.attr == "dtype" and isinstance(node.value, ast.Name) \
                and node.value.id in self.arg_types:
            t = self.arg_types[node.value.id]
            if isinstance(t, kt.Array):
                return t.dtype
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            obj = getattr(kt, node.value, None)
        else:
            obj = self.resolve(node)
        t = obj if isinstance(obj, kt.Type) else None
        if t is None and obj is not None:
            try:
                import numpy as np
                from kjit.np.numpy_support import from_dtype
                t = from_dtype(np.dtype(obj))
            except Exception:  # noqa: BLE001 (not a dtype: the error below)
                t = None
        if not isinstance(t, (kt.Float, kt.Integer, kt.Boolean)):
            self.error(node, "a tile's element type must be a number type (kt.float32, kt.bfloat16, "
                       "numpy.int32 ...) or an array argument's `.dtype`", errors.TypingError)
        return t

    def dtype_name(self, t):
        name = self.dtype_names.get(t)
        if name is None:
            name = f"_k_dt{len(self.dtype_names)}"
            self.dtype_names[t] = name
            self.globals[name] = t
        return name

    def array_arg(self, node, what):
        if not (isinstance(node, ast.Name) and isinstance(self.arg_types.get(node.id), kt.Array)):
            self.error(node, f"{what} takes an array argument of the kernel", errors.TypingError)
        return self.arg_types[node.id]

    def kwargs(self, call, names, required):
        """The call's arguments by name (positional in the order of
        `names`), checking counts."""
        api = self.api_name(call.func)
        out = dict(zip(names, call.args))
        if len(call.args) > len(names):
            self.error(call, f"T.{api} takes at most {len(names)} arguments")
        for kw in call.keywords:
            if kw.arg not in names or kw.arg in out:
                self.error(kw, f"T.{api} has no argument {kw.arg!r} here" if kw.arg not in names
                           else f"T.{api} got {kw.arg!r} twice")
            out[kw.arg] = kw.value
        for r in required:
            if r not in out:
                self.error(call, f"T.{api} needs its argument {r!r}")
        return out

    # -- what an expression is ----------------------------------------------
    def is_tile(self, node):
        return self.info(node)[0] is not None

    def info(self, node):
        """(shape, dtype) of a tile expression; (None, None) for a scalar."""
        if isinstance(node, ast.Name):
            t = self.tiles.get(node.id)
            return (t.shape, t.dtype) if t else (None, None)
        if isinstance(node, ast.Call):
            return self.call_info(node)
        if isinstance(node, ast.BinOp):
            ls, lt = self.info(node.left)
            rs, rt = self.info(node.right)
            if isinstance(node.op, ast.MatMult):
                if ls is None or rs is None:
                    self.error(node, "`@` multiplies two tiles", errors.TypingError)
                return self.dot_shape(node, ls, rs, None), self.dot_type(node, lt, rt, None)
            if ls is None and rs is None:
                return None, None
            shape = self.broadcast(node, ls, rs)
            if ls is None:
                lt = self.scalar_type(node.left, rt)
            if rs is None:
                rt = self.scalar_type(node.right, lt)
            t = promote(lt, rt)
            if isinstance(node.op, ast.Div) and not isinstance(t, kt.Float):
                t = kt.float32
            return shape, t
        if isinstance(node, ast.UnaryOp):
            s, t = self.info(node.operand)
            if s is not None and isinstance(node.op, ast.Not):
                return s, kt.boolean
            return s, t
        if isinstance(node, ast.Compare):
            parts = [self.info(x)[0] for x in [node.left] + node.comparators]
            if all(p is None for p in parts):
                return None, None
            if len(node.ops) != 1:
                self.error(node, "a chained comparison of tiles: write (a < b) & (b < c)")
            return self.broadcast(node, parts[0], parts[1]), kt.boolean
        if isinstance(node, ast.Subscript):
            s, t = self.info(node.value)
            if s is None:
                return None, None
            return self.subscript_shape(node, s), t
        if isinstance(node, ast.Attribute):
            s, t = self.info(node.value)
            if s is None:
                return None, None
            if node.attr == "T":
                return tuple(reversed(s)), t
            self.error(node, f"a tile has no attribute {node.attr!r} (it has .T, .shape, .dtype and .astype)")
        if isinstance(node, ast.IfExp):
            if any(self.is_tile(x) for x in (node.test, node.body, node.orelse)):
                self.error(node, "`a if c else b` on tiles: write T.where(c, a, b)")
            return None, None
        if isinstance(node, (ast.BoolOp,)):
            if any(self.is_tile(x) for x in node.values):
                self.error(node, "`and`/`or` on tiles: write (a) & (b), (a) | (b)")
            return None, None
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr) and self.is_tile(child):
                self.error(child, "a tile cannot be used here (tiles go into T.* calls, arithmetic, "
                           "comparisons and T.store)")
        return None, None

    def scalar_type(self, node, tile_type):
        """The type a Python scalar takes beside a tile of `tile_type`: the
        tile's, except a float literal beside integers (float32)."""
        if isinstance(node, ast.Constant) and isinstance(node.value, float) and \
                not isinstance(tile_type, kt.Float):
            return kt.float32
        return None

    def broadcast(self, node, a, b):
        if a is None:
            return b
        if b is None:
            return a
        if len(a) != len(b):
            self.error(node, f"tiles of shapes {a} and {b} do not broadcast (index a 1-d tile with "
                       "[:, None] or [None, :] to use it along a 2-d tile's rows or columns)",
                       errors.TypingError)
        out = []
        for x, y in zip(a, b):
            if x != y and 1 not in (x, y):
                self.error(node, f"tiles of shapes {a} and {b} do not broadcast", errors.TypingError)
            out.append(max(x, y))
        return tuple(out)

    def subscript_shape(self, node, shape):
        idx = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if len(shape) != 1 or len(idx) != 2:
            self.error(node, "a tile's only subscripts are t[:, None] and t[None, :] of a 1-d tile "
                       "(tiles are not indexed element by element)")
        full = [isinstance(i, ast.Slice) and i.lower is None and i.upper is None and i.step is None
                for i in idx]
        none = [isinstance(i, ast.Constant) and i.value is None for i in idx]
        if full == [True, False] and none == [False, True]:
            return (shape[0], 1)
        if full == [False, True] and none == [True, False]:
            return (1, shape[0])
        self.error(node, "a tile's only subscripts are t[:, None] and t[None, :] of a 1-d tile")

    def dot_shape(self, node, a, b, acc):
        if len(a) != 2 or len(b) != 2 or a[1] != b[0]:
            self.error(node, f"T.dot multiplies an (M, K) tile by a (K, N) tile, not {a} by {b}",
                       errors.TypingError)
        shape = (a[0], b[1])
        if acc is not None and acc != shape:
            self.error(node, f"T.dot's accumulator is {acc}, the product {shape}", errors.TypingError)
        return shape

    def dot_type(self, node, a, b, acc):
        for t in (a, b):
            if not (isinstance(t, kt.Float) or (isinstance(t, kt.Integer) and t.bitwidth == 8)):
                self.error(node, f"T.dot takes tiles of floats or 8-bit integers, not {t}", errors.TypingError)
        if acc is not None:
            return acc
        return kt.float32 if isinstance(a, kt.Float) else kt.int32

    def reduce_axis(self, api, k):
        """The axis of a reduction's arguments `k`, or None (all elements)."""
        if "axis" not in k or (isinstance(k["axis"], ast.Constant) and k["axis"].value is None):
            return None
        return self.const_int(k["axis"], f"T.{api}'s axis")

    def call_info(self, node):
        api = self.api_name(node.func)
        if api is None:
            if isinstance(node.func, ast.Attribute) and node.func.attr == "astype" and \
                    self.is_tile(node.func.value):
                if len(node.args) != 1 or node.keywords:
                    self.error(node, "astype takes one element type")
                return self.info(node.func.value)[0], self.dtype_of(node.args[0])
            for a in list(node.args) + [k.value for k in node.keywords]:
                if self.is_tile(a):
                    self.error(a, "a tile passed to a function that is not a tile function (T.*)")
            return None, None
        if api == "load":
            k = self.kwargs(node, ["array", "offsets", "shape", "padding", "mask"], ["array", "offsets", "shape"])
            at = self.array_arg(k["array"], "T.load")
            shape = self.shape_of(k["shape"])
            if at.ndim != len(shape):
                self.error(node, f"T.load of a {len(shape)}-d tile from a {at.ndim}-d array", errors.TypingError)
            return shape, at.dtype
        if api in ("zeros", "full"):
            names = ["shape", "dtype"] if api == "zeros" else ["shape", "value", "dtype"]
            k = self.kwargs(node, names, names[:-1])
            return self.shape_of(k["shape"]), self.dtype_of(k["dtype"]) if "dtype" in k else kt.float32
        if api == "arange":
            k = self.kwargs(node, ["start", "end"], ["start"])
            lo, hi = (0, self.const_int(k["start"], "T.arange's bound")) if "end" not in k else (
                self.const_int(k["start"], "T.arange's bound"), self.const_int(k["end"], "T.arange's bound"))
            if hi <= lo:
                self.error(node, "T.arange(start, end) needs end > start", errors.TypingError)
            return (hi - lo,), kt.int32
        if api == "dot":
            k = self.kwargs(node, ["a", "b", "acc"], ["a", "b"])
            (sa, ta), (sb, tb) = self.info(k["a"]), self.info(k["b"])
            if sa is None or sb is None:
                self.error(node, "T.dot multiplies two tiles", errors.TypingError)
            sacc, tacc = self.info(k["acc"]) if "acc" in k else (None, None)
            if "acc" in k and sacc is None:
                self.error(k["acc"], "T.dot's accumulator must be a tile (T.zeros((M, N), float32))",
                           errors.TypingError)
            return self.dot_shape(node, sa, sb, sacc), self.dot_type(node, ta, tb, tacc)
        if api == "trans":
            if len(node.args) != 1:
                self.error(node, "T.trans takes one tile")
            s, t = self.info(node.args[0])
            if s is None or len(s) != 2:
                self.error(node, "T.trans takes a 2-d tile", errors.TypingError)
            return tuple(reversed(s)), t
        if api in _REDUCE:
            k = self.kwargs(node, ["input", "axis"], ["input"])
            s, t = self.info(k["input"])
            if s is None:
                self.error(node, f"T.{api} reduces a tile", errors.TypingError)
            axis = self.reduce_axis(api, k)
            t = reduce_type(api, t)
            if axis is None:
                return None, None  # a scalar
            if axis < 0:
                axis += len(s)
            if not 0 <= axis < len(s):
                self.error(node, f"axis {axis} of a {len(s)}-d tile", errors.TypingError)
            rest = tuple(d for i, d in enumerate(s) if i != axis)
            if not rest:
                return None, None
            return rest, t
        if api in _MATH or api == "abs":
            if len(node.args) != 1 or node.keywords:
                self.error(node, f"T.{api} takes one tile")
            s, t = self.info(node.args[0])
            if s is None:
                return None, None
            if api != "abs" and not (isinstance(t, kt.Float) and t.bitwidth >= 32):
                t = kt.float32
            return s, t
        if api in ("maximum", "minimum"):
            if len(node.args) != 2 or node.keywords:
                self.error(node, f"T.{api} takes two operands")
            (sa, ta), (sb, tb) = self.info(node.args[0]), self.info(node.args[1])
            if sa is None and sb is None:
                return None, None
            return self.broadcast(node, sa, sb), promote(ta, tb)
        if api == "where":
            if len(node.args) != 3 or node.keywords:
                self.error(node, "T.where takes a condition and two values")
            (sc, _), (sa, ta), (sb, tb) = (self.info(x) for x in node.args)
            shape = self.broadcast(node, self.broadcast(node, sc, sa), sb)
            if shape is None:
                return None, None
            return shape, promote(ta, tb)
        if api in ("program_id", "num_programs", "swizzle2d", "range", "persistent", "num_sms", "jit"):
            return None, None
        if api == "store":
            self.error(node, "T.store is a statement: it gives no value")
        self.error(node, f"T.{api} is not a tile operation")

def _copy(node):
    """A copy of a syntax tree, with its locations (for errors)."""
    import copy
    return copy.deepcopy(node)


def located(cls, filename, line, col, message, source_lines, index, end_col=None):
    """A kjit error of class cls at (line, col) of the user's file."""
    text = source_lines[index] if 0 <= index < len(source_lines) else ""
    width = max(1, (end_col - (col - 1)) if end_col and end_col > col - 1 else 1)
    caret = " " * (col - 1) + "^" * min(width, max(1, len(text) - col + 1))
    rendered = f"{filename}:{line}:{col}: error: {message}\n  File \"{filename}\", line {line}\n    " \
               f"{text.strip()}\n    {caret[len(text) - len(text.lstrip()):]}\n"
    diag = {"severity": "error", "category": "typing" if cls is errors.TypingError else "unsupported",
            "message": message, "filename": filename, "lineno": line, "col": col, "end_lineno": line,
            "end_col": (end_col + 1) if end_col else col}
    return cls(rendered, [diag])
