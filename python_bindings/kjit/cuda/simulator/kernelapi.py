"""The kernel language as the simulator runs it: ``cuda.threadIdx``,
``cuda.grid``, ``cuda.shared.array``, ``cuda.atomic``, the warp operations...

Each simulated GPU thread is a Python thread whose state (indices, block,
launch) is in a thread-local; the names here read it. Outside a kernel they
raise, as kjit's compiled names do. Barriers and warp operations are
carried out by the launch (scheduler.py).
"""
import sys
import threading

import numpy as np

from kjit import bfloat16_host, float8_host
from kjit import types as _kt
from kjit.cuda.simulator import bfloat16_values as bf16v
from kjit.cuda.simulator import float8_values as f8v
from kjit.cuda.simulator import hopper_sim as _hopper
from kjit.cuda.simulator import mma_sim as _mma_sim
from kjit.cuda.simulator import wmma_sim as _wmma_sim
from kjit.hostapi.arrays import as_dtype


class _Local(threading.local):
    s = None  # the _ThreadState of the simulated thread running here


_tls = _Local()


def _outside(name):
    raise RuntimeError(f"cuda.{name} can only be used inside a @cuda.jit kernel or device function")


def _fn(name, impl):
    """``impl`` under the kernel-language name ``name`` (a _KernelOnly,
    callable)."""
    cls = type("_KernelOnly", (), {
        "__slots__": (),
        "__call__": staticmethod(impl),
        "__repr__": lambda self: f"<kjit.cuda.{name} (kernel language, simulated)>",
        "_name": name,
        "_kjit_builtin": "kjit.cuda." + name,  # for the compiler (kernel_language._KernelOnly)
        "__doc__": impl.__doc__,
    })
    return cls()


def _ns(name, **members):
    """A kernel-language namespace (``cuda.shared``, ``cuda.atomic``)."""
    d = {"__slots__": (), "_name": name, "_kjit_module": "kjit.cuda." + name,
         "__repr__": lambda self: f"<kjit.cuda.{name} (kernel language, simulated)>"}
    d.update({k: staticmethod(v) for k, v in members.items()})
    return type("_KernelOnly", (), d)()


def _state(name):
    s = _tls.s
    if s is None:
        _outside(name)
    return s


# ---- indices ---------------------------------------------------------------------------
def _dim3(name, field):
    def axis(i):
        def get(self):
            s = _tls.s
            if s is None:
                _outside(name)
            return getattr(s, field)[i]
        return property(get)

    def text(self):  # inside a kernel print() shows (x, y, z), as compiled kernels do
        s = _tls.s
        if s is None:
            return f"<kjit.cuda.{name} (kernel language, simulated)>"
        return str(tuple(int(v) for v in getattr(s, field)))

    cls = type("_KernelOnly", (), {"__slots__": (), "x": axis(0), "y": axis(1), "z": axis(2), "_name": name,
                                   "_kjit_module": "kjit.cuda." + name,
                                   "__repr__": text})
    return cls()


threadIdx = _dim3("threadIdx", "tid")
blockIdx = _dim3("blockIdx", "bid")
blockDim = _dim3("blockDim", "bdim")
gridDim = _dim3("gridDim", "gdim")
warpsize = 32


_LANEID = type("_KernelOnly", (), {"__slots__": (), "_name": "laneid",
                                   "__repr__": lambda self: "<kjit.cuda.laneid (kernel language, simulated)>"})()
laneid = _LANEID  # cuda.laneid is a property of the module in a kernel (see _install)


def _grid(ndim):
    """The thread's absolute position in the grid: an int, or a tuple of 2 or 3."""
    s = _state("grid")
    t, b, d = s.tid, s.bid, s.bdim
    if ndim == 1:
        return b[0] * d[0] + t[0]
    if ndim == 2:
        return b[0] * d[0] + t[0], b[1] * d[1] + t[1]
    if ndim == 3:
        return b[0] * d[0] + t[0], b[1] * d[1] + t[1], b[2] * d[2] + t[2]
    raise ValueError(f"cuda.grid() takes 1, 2 or 3, not {ndim}")


