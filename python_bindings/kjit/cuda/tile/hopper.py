"""The sm_90 path of tile kernels: a GEMM written with tiles, as the
Hopper kernel of examples/gemm_hopper.py (TMA copies into a ring of
shared-memory buffers, mbarriers, wgmma, a producer warpgroup and two
consumer warpgroups, setmaxnreg), the program's own epilogue applied to the
accumulator registers.

The pattern (anything else takes the generic path, translate.py):

    <scalar statements>
    for tile in T.persistent(n):              # or no loop: a block per tile
        <scalar statements>                   # (the tile's row and column)
        acc = T.zeros((128, BN), float32)     # BN: 64, 128, 192 or 256
        for k in T.range(0, bound, BK):       # BK: 128 bytes of the input type
            ta = T.load(a, (row, k), (128, BK))
            tb = T.load(b, (col, k), (BN, BK))      # b as (N, K): acc = T.dot(ta, T.trans(tb), acc)
            acc = T.dot(ta, T.trans(tb), acc)       # or acc += ta @ tb.T
            # (or b as (K, N): tb = T.load(b, (k, col), (BK, BN)); acc += ta @ tb)
        <v = T.load(vector, (offset,), (BN,)) and element-wise tiles of acc>
        T.store(c, (row, col), <element-wise expression of acc>)

a and b: 2-d C-contiguous arrays of one 16-bit float type, rows a multiple of
16 bytes (TMA); row and col must not depend on k.

Where c is a 2-d array of a 16-bit float type and the store has no mask, a
second kernel stores through TMA (`generate(..., tma_store=True)`): each
consumer writes its 64 x BN tile into shared memory (the 128-byte swizzle
of 64 x 64 boxes) and one thread stores it, so the warpgroup goes on to the
next tile while the copy engine writes. The launcher takes it where c's
rows are a multiple of 16 bytes.
"""
import ast
import functools

from kjit import errors
from kjit import types as kt
from kjit.cuda.tile import analysis as _tr

BM = 128
THREADS = 384
STAGES = 4


class Match:
    """What the program's GEMM is made of."""


