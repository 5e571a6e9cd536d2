"""A tile program (a block-level kernel: docs/tensor-cores.md, "Tiles") in
the kernel language: the generic path, for every device.

A tile is a small 1-d or 2-d array of constant shape that the whole block
holds. Element f (row-major) of a tile belongs to thread f % T (T threads)
and sits in that thread's slot f // T: a tile lives in registers (a local
array per thread) or, where other threads read it (an operand of T.dot, a
reduction's input, a transposed or broadcast read), in shared memory at the
same positions. An element-wise statement is one loop over the thread's
slots; an operation that reads other threads' elements (T.dot, T.sum ...)
is fenced by cuda.syncthreads() on both sides, so a write never meets a
read of another thread. T.dot sums float32 products with fma in ascending
k, the order the CPU device's and the simulator's tensor-core operations
use, so a tile kernel gives the same numbers on every device this path
runs on.

The translator reads the user's function (its syntax tree), checks it
(every error names the user's line and column), and writes the kernel:
scalar statements are copied as they are, tile statements become loops.
"""
import ast

from kjit import types as kt
from kjit import errors
from kjit.cuda.tile.analysis import _BINOPS, _CMPOPS, _MATH, _REDUCE, Analysis, Tile, _copy, promote, reduce_type


class Translator(Analysis):
    """One tile program for one set of argument types: `run()` returns the
    kernel's text, the globals it needs, the shared memory it takes (bytes)
    and a map from its lines to the user's (line, column)."""

    # -- emitting -------------------------------------------------------------
    def emit(self, line):
        self.lines.append("    " * self.depth + line)
        self.linemap.append((getattr(self.node, "lineno", 1), getattr(self.node, "col_offset", 0)))

    def temp(self, prefix="t"):
        self.temps += 1
        return f"_k_{prefix}{self.temps}"

    def alloc(self, name, shape, dtype, shared):
        t = Tile(name, shape, dtype, shared)
        store = self.storage_name(t)
        dt = self.dtype_name(dtype)
        if shared:
            align = 16
            self.smem_bytes = (self.smem_bytes + align - 1) // align * align
            width = max(dtype.bitwidth // 8, 1)
            first = self.smem_bytes // width
            self.smem_bytes += t.size * width
            shape_text = ", ".join(str(d) for d in shape)
            self.allocs.append(f"{store} = _k_cuda.shared.array(0, {dt})[{first}:{first + t.size}]"
                               f".reshape(({shape_text},))")
        else:
            self.allocs.append(f"{store} = _k_cuda.local.array({self.slots(t.size)}, {dt})")
        return t

    def storage_name(self, t):
        return f"_k_{'s' if t.shared else 'r'}_{t.name.lstrip('_')}"

    def slots(self, size):
        return (size + self.nt - 1) // self.nt

    def tile_var(self, name, node, shape, dtype):
        """The tile variable `name` for a value of (shape, dtype): made at
        its first assignment, the same afterwards."""
        t = self.tiles.get(name)
        if t is None:
            if name in self.consts or (name in self.assigned and name in self.scalar_names):
                self.error(node, f"{name!r} holds a scalar elsewhere in the kernel; a name keeps one kind "
                           "(tile or scalar)", errors.TypingError)
            t = self.alloc(name, shape, dtype, name in self.wants_shared)
            self.tiles[name] = t
            return t
        if t.shape != shape or t.dtype != dtype:
            self.error(node, f"{name!r} is a tile of shape {t.shape} and type {t.dtype}; assigned a tile "
                       f"of shape {shape} and type {dtype} (a tile variable keeps its shape and type: "
                       "use .astype or another name)", errors.TypingError)
        return t

    def loop_head(self, shape):
        """The loop over the thread's elements of a tile of `shape`; sets
        _k_i (and _k_j) to the element's row (and column). Returns the depth
        to restore."""
        size = 1
        for d in shape:
            size *= d
        depth = self.depth
        self.emit(f"for _k_s in range({self.slots(size)}):")
        self.depth += 1
        self.emit(f"_k_f = _k_tid + {self.nt} * _k_s")
        if size % self.nt:
            self.emit(f"if _k_f < {size}:")
            self.depth += 1
        if len(shape) == 1:
            self.emit("_k_i = _k_f")
        else:
            self.emit(f"_k_i = _k_f // {shape[1]}")
            self.emit(f"_k_j = _k_f % {shape[1]}")
        return depth

    def target_ref(self, t):
        store = self.storage_name(t)
        if not t.shared:
            return f"{store}[_k_s]"
        return f"{store}[_k_i]" if len(t.shape) == 1 else f"{store}[_k_i, _k_j]"

    def shared_of(self, t):
        """The shared storage of tile t (a mirror of a register tile, written
        here, between barriers)."""
        if t.shared:
            return self.storage_name(t)
        if t.mirror is None:
            t.mirror = self.alloc(t.name + "_m", t.shape, t.dtype, True)
        depth = self.loop_head(t.shape)
        self.emit(f"{self.target_ref(t.mirror)} = {self.storage_name(t)}[_k_s]")
        self.depth = depth
        return self.storage_name(t.mirror)

    def hoist(self, node):
        """A tile expression that is not element-wise (T.dot, a reduction,
        T.load ...) into a temporary tile; returns the tile."""
        shape, dtype = self.info(node)
        t = self.alloc(self.temp(), shape, dtype, True)
        self.assign_tile(t, node)
        return t

    def elem(self, node, out, cross):
        """The code of element (_k_i, _k_j) of tile expression `node` in a
        statement over a tile of shape `out`. Reads of other threads'
        elements are noted in `cross` (a set of tile names)."""
        if isinstance(node, ast.Name) and node.id in self.tiles:
            return self.read(self.tiles[node.id], None, out, cross)
        if isinstance(node, ast.Subscript) and self.is_tile(node.value):
            t = self.named_or_hoisted(node.value)
            view = self.subscript_shape(node, t.shape)
            return self.read(t, "col" if view[1] == 1 else "row", out, cross)
        if isinstance(node, ast.Attribute) and node.attr == "T" and self.is_tile(node.value):
            return self.read(self.named_or_hoisted(node.value), "trans", out, cross)
        if not self.is_tile(node):
            return "(" + self.scalar_code(node) + ")"
        if isinstance(node, ast.BinOp) and not isinstance(node.op, ast.MatMult):
            dt = self.dtype_name(self.info(node)[1])
            return f"({self.operand_code(node.left, dt, out, cross)} {_BINOPS[type(node.op)]} " \
                   f"{self.operand_code(node.right, dt, out, cross)})"
        if isinstance(node, ast.UnaryOp):
            op = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "not "}[type(node.op)]
            return f"({op}{self.elem(node.operand, out, cross)})"
        if isinstance(node, ast.Compare):
            left, right = node.left, node.comparators[0]
            dt = self.dtype_name(promote(self.info(left)[1], self.info(right)[1]))
            return f"({self.operand_code(left, dt, out, cross)} {_CMPOPS[type(node.ops[0])]} " \
                   f"{self.operand_code(right, dt, out, cross)})"
        if isinstance(node, ast.Call):
            api = self.api_name(node.func)
            shape, dtype = self.info(node)
            if api is None:  # astype
                return f"{self.dtype_name(dtype)}({self.elem(node.func.value, out, cross)})"
            if api == "trans":
                return self.read(self.named_or_hoisted(node.args[0]), "trans", out, cross)
            if api in _MATH:
                arg = self.elem(node.args[0], out, cross)
                src = self.info(node.args[0])[1]
                if not (isinstance(src, kt.Float) and src.bitwidth >= 32):
                    arg = f"_k_f32({arg})"
                return f"_k_math.{_MATH[api]}({arg})"
            if api == "abs":
                return f"abs({self.elem(node.args[0], out, cross)})"
            if api in ("maximum", "minimum"):
                a, b = (self.elem(x, out, cross) for x in node.args)
                return f"{'max' if api == 'maximum' else 'min'}({self.dtype_name(dtype)}({a}), " \
                       f"{self.dtype_name(dtype)}({b}))"
            if api == "where":
                c, a, b = (self.elem(x, out, cross) for x in node.args)
                dt = self.dtype_name(dtype)
                return f"({dt}({a}) if {c} else {dt}({b}))"
            if api == "arange":
                k = self.kwargs(node, ["start", "end"], ["start"])
                lo = self.const_int(k["start"]) if "end" in k else 0
                return f"_k_i32({lo} + _k_i)"  # (a 1-d statement: broadcasting hoists it)
            if api in ("zeros", "full"):
                k = self.kwargs(node, ["shape", "value", "dtype"] if api == "full" else ["shape", "dtype"],
                                ["shape"])
                value = "0" if api == "zeros" else self.scalar_code(k["value"])
                return f"{self.dtype_name(dtype)}({value})"
        return self.read(self.hoist(node), None, out, cross)

    def operand_code(self, node, dt, out, cross):
        """An operand of an element-wise operation: a scalar takes the
        operation's type `dt` (Python scalars are weakly typed, as in
        Triton: `x * 0.5` keeps a float16 tile float16)."""
        if self.is_tile(node):
            return self.elem(node, out, cross)
        return f"{dt}({self.scalar_code(node)})"

    def named_or_hoisted(self, node):
        if isinstance(node, ast.Name) and node.id in self.tiles:
            return self.tiles[node.id]
        return self.hoist(node)

    def read(self, t, view, out, cross):
        """Element (_k_i, _k_j) of a statement over `out` read from tile t,
        seen plain, transposed ('trans'), or a 1-d tile along the rows
        ('col': t[:, None]) or the columns ('row': t[None, :])."""
        if view is None and t.shape == out and len(out) == len(t.shape):
            if not t.shared:
                return f"{self.storage_name(t)}[_k_s]"
            return self.target_ref(t)
        cross.add(t.name)
        sh = self.shared_of(t)
        if view == "trans":
            return f"{sh}[_k_j, _k_i]"
        if view == "col":
            return f"{sh}[_k_i]" if out[0] != 1 else f"{sh}[0]"
        if view == "row":
            return f"{sh}[_k_j]" if out[1] != 1 else f"{sh}[0]"
        # a broadcast of a 2-d tile with an extent of 1
        rows = "_k_i" if t.shape[0] != 1 else "0"
        if len(t.shape) == 1:
            return f"{sh}[{rows}]"
        cols = "_k_j" if t.shape[1] != 1 else "0"
        return f"{sh}[{rows}, {cols}]"

    def scalar_code(self, node):
        self.check_scalar(node)
        return ast.unparse(_ScalarRewriter(self).visit(_copy(node)))

    def check_scalar(self, node):
        for n in self.walk_scalar(node):
            if isinstance(n, ast.Name) and n.id in self.tiles:
                self.error(n, f"{n.id!r} is a tile, used here as a scalar (tiles are not indexed element "
                           "by element: use T.* operations, and T.sum/T.max for one value)", errors.TypingError)
            if isinstance(n, ast.Attribute):
                obj = self.resolve(n.value)
                if obj is self.globals["_k_cuda"] and n.attr in ("threadIdx", "laneid", "warpsize", "grid", "gridsize",
                                                   "syncthreads", "shared", "local"):
                    self.error(n, f"a tile kernel is a block-level program: cuda.{n.attr} is not available "
                               "in it (use T.program_id and tile operations)")

    def walk_scalar(self, node):
        """The nodes of a scalar expression, except inside reductions to
        one value (their input is a tile)."""
        todo = [node]
        while todo:
            n = todo.pop()
            yield n
            if isinstance(n, ast.Call) and self.api_name(n.func) in _REDUCE:
                continue
            todo.extend(ast.iter_child_nodes(n))

    # -- statements -----------------------------------------------------------
    def assign_tile(self, t, node):
        """Tile t = the tile expression `node`."""
        api = self.api_name(node.func) if isinstance(node, ast.Call) else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            return self.emit_dot(t, node, node.left, node.right, None)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and self.info(node)[1] == kt.float32:
            # acc + a @ b (acc += a @ b): T.dot(a, b, acc), as the sm_90 path reads it
            for prod, acc in ((node.right, node.left), (node.left, node.right)):
                if isinstance(prod, ast.BinOp) and isinstance(prod.op, ast.MatMult) and \
                        self.info(acc)[0] == t.shape and self.info(prod) == (t.shape, kt.float32):
                    return self.emit_dot(t, node, prod.left, prod.right, acc)
        if api == "dot":
            k = self.kwargs(node, ["a", "b", "acc"], ["a", "b"])
            return self.emit_dot(t, node, k["a"], k["b"], k.get("acc"))
        if api == "load":
            return self.emit_load(t, node)
        if api in _REDUCE:
            return self.emit_reduce(t.name, t, node)
        cross = set()
        code = self.elem(node, t.shape, cross)  # first: it may hoist operations before the loop
        if t.name in cross:  # it reads itself at other threads' positions: through a temporary
            tmp = self.alloc(self.temp(), t.shape, t.dtype, True)
            self.sync()
            self.elementwise(tmp, code)
            self.sync()
            self.elementwise(t, self.target_ref(tmp) if tmp.shared else f"{self.storage_name(tmp)}[_k_s]")
            return
        if cross:
            self.sync()
        self.elementwise(t, code)
        if cross:
            self.sync()

    def elementwise(self, t, code):
        depth = self.loop_head(t.shape)
        self.emit(f"{self.target_ref(t)} = {code}")
        self.depth = depth

    def sync(self):
        self.emit("_k_cuda.syncthreads()")

    def offsets(self, node, what, rank):
        """The offsets of a T.load/T.store into scalar temporaries (once,
        before the loop); returns their names."""
        offs = node.elts if isinstance(node, ast.Tuple) else [node]
        if len(offs) != rank:
            self.error(node, f"{what} of a {rank}-d tile takes {rank} offsets", errors.TypingError)
        names = []
        for o in offs:
            names.append(self.temp("o"))
            self.emit(f"{names[-1]} = {self.scalar_code(o)}")
        return names

    def inside(self, names, ary, mask):
        """In the loop over a tile's elements: _k_x0 (, _k_x1) = the element's
        array index; returns the condition that it is inside `ary` (and
        `mask`)."""
        for n, (o, i) in enumerate(zip(names, ["_k_i", "_k_j"])):
            self.emit(f"_k_x{n} = {o} + {i}")
        cond = " and ".join(f"0 <= _k_x{n} < {ary}.shape[{n}]" for n in range(len(names)))
        return f"{cond} and {mask}" if mask else cond

    def emit_load(self, t, node):
        k = self.kwargs(node, ["array", "offsets", "shape", "padding", "mask"], ["array", "offsets", "shape"])
        ary = k["array"].id
        names = self.offsets(k["offsets"], "T.load", len(t.shape))
        pad = self.scalar_code(k["padding"]) if "padding" in k else "0"
        cross = set()
        mask = self.elem(k["mask"], t.shape, cross) if "mask" in k else None
        if cross:
            self.sync()
        depth = self.loop_head(t.shape)
        self.emit(f"if {self.inside(names, ary, mask)}:")
        self.emit(f"    {self.target_ref(t)} = {ary}[{', '.join(f'_k_x{n}' for n in range(len(names)))}]")
        self.emit("else:")
        self.emit(f"    {self.target_ref(t)} = {pad}")
        self.depth = depth
        if cross:
            self.sync()

    def operand(self, node):
        """(shared storage, transposed) of a T.dot operand."""
        trans = False
        while True:
            if isinstance(node, ast.Call) and self.api_name(node.func) == "trans":
                node, trans = node.args[0], not trans
            elif isinstance(node, ast.Attribute) and node.attr == "T":
                node, trans = node.value, not trans
            else:
                break
        t = self.named_or_hoisted(node)
        return self.shared_of(t), trans, t

    def emit_dot(self, t, node, a, b, acc):
        sa, ta, tile_a = self.operand(a)
        sb, tb, tile_b = self.operand(b)
        kdim = tile_a.shape[0] if ta else tile_a.shape[1]
        if self.mma:
            why = self.mma_misfit(t, tile_a, tile_b, kdim)
            if why is None:
                self.used_mma = True
                return self.emit_mma_dot(t, acc, (sa, ta), (sb, tb), kdim)
            if self.mma == "required":
                what = f"MFMA 16x16x16 ({self.amd_arch})" if self.mma_kind == "mfma" else \
                    "the sm80 path (mma.sync m16n8k16)"
                self.error(node, f"T.dot on {what} {why}", errors.UnsupportedError)
        cross = set()
        acc_code = self.elem(acc, t.shape, cross) if acc is not None else None
        out = t
        if t.name in (tile_a.name, tile_b.name):
            out = self.alloc(self.temp(), t.shape, t.dtype, True)
        floats = isinstance(t.dtype, kt.Float)
        conv = "_k_f32" if floats else "_k_i32"
        self.sync()
        depth = self.loop_head(t.shape)
        self.emit(f"_k_v = {conv}({acc_code})" if acc_code else f"_k_v = {conv}(0)")
        self.emit(f"for _k_k in range({kdim}):")
        self.depth += 1
        ea = f"{sa}[_k_k, _k_i]" if ta else f"{sa}[_k_i, _k_k]"
        eb = f"{sb}[_k_j, _k_k]" if tb else f"{sb}[_k_k, _k_j]"
        if floats:
            self.emit(f"_k_v = _k_cuda.fma({conv}({ea}), {conv}({eb}), _k_v)")
        else:
            self.emit(f"_k_v += {conv}({ea}) * {conv}({eb})")
        self.depth -= 1
        self.emit(f"{self.target_ref(out)} = _k_v")
        self.depth = depth
        self.sync()
        if out is not t:
            self.elementwise(t, self.target_ref(out))

    def mma_misfit(self, t, tile_a, tile_b, kdim):
        """Why T.dot into t cannot take mma.sync m16n8k16 or MFMA 16x16x16
        (None: it can): they take 16-bit float operands of one type into
        float32, M and K multiples of 16, N of 8 (MFMA: 16)."""
        floats = (kt.float16,) if self.mma_kind == "mfma" and self.amd_arch == "gfx908" else \
            (kt.float16, kt.bfloat16)
        if tile_a.dtype != tile_b.dtype or tile_a.dtype not in floats or t.dtype != kt.float32:
            names = " or ".join(str(f) for f in floats)
            return f"takes {names} operands (both the same) into float32, not " \
                   f"{tile_a.dtype} x {tile_b.dtype} into {t.dtype}"
        bn = 16 if self.mma_kind == "mfma" else 8
        if t.shape[0] % 16 or t.shape[1] % bn or kdim % 16:
            return f"takes M and K multiples of 16 and N a multiple of {bn}, not {t.shape[0]} x {kdim} @ " \
                   f"{kdim} x {t.shape[1]}"
        if self.mma_kind == "mfma" and self.nt % 64:
            return f"runs on wavefronts of 64 lanes: num_warps must be even (the block has {self.nt} threads)"
        return None

    def emit_mma_dot(self, t, acc, a, b, kdim):
        """T.dot by the matrix instructions: each warp (wavefront) takes
        the blocks of the result q = warp, warp + warps, ... (16 x 8 for
        mma.sync, 16 x 16 for MFMA); the accumulator goes through a shared
        float32 tile (in place where it is the dot's target: run()), since a
        fragment's elements are other threads' in the tile layout."""
        m, n = t.shape
        in_place = t.shared and isinstance(acc, ast.Name) and acc.id == t.name
        if in_place:
            c = t
        else:
            c = self.alloc(self.temp(), t.shape, kt.float32, True)
            if acc is not None:
                self.assign_tile(c, acc)
        self.sync()
        mfma = self.mma_kind == "mfma"
        lanes, bn = (64, 16) if mfma else (32, 8)
        self.emit(f"_k_lane = _k_tid % {lanes}")
        if mfma:
            self.emit("_k_r = _k_lane % 16")
            self.emit("_k_h = 4 * (_k_lane // 16)")
        else:
            self.emit("_k_g = _k_lane >> 2")
            self.emit("_k_t2 = 2 * (_k_lane & 3)")
        self.emit(f"for _k_q in range(_k_tid // {lanes}, {m // 16 * (n // bn)}, {self.nt // lanes}):")
        self.depth += 1
        self.emit(f"_k_bm = _k_q // {n // bn} * 16")
        self.emit(f"_k_bn = _k_q % {n // bn} * {bn}")
        store = self.storage_name(c)
        if mfma:  # lane l: C[4 (l / 16) + j][l % 16]
            cs = [f"{store}[_k_bm + _k_h + {j}, _k_bn + _k_r]" for j in range(4)]
        else:  # lane 4g + t: C[g (+8)][2t (+1)]
            cs = [f"{store}[_k_bm + _k_g{r}, _k_bn + _k_t2{col}]"
                  for r, col in (("", ""), ("", " + 1"), (" + 8", ""), (" + 8", " + 1"))]
        if acc is not None:
            self.emit(f"_k_c = ({', '.join(cs)})")
        else:
            self.emit("_k_c = (_k_f32(0), _k_f32(0), _k_f32(0), _k_f32(0))")
        self.emit(f"for _k_kk in range(0, {kdim}, 16):")
        self.depth += 1
        # (fragments named per dot: a variable keeps one type in a kernel,
        # and dots of float16 and bfloat16 may meet in one)
        (self.mfma_step if mfma else self.mma_sync_step)(a, b, self.temp("fa"), self.temp("fb"))
        self.depth -= 1
        for i, ref in enumerate(cs):
            self.emit(f"{ref} = _k_c[{i}]")
        self.depth -= 1
        self.sync()
        if not in_place:
            self.elementwise(t, self.target_ref(c))

    def mma_sync_step(self, a, b, fa, fb):
        """_k_c += A[bm:bm+16, kk:kk+16] @ B[kk:kk+16, bn:bn+8] by mma.sync,
        the fragments read by ldmatrix (transposed on the way where the
        operand is stored the other way)."""
        (sa, ta), (sb, tb) = a, b
        # A (m x k): four 8 x 8 matrices, lanes 8i..8i+7 address matrix i's
        # rows; stored transposed (k x m) they are read with .trans
        if ta:
            self.emit(f"{fa} = _k_cuda.ldmatrix({sa}, (_k_kk + (_k_lane & 7) + 8 * (_k_lane >> 4), "
                      "_k_bm + 8 * ((_k_lane >> 3) & 1)), 4, True)")
        else:
            self.emit(f"{fa} = _k_cuda.ldmatrix({sa}, (_k_bm + (_k_lane & 15), _k_kk + 8 * (_k_lane >> 4)), 4)")
        # B (k x n): two 8 x 8 matrices (k 0-7, 8-15)
        if tb:
            self.emit(f"{fb} = _k_cuda.ldmatrix({sb}, (_k_bn + (_k_lane & 7), _k_kk + 8 * ((_k_lane >> 3) & 1)), 2)")
        else:
            self.emit(f"{fb} = _k_cuda.ldmatrix({sb}, (_k_kk + (_k_lane & 15), _k_bn), 2, True)")
        self.emit(f'_k_c = _k_cuda.mma_sync("m16n8k16", {fa}, {fb}, _k_c)')

    def mfma_step(self, a, b, fa, fb):
        """_k_c += A[bm:bm+16, kk:kk+16] @ B[kk:kk+16, bn:bn+16] by AMD's
        v_mfma_f32_16x16x16 (a wavefront of 64 lanes): lane l gives
        A[bm + l % 16][kk + 4 (l / 16) + j] and B[kk + 4 (l / 16) + j][bn + l % 16],
        j = 0..3, read from shared memory (LDS)."""
        (sa, ta), (sb, tb) = a, b
        at = (lambda j: f"{sa}[_k_kk + _k_h + {j}, _k_bm + _k_r]") if ta else \
            (lambda j: f"{sa}[_k_bm + _k_r, _k_kk + _k_h + {j}]")
        bt = (lambda j: f"{sb}[_k_bn + _k_r, _k_kk + _k_h + {j}]") if tb else \
            (lambda j: f"{sb}[_k_kk + _k_h + {j}, _k_bn + _k_r]")
        self.emit(f"{fa} = ({', '.join(at(j) for j in range(4))})")
        self.emit(f"{fb} = ({', '.join(bt(j) for j in range(4))})")
        self.emit(f'_k_c = _k_cuda.mfma("16x16x16", {fa}, {fb}, _k_c)')

    def accumulators(self):
        """Names X of `X = T.dot(a, b, X)`, `X += a @ b` and `X = X + a @
        b`: with mma.sync they live in shared memory, where the products
        read and write them in place (their fragments are other threads'
        elements in the tile layout)."""
        names = set()
        for n in ast.walk(self.fdef):
            target = value = None
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                target, value = n.targets[0].id, n.value
            elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and isinstance(n.op, ast.Add) \
                    and isinstance(n.value, ast.BinOp) and isinstance(n.value.op, ast.MatMult):
                names.add(n.target.id)
                continue
            if isinstance(value, ast.Call) and self.api_name(value.func) == "dot":
                accs = value.args[2:3] + [k.value for k in value.keywords if k.arg == "acc"]
                if any(isinstance(a, ast.Name) and a.id == target for a in accs):
                    names.add(target)
            elif isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
                sides = (value.left, value.right)
                if any(isinstance(x, ast.Name) and x.id == target for x in sides) and \
                        any(isinstance(x, ast.BinOp) and isinstance(x.op, ast.MatMult) for x in sides):
                    names.add(target)
        return names

    def emit_reduce(self, name, t, node):
        """A reduction into tile t, or (t None) into the scalar `name`."""
        api = self.api_name(node.func)
        k = self.kwargs(node, ["input", "axis"], ["input"])
        src = self.named_or_hoisted(k["input"])
        sh = self.shared_of(src)
        axis = self.reduce_axis(api, k)
        if axis is not None:
            axis %= len(src.shape)
        conv = self.dtype_name(reduce_type(api, src.dtype))

        def combine(x):
            if api == "sum":
                return f"_k_v = _k_v + {conv}({x})"
            return f"_k_v = {api}(_k_v, {conv}({x}))"

        self.sync()
        if t is None or len(src.shape) == 1 or axis is None:
            # every thread sums everything (a scalar result)
            first = f"{sh}[0]" if len(src.shape) == 1 else f"{sh}[0, 0]"
            self.emit(f"_k_v = {conv}({first})")
            if len(src.shape) == 1:
                self.emit(f"for _k_q in range(1, {src.shape[0]}):")
                self.depth += 1
                self.emit(combine(f"{sh}[_k_q]"))
            else:
                self.emit(f"for _k_q in range(1, {src.size}):")
                self.depth += 1
                self.emit(combine(f"{sh}[_k_q // {src.shape[1]}, _k_q % {src.shape[1]}]"))
            self.depth -= 1
            self.emit(f"{name} = _k_v")
        else:
            depth = self.loop_head(t.shape)
            at = (lambda q: f"{sh}[_k_i, {q}]") if axis == 1 else (lambda q: f"{sh}[{q}, _k_i]")
            self.emit(f"_k_v = {conv}({at(0)})")
            self.emit(f"for _k_q in range(1, {src.shape[axis]}):")
            self.depth += 1
            self.emit(combine(at("_k_q")))
            self.depth -= 1
            self.emit(f"{self.target_ref(t)} = _k_v")
            self.depth = depth
        self.sync()

    def emit_store(self, node):
        k = self.kwargs(node, ["array", "offsets", "value", "mask"], ["array", "offsets", "value"])
        at = self.array_arg(k["array"], "T.store")
        shape, _ = self.info(k["value"])
        if shape is None:
            self.error(k["value"], "T.store writes a tile", errors.TypingError)
        if at.ndim != len(shape):
            self.error(node, f"T.store of a {len(shape)}-d tile into a {at.ndim}-d array", errors.TypingError)
        names = self.offsets(k["offsets"], "T.store", len(shape))
        cross = set()
        code = self.elem(k["value"], shape, cross)
        mask = self.elem(k["mask"], shape, cross) if "mask" in k else None
        if cross:
            self.sync()
        depth = self.loop_head(shape)
        ary = k["array"].id
        self.emit(f"if {self.inside(names, ary, mask)}:")
        self.emit(f"    {ary}[{', '.join(f'_k_x{n}' for n in range(len(shape)))}] = {code}")
        self.depth = depth
        self.sync()  # (also: the block's later reads of the array see the stores)

    def statement(self, s):
        self.node = s
        if isinstance(s, ast.Assign):
            return self.assign(s)
        if isinstance(s, ast.AugAssign):
            if isinstance(s.target, ast.Name) and (s.target.id in self.tiles or self.is_tile(s.value)):
                value = ast.BinOp(left=ast.Name(id=s.target.id, ctx=ast.Load()), op=s.op, right=s.value)
                ast.copy_location(value, s)
                return self.assign(ast.copy_location(ast.Assign(targets=[s.target], value=value), s))
            return self.scalar_statement(s)
        if isinstance(s, ast.For):
            return self.for_loop(s)
        if isinstance(s, ast.While):
            if self.is_tile(s.test):
                self.error(s.test, "a loop's condition must be a scalar (tiles have no truth value)")
            self.emit(f"while {self.scalar_code(s.test)}:")
            self.block(s.body)
            if s.orelse:
                self.error(s, "while ... else is not supported in tile kernels")
            return
        if isinstance(s, ast.If):
            if self.is_tile(s.test):
                self.error(s.test, "an if's condition must be a scalar (tiles have no truth value: use "
                           "T.where, or T.max/T.sum for one value)")
            self.emit(f"if {self.scalar_code(s.test)}:")
            self.block(s.body)
            if s.orelse:
                self.node = s
                self.emit("else:")
                self.block(s.orelse)
            return
        if isinstance(s, ast.Expr):
            if isinstance(s.value, ast.Constant):
                return
            if isinstance(s.value, ast.Call) and self.api_name(s.value.func) == "store":
                return self.emit_store(s.value)
            if self.is_tile(s.value):
                self.error(s, "this tile expression's value is not used")
            return self.scalar_statement(s)
        if isinstance(s, ast.Return):
            if s.value is not None:
                self.error(s, "a tile kernel returns nothing (T.store writes its results)")
            return self.emit("return")
        if isinstance(s, (ast.Pass, ast.Break, ast.Continue)):
            return self.emit(ast.unparse(s))
        self.error(s, f"{type(s).__name__} statements are not supported in tile kernels")

    def block(self, body):
        self.depth += 1
        n = len(self.lines)
        for s in body:
            self.statement(s)
        if len(self.lines) == n:
            self.emit("pass")
        self.depth -= 1

    def assign(self, s):
        if len(s.targets) != 1:
            self.error(s, "a = b = ... is not supported in tile kernels")
        target, value = s.targets[0], s.value
        if isinstance(target, ast.Name) and self.is_tile(value):
            shape, dtype = self.info(value)
            t = self.tile_var(target.id, s, shape, dtype)
            return self.assign_tile(t, value)
        if isinstance(target, ast.Name) and isinstance(value, ast.Call) and self.api_name(value.func) in _REDUCE:
            if target.id in self.tiles:
                self.error(s, f"{target.id!r} is a tile; assigned a scalar", errors.TypingError)
            self.scalar_names.add(target.id)
            return self.emit_reduce(target.id, None, value)
        if isinstance(value, ast.Tuple) and any(self.is_tile(v) for v in value.elts):
            self.error(s, "a tile is assigned to one name at a time (x = T.load(...)), not in a tuple")
        for n in ast.walk(target):
            if isinstance(n, ast.Name) and n.id in self.tiles:
                self.error(n, f"{n.id!r} is a tile; assigned a scalar", errors.TypingError)
            if isinstance(n, ast.Name):
                self.scalar_names.add(n.id)
        if isinstance(target, ast.Name) and self.assigned.get(target.id) == 1:
            v = self._const(value)
            if v is not None:
                self.consts[target.id] = v
        self.scalar_statement(s)

    def scalar_statement(self, s):
        self.check_scalar(s)
        text = ast.unparse(_ScalarRewriter(self).visit(_copy(s)))
        for line in text.splitlines():
            self.emit(line)

    def for_loop(self, s):
        if s.orelse:
            self.error(s, "for ... else is not supported in tile kernels")
        if not isinstance(s.target, ast.Name):
            self.error(s.target, "a tile kernel's loop variable is one name")
        it = s.iter
        api = self.api_name(it.func) if isinstance(it, ast.Call) else None
        if api == "range":
            k = self.kwargs(it, ["start", "stop", "step", "stages"], ["start"])
            parts = [k["start"]] + ([k["stop"]] if "stop" in k else []) + ([k["step"]] if "step" in k else [])
            head = ", ".join(self.scalar_code(p) for p in parts)
            self.emit(f"for {s.target.id} in range({head}):")
        elif api == "persistent":
            if len(it.args) != 1 or it.keywords:
                self.error(it, "T.persistent takes the number of tiles")
            self.emit(f"for {s.target.id} in range(_k_cuda.blockIdx.x, {self.scalar_code(it.args[0])}, "
                      "_k_cuda.gridDim.x):")
        elif isinstance(it, ast.Call) and self.resolve(it.func) is range:
            self.emit(f"for {s.target.id} in {self.scalar_code(it)}:")
        else:
            self.error(it, "a tile kernel loops over range(...), T.range(...) or T.persistent(n)")
        self.scalar_names.add(s.target.id)
        self.block(s.body)

    def run(self):
        fdef = self.fdef
        if fdef.args.vararg or fdef.args.kwarg or fdef.args.kwonlyargs or fdef.args.posonlyargs or \
                fdef.args.defaults:
            self.error(fdef, "a tile kernel takes plain positional parameters")
        self.node = fdef
        if self.mma:
            self.wants_shared |= self.accumulators()
        self.emit("_k_tid = _k_cuda.threadIdx.x")
        for s in fdef.body:
            self.statement(s)
        self.node = fdef
        head = [f"def {fdef.name}({', '.join(self.params)}):"]
        allocs = ["    " + a for a in self.allocs]
        text = "\n".join(head + allocs + self.lines) + "\n"
        first = (fdef.lineno, fdef.col_offset)
        linemap = [first] * (1 + len(allocs)) + self.linemap
        return text, self.globals, self.smem_bytes, [(ln + self.line_shift, col + self.col_shift + 1)
                                                     for ln, col in linemap]