def _gridsize(ndim):
    """The number of threads in the grid along each axis."""
    s = _state("gridsize")
    g, d = s.gdim, s.bdim
    if ndim == 1:
        return g[0] * d[0]
    if ndim == 2:
        return g[0] * d[0], g[1] * d[1]
    if ndim == 3:
        return g[0] * d[0], g[1] * d[1], g[2] * d[2]
    raise ValueError(f"cuda.gridsize() takes 1, 2 or 3, not {ndim}")


grid = _fn("grid", _grid)
gridsize = _fn("gridsize", _gridsize)


def _site(depth=2):
    f = sys._getframe(depth)
    return f.f_code.co_filename, f.f_lineno


# ---- barriers ----------------------------------------------------------------------------
def _syncthreads():
    s = _state("syncthreads")
    return s.launch.block_sync(s, "syncthreads", True, _site())


def _syncthreads_count(predicate):
    s = _state("syncthreads_count")
    return s.launch.block_sync(s, "syncthreads_count", bool(predicate), _site())


def _syncthreads_and(predicate):
    s = _state("syncthreads_and")
    return s.launch.block_sync(s, "syncthreads_and", bool(predicate), _site())


def _syncthreads_or(predicate):
    s = _state("syncthreads_or")
    return s.launch.block_sync(s, "syncthreads_or", bool(predicate), _site())


syncthreads = _fn("syncthreads", _syncthreads)
syncthreads_count = _fn("syncthreads_count", _syncthreads_count)
syncthreads_and = _fn("syncthreads_and", _syncthreads_and)
syncthreads_or = _fn("syncthreads_or", _syncthreads_or)


def _fence():
    _state("threadfence")  # memory is sequentially consistent here


threadfence = _fn("threadfence", _fence)
threadfence_block = _fn("threadfence_block", _fence)
threadfence_system = _fn("threadfence_system", _fence)


# ---- loads and stores with a cache policy (plain ones here) ------------------------------
def _cache_index(name, ary, index):
    if not isinstance(index, tuple):
        index = (index,)
    if len(index) != ary.ndim:
        raise TypeError(f"{name}: Expected {ary.ndim} indices, got {len(index)}")
    return index


def _loader(name):
    def load(ary, index):
        _state(name)
        return ary[_cache_index(name, ary, index)]
    load.__doc__ = f"cuda.{name}(array, index): the element (a load with a cache policy on a GPU)."
    return _fn(name, load)


def _storer(name):
    def store(ary, index, value):
        _state(name)
        ary[_cache_index(name, ary, index)] = value
    store.__doc__ = f"cuda.{name}(array, index, value): stores the element (with a cache policy on a GPU)."
    return _fn(name, store)


ldca, ldcg, ldcs, ldlu, ldcv = (_loader(n) for n in ("ldca", "ldcg", "ldcs", "ldlu", "ldcv"))
stcg, stcs, stwb, stwt = (_storer(n) for n in ("stcg", "stcs", "stwb", "stwt"))


class _GridGroup:
    """cuda.cg.this_grid(): the grid of the launch."""
    __slots__ = ()

    def sync(self):
        """Waits for every thread of the grid. The simulator runs the blocks
        of a launch one after another, so it can only do so for a grid of one
        block; the CPU device (KJIT_DEVICE=cpu) runs every block of such a
        kernel at once, as a cooperative launch on a GPU does."""
        s = _state("cg.this_grid().sync")
        g = s.gdim
        if g[0] * g[1] * g[2] != 1:
            raise NotImplementedError(
                f"kjit simulator: grid.sync() in a grid of {g[0] * g[1] * g[2]} blocks: the simulator runs "
                "blocks one after another, so a grid barrier needs a grid of one block here; the CPU device "
                "(KJIT_DEVICE=cpu) runs cooperative kernels")
        return s.launch.block_sync(s, "syncthreads", True, _site())


def _this_grid():
    """The grid group, whose sync() is a barrier for the whole grid."""
    _state("cg.this_grid")
    return _GridGroup()


cg = _ns("cg", this_grid=_this_grid, grid_group=_GridGroup)


# ---- warps -------------------------------------------------------------------------------
def _mask(m):
    return int(m) & 0xFFFFFFFF


def _syncwarp(mask=0xFFFFFFFF):
    s = _state("syncwarp")
    s.launch.warp_op(s, "syncwarp", _mask(mask), None, None, _site())


def _shfl_sync(mask, value, src_lane):
    s = _state("shfl_sync")
    return s.launch.warp_op(s, "shfl_sync", _mask(mask), value, int(src_lane), _site())