def match(tr):
    """A Match for the Translator's program, or a string: why it is not the
    pattern."""
    body = [s for s in tr.fdef.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    m = Match()
    m.prelude = []
    while body and _scalar(tr, body[0]) and not _is_tile_loop(tr, body[0]):
        if _mentions_tiles(tr, body[0]):
            break
        m.prelude.append(body.pop(0))
    m.persistent = None
    if len(body) == 1 and _is_tile_loop(tr, body[0]):
        loop = body[0]
        if loop.orelse or not isinstance(loop.target, ast.Name) or len(loop.iter.args) != 1:
            return "the persistent loop is not `for t in T.persistent(n)`"
        m.persistent = (loop.target.id, loop.iter.args[0])
        body = loop.body
    m.head = []
    while body and _scalar(tr, body[0]) and not _mentions_tiles(tr, body[0]):
        m.head.append(body.pop(0))
    if len(body) < 3:
        return "no accumulator, k loop and store"
    zeros, kloop, rest = body[0], body[1], body[2:]
    if not (isinstance(zeros, ast.Assign) and len(zeros.targets) == 1 and isinstance(zeros.targets[0], ast.Name)
            and isinstance(zeros.value, ast.Call) and tr.api_name(zeros.value.func) == "zeros"):
        return "the tile loop does not begin with acc = T.zeros(...)"
    m.acc = zeros.targets[0].id
    shape, dtype = tr.info(zeros.value)
    if dtype != kt.float32 or len(shape) != 2 or shape[0] != BM or shape[1] not in (64, 128, 192, 256):
        return f"the accumulator is {shape} {dtype}, not (128, 64|128|192|256) float32"
    m.bn = shape[1]
    why = _match_kloop(tr, m, kloop)
    if why:
        return why
    if not rest or not (isinstance(rest[-1], ast.Expr) and isinstance(rest[-1].value, ast.Call)
                        and tr.api_name(rest[-1].value.func) == "store"):
        return "the tile loop does not end with T.store"
    m.store = rest[-1].value
    m.epilogue = rest[:-1]
    for s in m.epilogue:
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
            return "the epilogue has statements other than tile assignments"
    return m


def _is_tile_loop(tr, s):
    return isinstance(s, ast.For) and isinstance(s.iter, ast.Call) and tr.api_name(s.iter.func) == "persistent"


def _scalar(tr, s):
    return isinstance(s, (ast.Assign, ast.AugAssign, ast.Expr, ast.If, ast.For)) and not (
        isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and tr.api_name(s.value.func) == "store")


def _mentions_tiles(tr, s):
    for n in ast.walk(s):
        if isinstance(n, ast.Call) and tr.api_name(n.func) not in (None, "program_id", "num_programs", "swizzle2d"):
            return True
    return False


def _match_kloop(tr, m, loop):
    if not (isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and tr.api_name(loop.iter.func) == "range"
            and isinstance(loop.target, ast.Name) and not loop.orelse):
        return "no `for k in T.range(0, bound, BK)` after the accumulator"
    k = tr.kwargs(loop.iter, ["start", "stop", "step", "stages"], ["start"])
    if "stop" not in k or "step" not in k or tr._const(k["start"]) != 0:
        return "the k loop is not T.range(0, bound, BK)"
    m.k, m.bound, m.bk = loop.target.id, k["stop"], tr._const(k["step"])
    if len(loop.body) != 3:
        return "the k loop is not two loads and a T.dot"
    la, lb, dot = loop.body
    loads = {}
    for s in (la, lb):
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                and isinstance(s.value, ast.Call) and tr.api_name(s.value.func) == "load"):
            return "the k loop's first statements are not T.load"
        args = tr.kwargs(s.value, ["array", "offsets", "shape", "padding", "mask"], ["array", "offsets", "shape"])
        if "mask" in args or ("padding" in args and tr._const(args["padding"]) != 0):
            return "a masked or padded load (TMA reads zeros outside the array)"
        loads[s.targets[0].id] = args
    # acc = T.dot(ta, T.trans(tb), acc) or acc += ta @ tb.T
    if isinstance(dot, ast.AugAssign) and isinstance(dot.op, ast.Add) and isinstance(dot.value, ast.BinOp) and \
            isinstance(dot.value.op, ast.MatMult):
        target, a_node, b_node = dot.target, dot.value.left, dot.value.right
    elif isinstance(dot, ast.Assign) and isinstance(dot.value, ast.Call) and tr.api_name(dot.value.func) == "dot":
        args = tr.kwargs(dot.value, ["a", "b", "acc"], ["a", "b"])
        if not (isinstance(args.get("acc"), ast.Name) and args["acc"].id == m.acc):
            return "T.dot does not accumulate into acc"
        target, a_node, b_node = dot.targets[0], args["a"], args["b"]
    else:
        return "the k loop does not end with acc = T.dot(ta, T.trans(tb), acc)"
    if not (isinstance(target, ast.Name) and target.id == m.acc):
        return "the product is not accumulated into acc"
    b_name = _transposed(tr, b_node)
    # b as (N, K) (T.trans(tb), K-major tiles) or as (K, N) (tb itself: N-major
    # tiles, wgmma's transposed b)
    m.b_kn = b_name is None and isinstance(b_node, ast.Name) and b_node.id in loads
    if m.b_kn:
        b_name = b_node.id
    if not (isinstance(a_node, ast.Name) and a_node.id in loads and b_name in loads):
        return "T.dot's operands are not the loads of a and of b (b as (K, N), or transposed as (N, K))"
    m.a_load, m.b_load = loads[a_node.id], loads[b_name]
    for args, rows, kpos in ((m.a_load, BM, 1), (m.b_load, m.bn, 0 if m.b_kn else 1)):
        offs = args["offsets"]
        if not (isinstance(offs, ast.Tuple) and len(offs.elts) == 2 and isinstance(offs.elts[kpos], ast.Name)
                and offs.elts[kpos].id == m.k):
            return "a load's offsets are not (row, k)" if kpos else "b's offsets are not (k, column)"
        if any(isinstance(n, ast.Name) and n.id == m.k for n in ast.walk(offs.elts[1 - kpos])):
            return "a load's row (or b's column) depends on k"
        shape = tr.shape_of(args["shape"])
        want = (m.bk, rows) if kpos == 0 else (rows, m.bk)
        if shape != want:
            return f"a load's shape is {shape}, not {want}"
        if not isinstance(args["array"], ast.Name) or args["array"].id not in tr.arg_types:
            return "a load is not from an array argument"
    ta, tb = (tr.arg_types[x["array"].id] for x in (m.a_load, m.b_load))
    if ta.dtype != tb.dtype or ta.dtype not in (kt.float16, kt.bfloat16):
        return f"a and b are {ta.dtype} and {tb.dtype}, not both float16 or bfloat16"
    if m.bk * ta.dtype.bitwidth // 8 != 128:
        return f"BK = {m.bk}: the sm_90 path loads 128 bytes of k ({128 * 8 // ta.dtype.bitwidth} values)"
    if ta.ndim != 2 or tb.ndim != 2 or ta.layout != "C" or tb.layout != "C":
        return "a and b are not 2-d C-contiguous arrays"
    m.dtype = ta.dtype
    return None