class _ScalarRewriter(ast.NodeTransformer):
    """T.program_id(a) -> cuda.blockIdx.<x|y|z>, T.num_programs(a) ->
    cuda.gridDim.<...>, T.swizzle2d -> the library's device function."""

    def __init__(self, tr):
        self.tr = tr

    def visit_Call(self, node):
        api = self.tr.api_name(node.func)
        if not (api in _REDUCE and self.tr.info(node)[0] is None):
            self.generic_visit(node)  # (a reduction's input is a tile expression, not rewritten)
        if api in ("program_id", "num_programs"):
            if len(node.args) != 1:
                self.tr.error(node, f"T.{api} takes an axis (0, 1 or 2)")
            axis = self.tr.const_int(node.args[0], f"T.{api}'s axis")
            if axis not in (0, 1, 2):
                self.tr.error(node, f"T.{api}'s axis is 0, 1 or 2")
            what = "blockIdx" if api == "program_id" else "gridDim"
            return ast.parse(f"_k_cuda.{what}.{'xyz'[axis]}", mode="eval").body
        if api == "swizzle2d":
            self.tr.globals["_k_swizzle2d"] = self.tr.api._swizzle2d_device()
            return ast.Call(func=ast.Name(id="_k_swizzle2d", ctx=ast.Load()), args=node.args, keywords=[])
        if api in _REDUCE and self.tr.info(node)[0] is None:
            name = self.tr.temp("v")
            self.tr.scalar_names.add(name)
            self.tr.emit_reduce(name, None, node)
            return ast.Name(id=name, ctx=ast.Load())
        if api is not None:
            self.tr.error(node, f"T.{api} is not a scalar operation here")
        return node