def _shfl_up_sync(mask, value, delta):
    s = _state("shfl_up_sync")
    return s.launch.warp_op(s, "shfl_up_sync", _mask(mask), value, int(delta), _site())


def _shfl_down_sync(mask, value, delta):
    s = _state("shfl_down_sync")
    return s.launch.warp_op(s, "shfl_down_sync", _mask(mask), value, int(delta), _site())


def _shfl_xor_sync(mask, value, lane_mask):
    s = _state("shfl_xor_sync")
    return s.launch.warp_op(s, "shfl_xor_sync", _mask(mask), value, int(lane_mask), _site())


def _all_sync(mask, predicate):
    s = _state("all_sync")
    return s.launch.warp_op(s, "all_sync", _mask(mask), bool(predicate), None, _site())


def _any_sync(mask, predicate):
    s = _state("any_sync")
    return s.launch.warp_op(s, "any_sync", _mask(mask), bool(predicate), None, _site())


def _eq_sync(mask, predicate):
    s = _state("eq_sync")
    return s.launch.warp_op(s, "eq_sync", _mask(mask), bool(predicate), None, _site())


def _ballot_sync(mask, predicate):
    s = _state("ballot_sync")
    return s.launch.warp_op(s, "ballot_sync", _mask(mask), bool(predicate), None, _site())


def _match_any_sync(mask, value):
    s = _state("match_any_sync")
    return s.launch.warp_op(s, "match_any_sync", _mask(mask), value, None, _site())


def _match_all_sync(mask, value):
    s = _state("match_all_sync")
    return s.launch.warp_op(s, "match_all_sync", _mask(mask), value, None, _site())


def _activemask():
    s = _state("activemask")
    return s.launch.active_mask(s, _site())


wmma = _ns("wmma", **_wmma_sim.make(lambda: _state("wmma").lane))


def _lanemask_lt():
    s = _state("lanemask_lt")
    return np.uint32((1 << s.lane) - 1)


syncwarp = _fn("syncwarp", _syncwarp)
shfl_sync = _fn("shfl_sync", _shfl_sync)
shfl_up_sync = _fn("shfl_up_sync", _shfl_up_sync)
shfl_down_sync = _fn("shfl_down_sync", _shfl_down_sync)
shfl_xor_sync = _fn("shfl_xor_sync", _shfl_xor_sync)
all_sync = _fn("all_sync", _all_sync)
any_sync = _fn("any_sync", _any_sync)
eq_sync = _fn("eq_sync", _eq_sync)
ballot_sync = _fn("ballot_sync", _ballot_sync)
match_any_sync = _fn("match_any_sync", _match_any_sync)
match_all_sync = _fn("match_all_sync", _match_all_sync)
activemask = _fn("activemask", _activemask)
lanemask_lt = _fn("lanemask_lt", _lanemask_lt)


# ---- tensor-core fragments of the whole warp (mma.sync, ldmatrix), asynchronous copies --------
_WHOLE_WARP = 0xFFFFFFFF


def _mma_sync(shape, a, b, c):
    """cuda.mma_sync("m16n8k16", a, b, c): the warp's d = a @ b + c (16x16
    float16 or bfloat16 a, 16x8 b, float32 c), each lane giving its
    fragments (8, 4 and 4 values) and getting its 4 float32 of d
    (mma_sim.py says which)."""
    s = _state("mma_sync")
    parts = _mma_sim.lane_parts(shape, a, b, c)
    return s.launch.warp_op(s, "mma_sync", _WHOLE_WARP, parts, None, _site())


def _ldmatrix(array, offset, num, trans=False):
    """cuda.ldmatrix(smem, (row, col), num, trans=False): num 8x8 matrices
    of 16-bit elements, lane 8j + r giving row r of matrix j (8 elements
    from smem[row, col]); each lane gets 2 * num elements (mma_sim.py)."""
    s = _state("ldmatrix")
    address = _mma_sim.ldmatrix_address(s.lane, array, offset, num)
    return s.launch.warp_op(s, "ldmatrix", _WHOLE_WARP, address, (int(num), bool(trans)), _site())


def _cp_async(dst, dst_index, src, src_index, nbytes):
    """cuda.cp_async(dst, index, src, index, nbytes): copies nbytes (4, 8
    or 16) from src's element onward to dst's (here at once)."""
    _state("cp_async")
    _mma_sim.cp_async(dst, dst_index, src, src_index, nbytes)