def _transposed(tr, node):
    if isinstance(node, ast.Attribute) and node.attr == "T" and isinstance(node.value, ast.Name):
        return node.value.id
    if isinstance(node, ast.Call) and tr.api_name(node.func) == "trans" and len(node.args) == 1 and \
            isinstance(node.args[0], ast.Name):
        return node.args[0].id
    return None


def generate(tr, m, tma_store=False):
    """The kernel's text: (text, globals, shared bytes, line map, the names
    of the arrays its tensor maps are made of: a, b, and c with
    `tma_store`)."""
    g = _Gen(tr, m, tma_store)
    return g.run()


def tma_store_fits(tr, m):
    """Whether the program's store can go through TMA: c a 2-d C-contiguous
    array of a 16-bit float type, no mask, BN a multiple of 64."""
    k = tr.kwargs(m.store, ["array", "offsets", "value", "mask"], ["array", "offsets", "value"])
    t = tr.arg_types.get(k["array"].id) if isinstance(k["array"], ast.Name) else None
    return "mask" not in k and isinstance(t, kt.Array) and t.ndim == 2 and t.layout == "C" and \
        t.dtype in (kt.float16, kt.bfloat16) and m.bn % 64 == 0


def _stages(bn, tma_store):
    """Buffers in the ring: 4, or 3 where the staging tiles would not fit."""
    staging = 2 * 64 * bn * 2 if tma_store else 0
    return STAGES if STAGES * (BM + bn) * 64 * 2 + staging <= 227 * 1024 else STAGES - 1


@functools.lru_cache(maxsize=None)
def _stage_tile(bn):
    """A device function: the warpgroup's 64 x bn accumulator into staging
    (bn / 64 boxes of 64 x 64, each laid out as a TMA box with the 128-byte
    swizzle: byte o of a box at o ^ ((o >> 7) & 7) << 4), converted to its
    type."""
    from kjit import cuda

    @cuda.jit(device=True)
    def stage_tile(staging, acc):
        r = cuda.threadIdx.x % 128
        row = 16 * (r // 32) + r % 32 // 4
        col = 2 * (r % 4)
        for i in range(bn // 2):
            rr = row + 8 * ((i >> 1) & 1)
            cc = col + 8 * (i >> 2) + (i & 1)
            o = rr * 128 + (cc % 64) * 2
            staging[cc // 64, (o ^ (((o >> 7) & 7) << 4)) // 2] = acc[i]
    return stage_tile


class _Gen:
    def __init__(self, tr, m, tma_store):
        self.tr, self.m, self.tma_store = tr, m, tma_store
        self.stages = _stages(m.bn, tma_store)
        tr.globals["_k_u64"] = kt.uint64
        from kjit.dispatcher import tuple_setitem
        tr.globals["_k_tuple_setitem"] = tuple_setitem

    def emit(self, line, node=None):
        if node is not None:
            self.tr.node = node
        self.tr.emit(line)

    def scalars(self, stmts):
        for s in stmts:
            self.tr.statement(s)

    def run(self):
        tr, m = self.tr, self.m
        bn, bk = m.bn, m.bk
        dt = tr.dtype_name(m.dtype)
        a_elems, b_elems = self.stages * BM * bk, self.stages * bn * bk
        e = self.emit
        e(f"_k_smem = _k_cuda.shared.array(0, {dt})", tr.fdef)
        e(f"_k_sa = _k_smem[:{a_elems}].reshape(({self.stages}, {BM}, {bk}))")
        if m.b_kn:  # (K, N) tiles: bn / 64 boxes of bk rows (k) by 64 columns, wgmma's transposed b
            e(f"_k_sb = _k_smem[{a_elems}:{a_elems + b_elems}].reshape(({self.stages}, {bn // 64}, {bk}, 64))")
        else:
            e(f"_k_sb = _k_smem[{a_elems}:{a_elems + b_elems}].reshape(({self.stages}, {bn}, {bk}))")
        e(f"_k_bars = _k_cuda.shared.array({2 * self.stages}, _k_u64)")
        e("_k_tid = _k_cuda.threadIdx.x")
        e("_k_wg = _k_tid // 128")
        e("if _k_tid == 0:")
        e(f"    for _k_q in range({self.stages}):")
        e("        _k_cuda.mbarrier.init(_k_bars, _k_q, 1)")
        e(f"        _k_cuda.mbarrier.init(_k_bars, {self.stages} + _k_q, 2)")
        e("    _k_cuda.fence_mbarrier_init()")
        if self.tma_store:
            ct = tr.dtype_name(tr.arg_types[self.store_array()].dtype)
            first = self.stages * (BM + bn) * bk * m.dtype.bitwidth // 16  # (16-bit elements)
            e(f"_k_stg = _k_cuda.shared.array(0, {ct})[{first}:{first + 2 * 64 * bn}]"
              f".reshape((2, {bn // 64}, 4096))")
            tr.globals["_k_stage_tile"] = _stage_tile(bn)
        e("_k_cuda.syncthreads()")
        self.scalars(m.prelude)
        tr.node = m.bound
        e(f"_k_kt = ({tr.scalar_code(m.bound)} + {bk - 1}) // {bk}")
        e("_k_it = 0")
        e("if _k_wg == 0:")
        tr.depth += 1
        e("_k_cuda.setmaxnreg_dec(40)")
        e("if _k_tid == 0:")
        tr.depth += 1
        self.tile_loop(self.producer)
        tr.depth -= 2
        e("else:")
        tr.depth += 1
        e("_k_cuda.setmaxnreg_inc(232)")
        e("_k_row = (_k_wg - 1) * 64")
        e("_k_lane = _k_tid % 128")
        e("_k_rw = 16 * (_k_lane // 32) + _k_lane % 32 // 4")
        e("_k_cw = 2 * (_k_lane % 4)")
        self.tile_loop(self.consumer)
        if self.tma_store:
            e("if _k_lane == 0:")
            e("    _k_cuda.tma.wait_group(0)  # (the block's shared memory must outlive the stores)")
        tr.depth -= 1
        maps = ["_k_ta", "_k_tb"] + (["_k_tc"] if self.tma_store else [])
        head = [f"def {tr.fdef.name}({', '.join(tr.params + maps)}):"]
        text = "\n".join(head + tr.lines) + "\n"
        first = (tr.fdef.lineno, tr.fdef.col_offset)
        linemap = [first] + tr.linemap
        smem = self.stages * (BM + bn) * bk * m.dtype.bitwidth // 8 + (2 * 64 * bn * 2 if self.tma_store else 0)
        arrays = (m.a_load["array"].id, m.b_load["array"].id) + ((self.store_array(),) if self.tma_store else ())
        return text, tr.globals, smem, [(ln + tr.line_shift, col + tr.col_shift + 1) for ln, col in linemap], \
            arrays

    def store_array(self):
        return self.m.store.args[0].id if self.m.store.args else \
            next(k.value.id for k in self.m.store.keywords if k.arg == "array")

    def tile_loop(self, body):
        tr, m = self.tr, self.m
        if m.persistent:
            name, count = m.persistent
            tr.node = count
            self.emit(f"for {name} in range(_k_cuda.blockIdx.x, {tr.scalar_code(count)}, _k_cuda.gridDim.x):")
            tr.depth += 1
            body()
            tr.depth -= 1
        else:
            body()

    def producer(self):
        tr, m, e = self.tr, self.m, self.emit
        bn, bk = m.bn, m.bk
        self.scalars(m.head)
        tr.node = m.a_load["offsets"]
        e(f"_k_m0 = {tr.scalar_code(m.a_load['offsets'].elts[0])}")
        e(f"_k_n0 = {tr.scalar_code(m.b_load['offsets'].elts[1 if m.b_kn else 0])}")
        e("for _k_k in range(_k_kt):")
        e(f"    _k_q = _k_it % {self.stages}")
        e(f"    if _k_it >= {self.stages}:")
        e(f"        _k_cuda.mbarrier.wait(_k_bars, {self.stages} + _k_q, (_k_it // {self.stages} - 1) & 1)")
        e(f"    _k_cuda.mbarrier.arrive_expect_tx(_k_bars, _k_q, {(BM + bn) * bk * m.dtype.bitwidth // 8})")
        e(f"    _k_cuda.tma.load(_k_sa[_k_q], _k_ta, (_k_m0, _k_k * {bk}), _k_bars, _k_q)")
        if m.b_kn:
            for j in range(bn // 64):
                e(f"    _k_cuda.tma.load(_k_sb[_k_q, {j}], _k_tb, (_k_k * {bk}, _k_n0 + {64 * j}), _k_bars, _k_q)")
        else:
            e(f"    _k_cuda.tma.load(_k_sb[_k_q], _k_tb, (_k_n0, _k_k * {bk}), _k_bars, _k_q)")
        e("    _k_it += 1")

    def consumer(self):
        m, e = self.m, self.emit
        bn = m.bn
        self.scalars(m.head)
        acc = "_k_acc"
        e(f"{acc} = _k_cuda.wgmma.zeros({bn})")
        e("for _k_k in range(_k_kt):")
        e(f"    _k_q = _k_it % {self.stages}")
        e(f"    _k_cuda.mbarrier.wait(_k_bars, _k_q, (_k_it // {self.stages}) & 1)")
        e("    _k_cuda.wgmma.fence()")
        for step in range(m.bk * m.dtype.bitwidth // 8 // 32):
            e(f"    {acc} = _k_cuda.wgmma.mma_async({acc}, _k_sa[_k_q, _k_row:_k_row + 64], _k_sb[_k_q], {step})")
        e("    _k_cuda.wgmma.commit_group()")
        e(f"    {acc} = _k_cuda.wgmma.wait_group(1, {acc})")
        e("    if _k_k > 0 and _k_lane == 0:")
        e(f"        _k_cuda.mbarrier.arrive(_k_bars, {self.stages} + (_k_it - 1) % {self.stages})")
        e("    _k_it += 1")
        e(f"{acc} = _k_cuda.wgmma.wait_group(0, {acc})")
        e("if _k_lane == 0:")
        e(f"    _k_cuda.mbarrier.arrive(_k_bars, {self.stages} + (_k_it - 1) % {self.stages})")
        self.epilogue(acc)

    def epilogue(self, acc):
        """The program's epilogue and store, per accumulator register: value
        4j + i of lane 4g + t of warp w is row 16w + g + 8(i >> 1), column
        8j + 2t + (i & 1) of the warpgroup's 64 rows."""
        tr, m, e = self.tr, self.m, self.emit
        k = tr.kwargs(m.store, ["array", "offsets", "value", "mask"], ["array", "offsets", "value"])
        if not isinstance(k["array"], ast.Name) or k["array"].id not in tr.arg_types:
            tr.error(m.store, "T.store takes an array argument of the kernel")
        offs = k["offsets"].elts if isinstance(k["offsets"], ast.Tuple) else [k["offsets"]]
        tr.node = m.store
        e(f"_k_R = {tr.scalar_code(offs[0])}")
        e(f"_k_C = {tr.scalar_code(offs[1])}")
        # the epilogue's tiles: vectors loaded from arrays, and element-wise values
        ctx = _Epilogue(tr, m.acc, acc, m.bn)
        for s in m.epilogue:
            tr.node = s
            ctx.define(s.targets[0].id, s.value)
        plain = isinstance(k["value"], ast.Name) and k["value"].id == m.acc
        if "mask" not in k and plain:
            self.store(k, acc)
            return
        e(f"for _k_e in range({m.bn // 2}):")
        tr.depth += 1
        e("_k_i = _k_row + _k_rw + 8 * ((_k_e >> 1) & 1)")
        e("_k_j = 8 * (_k_e >> 2) + _k_cw + (_k_e & 1)")
        value = ctx.code(k["value"])
        if "mask" not in k:
            # the epilogue's values replace the accumulator's (float32), and
            # wgmma.store writes them: pairs of neighbours in one store, only
            # inside the array, converted to its type
            ctx.emit_vectors()
            e(f"{acc} = _k_tuple_setitem({acc}, _k_e, _k_f32({value}))")
            tr.depth -= 1
            self.store(k, acc)
            return
        e("_k_x0 = _k_R + _k_i")
        e("_k_x1 = _k_C + _k_j")
        cond = f"0 <= _k_x0 < {k['array'].id}.shape[0] and 0 <= _k_x1 < {k['array'].id}.shape[1]"
        cond += f" and {ctx.code(k['mask'])}"
        ctx.emit_vectors()  # the vectors' elements the value reads
        e(f"if {cond}:")
        e(f"    {k['array'].id}[_k_x0, _k_x1] = {value}")
        tr.depth -= 1


    def store(self, k, acc):
        """The warpgroup's 64 rows of acc into the array: by wgmma.store
        (pairs of neighbours a store, inside the array only), or through
        shared memory and TMA."""
        e, bn = self.emit, self.m.bn
        if not self.tma_store:
            e(f"_k_cuda.wgmma.store({k['array'].id}, (_k_R + _k_row, _k_C), {acc})")
            return
        e("if _k_lane == 0:")
        e("    _k_cuda.tma.wait_group(0)  # the staging tile is free once the last store has read it")
        e("_k_cuda.named_barrier_sync(_k_wg, 128)")
        e(f"_k_stage_tile(_k_stg[_k_wg - 1], {acc})")
        e("_k_cuda.fence_proxy_async()  # the writes, visible to the copy engine")
        e("_k_cuda.named_barrier_sync(_k_wg, 128)")
        e("if _k_lane == 0:")
        e(f"    for _k_b in range({bn // 64}):")
        e("        _k_cuda.tma.store(_k_tc, (_k_R + _k_row, _k_C + 64 * _k_b), _k_stg[_k_wg - 1, _k_b])")
        e("    _k_cuda.tma.commit_group()")


class _Epilogue:
    """Element (_k_i, _k_j) of the epilogue's tiles, in the consumer's
    registers: acc is register _k_e; a vector T.load(v, (o,), (n,)) is read
    where it is broadcast; element-wise tiles are their expressions."""

    def __init__(self, tr, acc_name, acc_code, bn):
        self.tr = tr
        self.exprs = {}
        self.vectors = {}
        tr.tiles = {acc_name: _tr.Tile(acc_name, (BM, bn), kt.float32, False)}
        self.acc_name, self.acc_code, self.bn = acc_name, acc_code, bn
        self.used = set()

    def define(self, name, node):
        tr = self.tr
        if isinstance(node, ast.Call) and tr.api_name(node.func) == "load":
            args = tr.kwargs(node, ["array", "offsets", "shape", "padding", "mask"], ["array", "offsets", "shape"])
            shape = tr.shape_of(args["shape"])
            at = tr.array_arg(args["array"], "T.load")
            if len(shape) != 1 or "mask" in args:
                raise _NotPattern("an epilogue load that is not a vector")
            off = tr.temp("o")
            tr.emit(f"{off} = {tr.scalar_code(args['offsets'].elts[0] if isinstance(args['offsets'], ast.Tuple) else args['offsets'])}")
            pad = tr.scalar_code(args["padding"]) if "padding" in args else "0"
            self.vectors[name] = (args["array"].id, off, pad, shape[0])
            tr.tiles[name] = _tr.Tile(name, shape, at.dtype, False)
            return
        shape, dtype = tr.info(node)
        if shape is None:
            raise _NotPattern("an epilogue scalar")
        self.exprs[name] = node
        tr.tiles[name] = _tr.Tile(name, shape, dtype, False)

    def emit_vectors(self):
        tr = self.tr
        for name, axis in sorted(self.used):
            ary, off, pad, n = self.vectors[name]
            index = "_k_i" if axis == "r" else "_k_j"
            tr.emit(f"_k_{axis}{name} = {tr.dtype_name(tr.tiles[name].dtype)}({pad})")
            tr.emit(f"if 0 <= {off} + {index} < {ary}.shape[0]:")
            tr.emit(f"    _k_{axis}{name} = {ary}[{off} + {index}]")

    def code(self, node):
        tr = self.tr
        if isinstance(node, ast.Name):
            if node.id == self.acc_name:
                return f"{self.acc_code}[_k_e]"
            if node.id in self.exprs:
                return f"({self.code(self.exprs[node.id])})"
            if node.id in self.vectors:
                raise _NotPattern("a vector used without [:, None] or [None, :]")
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.vectors:
            shape = tr.subscript_shape(node, (self.vectors[node.value.id][3],))
            axis = "r" if shape[1] == 1 else "c"
            if self.vectors[node.value.id][3] != (BM if axis == "r" else self.bn):
                tr.error(node, f"a vector of {self.vectors[node.value.id][3]} values along a tile's "
                         f"{'rows' if axis == 'r' else 'columns'} ({BM if axis == 'r' else self.bn})",
                         errors.TypingError)
            self.used.add((node.value.id, axis))
            return f"_k_{axis}{node.value.id}"
        if not tr.is_tile(node):
            return f"_k_f32({tr.scalar_code(node)})"
        if isinstance(node, ast.BinOp) and not isinstance(node.op, ast.MatMult):
            return f"({self.code(node.left)} {_tr._BINOPS[type(node.op)]} {self.code(node.right)})"
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return f"(-{self.code(node.operand)})"
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            return f"({self.code(node.left)} {_tr._CMPOPS[type(node.ops[0])]} {self.code(node.comparators[0])})"
        if isinstance(node, ast.Call):
            api = tr.api_name(node.func)
            if api is None and isinstance(node.func, ast.Attribute) and node.func.attr == "astype":
                return f"{tr.dtype_name(tr.dtype_of(node.args[0]))}({self.code(node.func.value)})"
            if api in ("maximum", "minimum"):
                a, b = (self.code(x) for x in node.args)
                return f"{'max' if api == 'maximum' else 'min'}(_k_f32({a}), _k_f32({b}))"
            if api == "where":
                c, a, b = (self.code(x) for x in node.args)
                return f"(_k_f32({a}) if {c} else _k_f32({b}))"
            if api in _tr._MATH:
                return f"_k_math.{_tr._MATH[api]}(_k_f32({self.code(node.args[0])}))"
            if api == "abs":
                return f"abs({self.code(node.args[0])})"
        raise _NotPattern("an epilogue operation the sm_90 path does not apply per register")


class _NotPattern(Exception):
    """The program is not the sm_90 GEMM pattern after all (its epilogue)."""