def _cp_async_commit():
    """Ends a group of cp_async copies (nothing to do in the simulator)."""
    _state("cp_async_commit")


def _cp_async_wait(n):
    """Waits until at most n groups of copies are pending (the simulator's
    copies are done already)."""
    _state("cp_async_wait")
    if isinstance(n, bool) or not 0 <= int(n) <= 7:
        raise ValueError(f"cuda.cp_async_wait(): the number of pending groups is 0 to 7, not {n!r}")


def _mfma(shape, a, b, c):
    """cuda.mfma("16x16x16", a, b, c): AMD CDNA's matrix instruction over a
    wavefront of 64 lanes; the simulator runs NVIDIA's warps of 32."""
    from kjit import errors
    raise errors.UnsupportedError("cuda.mfma() is AMD CDNA's matrix instruction (a wavefront of 64 lanes); the "
                                  "simulator runs warps of 32 lanes (compile for AMD with cuda.compile_amdgcn)")


mma_sync = _fn("mma_sync", _mma_sync)
mfma = _fn("mfma", _mfma)
ldmatrix = _fn("ldmatrix", _ldmatrix)
cp_async = _fn("cp_async", _cp_async)
cp_async_commit = _fn("cp_async_commit", _cp_async_commit)
cp_async_wait = _fn("cp_async_wait", _cp_async_wait)


# ---- Hopper: mbarriers, TMA, wgmma (hopper_sim.py) -------------------------------------
def _parity(name, parity):
    if int(parity) not in (0, 1):
        raise ValueError(f"cuda.mbarrier.{name}(): the parity is 0 or 1, not {parity!r}")
    return int(parity)


def _mbar_init(bars, i, count):
    """cuda.mbarrier.init(bars, i, count): a barrier whose phases complete
    after ``count`` arrivals (and the bytes they expect)."""
    s = _state("mbarrier.init")
    if not 1 <= int(count) < 1 << 20:
        raise ValueError(f"cuda.mbarrier.init(): count is 1 to 2**20 - 1, not {count!r}")
    s.launch.mbarrier_update(_hopper.init, bars, int(i), int(count))


def _mbar_arrive(bars, i):
    """cuda.mbarrier.arrive(bars, i): one arrival on barrier i."""
    s = _state("mbarrier.arrive")
    s.launch.mbarrier_update(_hopper.arrive, bars, int(i))


def _mbar_expect(bars, i, nbytes):
    """cuda.mbarrier.arrive_expect_tx(bars, i, nbytes): an arrival that also
    makes the phase wait for ``nbytes`` more bytes of tensor copies."""
    s = _state("mbarrier.arrive_expect_tx")
    s.launch.mbarrier_update(_hopper.arrive, bars, int(i), int(nbytes))


def _mbar_wait(bars, i, parity):
    """cuda.mbarrier.wait(bars, i, parity): waits until the phase of that
    parity has completed."""
    s = _state("mbarrier.wait")
    s.launch.mbarrier_wait(s, bars, int(i), _parity("wait", parity), _site())


def _mbar_try_wait(bars, i, parity):
    """cuda.mbarrier.try_wait(bars, i, parity): whether that phase has completed."""
    s = _state("mbarrier.try_wait")
    with s.launch.lock:
        return bool(_hopper.phase_done(bars, int(i), _parity("try_wait", parity)))


mbarrier = _ns("mbarrier", init=_mbar_init, arrive=_mbar_arrive, arrive_expect_tx=_mbar_expect,
               wait=_mbar_wait, try_wait=_mbar_try_wait)


def _tma_load(dst, tensor_map, coords, bars, i):
    """cuda.tma.load(dst, tensor_map, coords, bars, i): the map's box at
    ``coords`` into the shared tile ``dst`` (swizzled as the map says); its
    bytes complete on barrier i."""
    s = _state("tma.load")
    s.launch.mbarrier_update(_hopper.tma_load, dst, tensor_map, _coords(coords), bars, int(i))


def _tma_store(tensor_map, coords, src):
    """cuda.tma.store(tensor_map, coords, src): the shared tile ``src`` into
    the map's box at ``coords`` (inside the array only)."""
    _state("tma.store")
    _hopper.tma_store(tensor_map, _coords(coords), src)


def _coords(c):
    return tuple(int(x) for x in c) if isinstance(c, tuple) else (int(c),)


def _group_wait(name):
    def wait(n, acc=None):
        _state(name)
        if not 0 <= int(n) <= 7:
            raise ValueError(f"cuda.{name}(): n is 0 to 7, not {n!r}")
        return acc
    wait.__doc__ = f"cuda.{name}(n): copies and products complete when issued in the simulator."
    return wait


def _nothing(name):
    def op():
        _state(name)
    op.__doc__ = f"cuda.{name}(): nothing to wait for in the simulator."
    return op


tma = _ns("tma", load=_tma_load, store=_tma_store, commit_group=_nothing("tma.commit_group"),
          wait_group=_group_wait("tma.wait_group"))


def _wgmma_zeros(n):
    """cuda.wgmma.zeros(n): the thread's n/2 float32 accumulator values of
    a 64 x n tile, zero."""
    if int(n) % 8 or not 8 <= int(n) <= 256:
        raise ValueError(f"cuda.wgmma.zeros(): n is a multiple of 8 from 8 to 256, not {n!r}")
    return (np.float32(0),) * (int(n) // 2)


def _wgmma_convert(acc, dtype):
    """cuda.wgmma.convert(acc, dtype): the accumulator's values as float16 or
    bfloat16 (wgmma's a in registers)."""
    _state("wgmma.convert")
    if dtype not in (_kt.float16, _kt.bfloat16):
        raise TypeError(f"cuda.wgmma.convert(): the type is float16 or bfloat16, not {dtype!r}")
    return tuple(dtype(x) for x in acc)


def _wgmma_mma(acc, a, b, k):
    """cuda.wgmma.mma_async(acc, a, b, k): acc + A[:, 16k:16k+16] @
    B[16k:16k+16, :] for this thread's elements of the warpgroup's tile. A:
    a K-major shared tile, or registers (an accumulator tuple: its values
    8k..8k+7 in each thread, gathered across the warp); B: b.T of a K-major
    tile, or a transposed (n/64, kt, 64) tile."""
    s = _state("wgmma.mma_async")
    k = int(k)
    regs = isinstance(a, tuple)
    if regs:
        if len(a) % 8 or not a:
            raise TypeError(f"cuda.wgmma.mma_async(): a in registers is an accumulator tuple of m/2 values, "
                            f"m a multiple of 16, not {len(a)} values")
        if not 0 <= k < len(a) // 8:
            raise ValueError(f"cuda.wgmma.mma_async(): k is {k}; the registers of a hold k = 0 to {len(a) // 8 - 1}")
        piece = _hopper.round_a(a[8 * k:8 * k + 8], b)
        a = s.launch.warp_op(s, "wgmma_a", _WHOLE_WARP, piece, None, _site())
    elif not 0 <= k <= 3:
        raise ValueError(f"cuda.wgmma.mma_async(): k is 0 to 3, not {k!r}")
    return _hopper.mma_async(acc, a, b, k, s.linear % 128)


def _wgmma_store(out, place, acc):
    """cuda.wgmma.store(out, (row, col), acc): the warpgroup's 64 x n tile
    into ``out`` at (row, col), inside ``out`` only."""
    s = _state("wgmma.store")
    _hopper.store(out, place, acc, s.linear % 128)


def _wgmma_commit():
    """cuda.wgmma.commit_group(): waits for the warpgroup's 128 threads (their
    products are computed one thread at a time in the simulator)."""
    s = _state("wgmma.commit_group")
    s.launch.warpgroup_sync(s, _site())


wgmma = _ns("wgmma", zeros=_wgmma_zeros, convert=_wgmma_convert, fence=_nothing("wgmma.fence"), mma_async=_wgmma_mma,
            commit_group=_wgmma_commit, wait_group=_group_wait("wgmma.wait_group"),
            store=_wgmma_store)
fence_mbarrier_init = _fn("fence_mbarrier_init", _nothing("fence_mbarrier_init"))
fence_proxy_async = _fn("fence_proxy_async", _nothing("fence_proxy_async"))


def _setmaxnreg(name):
    def op(n):
        _state(name)
        if int(n) % 8 or not 24 <= int(n) <= 256:
            raise ValueError(f"cuda.{name}(): the count is a multiple of 8 from 24 to 256, not {n!r}")
    op.__doc__ = f"cuda.{name}(n): register counts are the GPU's; nothing in the simulator."
    return op


def _named_barrier(name, wait):
    def op(ident, count):
        s = _state(name)
        s.launch.named_barrier(s, int(ident), int(count), wait, _site())
    op.__doc__ = (f"cuda.{name}(id, count): an arrival at barrier id (0-15) of the block, whose phase ends "
                  f"when count threads (a multiple of 32) have come{'; waits for that' if wait else ''}.")
    return op


named_barrier_sync = _fn("named_barrier_sync", _named_barrier("named_barrier_sync", True))
named_barrier_arrive = _fn("named_barrier_arrive", _named_barrier("named_barrier_arrive", False))
setmaxnreg_inc = _fn("setmaxnreg_inc", _setmaxnreg("setmaxnreg_inc"))
setmaxnreg_dec = _fn("setmaxnreg_dec", _setmaxnreg("setmaxnreg_dec"))


# ---- memory ------------------------------------------------------------------------------
def _shape(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(n) for n in shape)


def _dtype(dtype):
    """The NumPy dtype of an array's element type (kjit.bfloat16,
    kjit.float8_e4m3fn, kjit.float8_e5m2: the host dtype of their arrays,
    kjit/bfloat16_host.py, kjit/float8_host.py)."""
    if dtype is _kt.bfloat16 or (isinstance(dtype, str) and dtype == "bfloat16"):
        return bfloat16_host.dtype()
    if isinstance(dtype, str) and dtype in float8_host.NAMES:
        return float8_host.dtype(dtype)
    return as_dtype(dtype)


def _wrap(a):
    """An array as a kernel sees it: bfloat16 and float8 bits wrapped
    (bfloat16_values.py, float8_values.py)."""
    return f8v.wrap(bf16v.wrap(a))


def _unwrap(a):
    return f8v.unwrap(bf16v.unwrap(a))


def _shared_array(shape, dtype):
    """The block's array of this call site (every thread of the block gets
    the same one); shape 0 is the dynamic shared memory of the launch."""
    s = _state("shared.array")
    f = sys._getframe(1)
    return _wrap(s.launch.shared_array(s, (f.f_code, f.f_lasti), _shape(shape), _dtype(dtype)))


def _local_array(shape, dtype):
    """A new array of the thread's own."""
    _state("local.array")
    return _wrap(np.zeros(_shape(shape), _dtype(dtype)))


def _const_array_like(ary):
    """A read-only copy of a global array (as the compiler freezes it)."""
    s = _state("const.array_like")
    return _wrap(s.launch.const_array(_unwrap(ary)))


shared = _ns("shared", array=_shared_array)
local = _ns("local", array=_local_array)
const = _ns("const", array_like=_const_array_like)


# ---- atomics ----------------------------------------------------------------------------
_atomic_lock = threading.Lock()


def _index(idx):
    if isinstance(idx, tuple):
        return tuple(int(i) for i in idx)
    return int(idx)


def _isnan(v):
    return v != v


def _rmw(op):
    def atomic_op(ary, idx, val):
        idx = _index(idx)
        with _atomic_lock:
            old = ary[idx]
            ary[idx] = op(old, val)
        return old
    return atomic_op


def _max(old, v):
    # As compiled (and as Numba's): a NaN stored stays, a NaN value is
    # ignored; only a strictly larger number replaces the stored one.
    return v if v > old else old


def _min(old, v):
    return v if v < old else old


def _nanmax(old, v):
    if isinstance(old, (float, np.floating)):
        return v if (v > old or (_isnan(old) and not _isnan(v))) else old
    return v if v > old else old


def _nanmin(old, v):
    if isinstance(old, (float, np.floating)):
        return v if (v < old or (_isnan(old) and not _isnan(v))) else old
    return v if v < old else old


def _inc(old, v):
    return 0 if old >= v else old + 1


def _dec(old, v):
    return v if (old == 0 or old > v) else old - 1


def _cas(ary, idx, old, val):
    """If ``ary[idx] == old``, stores ``val``; returns the value found."""
    idx = _index(idx)
    with _atomic_lock:
        cur = ary[idx]
        if cur == old:
            ary[idx] = val
    return cur


def _compare_and_swap(ary, old, val):
    """``cas`` on element 0 of a 1-d array."""
    return _cas(ary, 0, old, val)


atomic = _ns("atomic",
             add=_rmw(lambda o, v: o + v), sub=_rmw(lambda o, v: o - v),
             and_=_rmw(lambda o, v: o & v), or_=_rmw(lambda o, v: o | v), xor=_rmw(lambda o, v: o ^ v),
             max=_rmw(_max), min=_rmw(_min), nanmax=_rmw(_nanmax), nanmin=_rmw(_nanmin),
             inc=_rmw(_inc), dec=_rmw(_dec), exch=_rmw(lambda o, v: v),
             cas=_cas, compare_and_swap=_compare_and_swap)


# ---- bits and arithmetic -------------------------------------------------------------------
def _width(x):
    if isinstance(x, np.integer):
        return x.dtype.itemsize * 8
    if isinstance(x, (bool, np.bool_)):
        return 8
    return 64  # a Python int is an int64 in a kernel


def _wrap_like(x, v):
    if isinstance(x, np.integer):
        return x.dtype.type(v) if v >= 0 or x.dtype.kind == "i" else x.dtype.type(v & ((1 << _width(x)) - 1))
    return v


def _popc(x):
    """The number of set bits."""
    w = _width(x)
    return _wrap_like(x, bin(int(x) & ((1 << w) - 1)).count("1"))


def _brev(x):
    """The bits in reverse order (an unsigned 32- or 64-bit result)."""
    w = 32 if _width(x) <= 32 else 64
    v = int(x) & ((1 << w) - 1)
    r = int(format(v, f"0{w}b")[::-1], 2)
    return np.uint32(r) if w == 32 else np.uint64(r)


def _clz(x):
    """The number of leading zero bits."""
    w = _width(x)
    v = int(x) & ((1 << w) - 1)
    return _wrap_like(x, w - v.bit_length())


def _ffs(x):
    """The position (from 1) of the least significant set bit; 0 for 0."""
    w = _width(x)
    v = int(x) & ((1 << w) - 1)
    return np.uint32((v & -v).bit_length())


def _is_f32(x):
    return isinstance(x, (np.float32, np.float16, np.integer, bool, np.bool_)) and not (
        isinstance(x, np.integer) and x.dtype.itemsize > 2)


def _fma(a, b, c):
    """``a * b + c`` (float32 when all three are float32 or narrower)."""
    if _is_f32(a) and _is_f32(b) and _is_f32(c):
        return np.float32(float(a) * float(b) + float(c))
    return float(a) * float(b) + float(c)


def _cbrt(x):
    """The cube root (float32 for float32)."""
    if isinstance(x, np.float32):
        return np.float32(np.cbrt(x))
    return float(np.cbrt(float(x)))


popc = _fn("popc", _popc)
brev = _fn("brev", _brev)
clz = _fn("clz", _clz)
ffs = _fn("ffs", _ffs)
fma = _fn("fma", _fma)
cbrt = _fn("cbrt", _cbrt)


def _selp(pred, a, b):
    """``a`` where ``pred`` holds, else ``b``."""
    return a if pred else b


selp = _fn("selp", _selp)


def _h(x):
    return np.float16(x)


fp16 = _ns("fp16",
           hadd=lambda a, b: _h(_h(a) + _h(b)), hsub=lambda a, b: _h(_h(a) - _h(b)),
           hmul=lambda a, b: _h(_h(a) * _h(b)), hdiv=lambda a, b: _h(_h(a) / _h(b)),
           heq=lambda a, b: bool(_h(a) == _h(b)), hne=lambda a, b: bool(_h(a) != _h(b)),
           hge=lambda a, b: bool(_h(a) >= _h(b)), hgt=lambda a, b: bool(_h(a) > _h(b)),
           hle=lambda a, b: bool(_h(a) <= _h(b)), hlt=lambda a, b: bool(_h(a) < _h(b)),
           hmax=lambda a, b: _h(max(_h(a), _h(b))), hmin=lambda a, b: _h(min(_h(a), _h(b))),
           habs=lambda a: _h(abs(_h(a))), hneg=lambda a: _h(-_h(a)),
           hfma=lambda a, b, c: _h(float(a) * float(b) + float(c)),
           # functions of one value, computed in float32 as compiled kernels do
           **{name: (lambda fn: lambda a: _h(fn(np.float32(a))))(fn) for name, fn in (
               ("hsin", np.sin), ("hcos", np.cos), ("hlog", np.log), ("hlog2", np.log2),
               ("hlog10", np.log10), ("hexp", np.exp), ("hexp2", np.exp2), ("hsqrt", np.sqrt),
               ("hceil", np.ceil), ("hfloor", np.floor), ("htrunc", np.trunc), ("hrint", np.rint),
               ("hexp10", lambda v: np.float32(10) ** v), ("hrcp", lambda v: np.float32(1) / v),
               ("hrsqrt", lambda v: np.float32(1) / np.sqrt(v)))})


def _bfloat16_in_kernel(x):
    """kjit.bfloat16(x) in a simulated kernel without ml_dtypes: the
    simulator's bfloat16 scalar (None elsewhere: the host's value)."""
    if _tls.s is None or bfloat16_host.ml_dtypes_present():
        return None
    return bf16v.scalar(x)


_kt.BFloat16.set_kernel_value(_bfloat16_in_kernel)


def _float8_in_kernel(x, name):
    """kjit.float8_e4m3fn(x) (float8_e5m2(x)) in a simulated kernel without
    ml_dtypes: the simulator's float8 scalar (None elsewhere: the host's
    value)."""
    if _tls.s is None or float8_host.dtype(name).kind != "u":  # (ml_dtypes' is "V")
        return None
    return f8v.scalar(x, name)


_kt.Float8.set_kernel_value(_float8_in_kernel)


def _bf(x):
    """``x`` converted to bfloat16, as cuda.bf16's functions convert their
    arguments (rounded once): the simulator's bfloat16 scalar, or
    ml_dtypes' when it is present."""
    if type(x) is bf16v.BFloat16Scalar:
        return x
    return bfloat16_host.scalar(x) if bfloat16_host.ml_dtypes_present() else bf16v.scalar(x)


def _bf_max(a, b):
    a, b = _bf(a), _bf(b)
    return b if b > a else a  # as compiled: the first unless the second is larger (NaN: the first)


def _bf_min(a, b):
    a, b = _bf(a), _bf(b)
    return b if b < a else a


def _f32(x):
    return np.float32(_bf(x))


bf16 = _ns("bf16",
           hadd=lambda a, b: _bf(a) + _bf(b), hsub=lambda a, b: _bf(a) - _bf(b),
           hmul=lambda a, b: _bf(a) * _bf(b), hdiv=lambda a, b: _bf(a) / _bf(b),
           heq=lambda a, b: bool(_bf(a) == _bf(b)), hne=lambda a, b: bool(_bf(a) != _bf(b)),
           hge=lambda a, b: bool(_bf(a) >= _bf(b)), hgt=lambda a, b: bool(_bf(a) > _bf(b)),
           hle=lambda a, b: bool(_bf(a) <= _bf(b)), hlt=lambda a, b: bool(_bf(a) < _bf(b)),
           hmax=_bf_max, hmin=_bf_min, habs=lambda a: abs(_bf(a)), hneg=lambda a: -_bf(a),
           # fma in float32 (the product of two bfloat16 values is exact there), rounded once more
           hfma=lambda a, b, c: _bf(_f32(a) * _f32(b) + _f32(c)),
           # conversions (numba-cuda's names)
           float32_to_bfloat16=_bf, float64_to_bfloat16=_bf, float_to_bfloat16=_bf, bfloat16=_bf,
           bfloat16_to_float32=_f32, bfloat16_to_float=_f32,
           # functions of one value, computed in float32 as compiled kernels do
           **{name: (lambda fn: lambda a: _bf(fn(_f32(a))))(fn) for name, fn in (
               ("hsin", np.sin), ("hcos", np.cos), ("hlog", np.log), ("hlog2", np.log2),
               ("hlog10", np.log10), ("hexp", np.exp), ("hexp2", np.exp2), ("hsqrt", np.sqrt),
               ("hceil", np.ceil), ("hfloor", np.floor), ("htrunc", np.trunc), ("hrint", np.rint),
               ("hexp10", lambda v: np.float32(10) ** v), ("hrcp", lambda v: np.float32(1) / v),
               ("hrsqrt", lambda v: np.float32(1) / np.sqrt(v)))})
