"""The simulator's scheduler: how a launch runs its GPU threads.

A launch (``_Launch``) runs the kernel's Python function once per GPU
thread: the threads of a block are Python threads running concurrently (one
per GPU thread, a ``_Worker`` taken from a pool and reused block after
block, ``_take_workers``), the blocks run one after another. A kernel that
names no barrier and no warp operation (nor do the functions it calls) runs
its threads one after another in the launching thread instead: a valid
schedule, and a much faster one.

Barriers (``syncthreads`` and its reductions) and warp operations
(shuffles, votes, ``match_*``, ``syncwarp``, and ``mma_sync`` and
``ldmatrix``, which take all 32 lanes) wait for the threads that take
part (``_Arrival``), exchange values under one lock, and release them
together. When every live thread of a block waits and none can go on
(threads at different barriers, a warp operation naming a lane that waits
elsewhere), the launch fails with ``BarrierError`` naming the sites,
instead of hanging. An exception in a thread names the block, the thread
and the innermost line of the user's files (``_user_files``).
"""
import os
import sys
import threading
import traceback

import numpy as np

from kjit import _kjit
from kjit.cuda.simulator import hopper_sim
from kjit.cuda.simulator import mma_sim as _mma_sim
from kjit.cuda.simulator.kernelapi import _tls

# Source files of kernels and device functions: an exception names the
# innermost line of these (CUDAKernel adds them).
_user_files = set()


class BarrierError(RuntimeError):
    """The threads of a block wait at barriers (or warp operations) that
    cannot all be reached: on a GPU the kernel would hang or misbehave."""


class _Abort(BaseException):
    """Unwinds a simulated thread when the launch fails elsewhere."""


def _fmt3(t):
    return f"({t[0]}, {t[1]}, {t[2]})"


class _ThreadState:
    """One simulated GPU thread (a Python thread, reused block after block)."""

    __slots__ = ("launch", "tid", "bid", "bdim", "gdim", "linear", "lane", "warp", "gate", "result",
                 "site", "kind")

    def __init__(self, launch, tid, linear):
        self.launch = launch
        self.tid = tid
        self.bid = (0, 0, 0)
        self.bdim = launch.bdim
        self.gdim = launch.gdim
        self.linear = linear
        self.lane = linear % 32
        self.warp = linear // 32
        self.gate = None  # the worker's: released to let the thread go on (a block to run, a barrier passed)
        self.result = None
        self.site = None
        self.kind = None


class _Arrival:
    __slots__ = ("state", "kind", "mask", "value", "arg", "site")

    def __init__(self, state, kind, mask, value, arg, site):
        self.state, self.kind, self.mask, self.value, self.arg, self.site = state, kind, mask, value, arg, site


_ABORTED = object()


def _bits(mask):
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _i32(v):
    v &= 0xFFFFFFFF
    return np.int32(v - (1 << 32) if v >= 1 << 31 else v)


def _same(a, b):
    return a == b or (a != a and b != b)


# Warp operations of all 32 lanes together (tensor-core fragments).
_WHOLE_WARP_KINDS = frozenset({"mma_sync", "ldmatrix", "wgmma_a"})


def _lanes_text(lanes):
    """Lane numbers as ranges: "16-31", "3, 5"."""
    parts, start = [], None
    for i, l in enumerate(lanes):
        if start is None:
            start = l
        if i + 1 == len(lanes) or lanes[i + 1] != l + 1:
            parts.append(str(start) if start == l else f"{start}-{l}")
            start = None
    return ", ".join(parts)


class _Launch:
    def __init__(self, kernel, gdim, bdim, sharedmem, args):
        self.kernel = kernel
        from kjit.cuda.simulator.pyfuncs import simulated
        self.func = simulated(kernel.py_func)
        self.args = args
        self.gdim, self.bdim = gdim, bdim
        self.sharedmem = sharedmem
        self.nthreads = bdim[0] * bdim[1] * bdim[2]
        self.nwarps = (self.nthreads + 31) // 32
        self.lock = threading.Lock()
        self.done = threading.Lock()
        self.done.acquire()
        self.error = None  # (exception, state's bid, tid) of the first failure
        self.aborting = False
        self.stop = False
        self.consts = {}
        self.trace = sys.gettrace()
        # debug=True: NumPy's division by zero raises (FloatingPointError), as
        # in Numba's simulator; compiled kernels raise ZeroDivisionError.
        self.errstate = {"divide": "raise"} if kernel.targetoptions.get("debug") else {}
        self.sequential = False
        self.states = []
        bx, by = bdim[0], bdim[1]
        for z in range(bdim[2]):
            for y in range(by):
                for x in range(bx):
                    self.states.append(_ThreadState(self, (x, y, z), x + y * bx + z * bx * by))
        self.full = [0] * self.nwarps
        for s in self.states:
            self.full[s.warp] |= 1 << s.lane

    # ---- running ---------------------------------------------------------------------
    def run(self):
        self.sequential = not self.kernel._synchronizes()
        if self.sequential:
            self._run_sequential()
        else:
            self._run_threads()
        if self.error is not None:
            self._raise()

    def _blocks(self):
        gx, gy, gz = self.gdim
        for bz in range(gz):
            for by in range(gy):
                for bx in range(gx):
                    yield bx, by, bz

    def _new_block(self, bid):
        self.bid = bid
        self.shared = {}
        self.dynshared = np.zeros(self.sharedmem, np.uint8)
        self.live = self.nthreads
        self.blocked = 0
        self.barrier = {}  # linear id -> state, at a block barrier
        self.warps = [dict() for _ in range(self.nwarps)]  # lane -> _Arrival
        self.arrived = [0] * self.nwarps  # lanes in self.warps, as bits
        self.at_barrier = [0] * self.nwarps  # lanes in self.barrier, as bits
        self.am_pending = [0] * self.nwarps  # lanes waiting in activemask()
        self.warp_live = list(self.full)
        self.mbar_waiters = []  # (state, bars, i, parity): at cuda.mbarrier.wait()
        self.group_waiters = {}  # warpgroup -> the states at cuda.wgmma.commit_group()
        # (and ("named", id) -> the states at cuda.named_barrier_sync(id, count))
        self.named = {}  # named barrier id -> [its phase's thread count, arrivals]

    def _run_sequential(self):
        """A kernel without barriers or warp operations: the threads of a
        block run one after the other in this thread (a valid schedule)."""
        func, args = self.func, self.args
        prev = _tls.s
        try:
            with np.errstate(**self.errstate):
                self._run_blocks_sequentially(func, args)
        finally:
            _tls.s = prev

    def _run_blocks_sequentially(self, func, args):
        for bid in self._blocks():
            self._new_block(bid)
            for s in self.states:
                s.bid = bid
                _tls.s = s
                try:
                    func(*args)
                except BaseException as e:  # noqa: B036 - reported with the thread, in run()
                    self.error = (e, bid, s.tid)
                    return

    def _run_threads(self):
        workers = _take_workers(self.nthreads)
        for w, s in zip(workers, self.states):
            s.gate = w.gate
            w.state = s
        clean = False
        try:
            for bid in self._blocks():
                self._new_block(bid)
                for s in self.states:
                    s.bid = bid
                    s.result = None
                    s.gate.release()
                self.done.acquire()
                if self.error is not None:
                    break
            clean = True
        except BaseException:
            with self.lock:
                self._abort()
            raise
        finally:
            self.stop = True
            if clean:  # every thread has finished: the workers go back to the pool
                for w in workers:
                    w.state = None
                _give_back(workers)

    def _run_thread(self, s):
        """Runs the kernel for thread ``s`` of the current block (in a worker)."""
        _tls.s = s
        trace = self.trace
        if trace is not None:  # a debugger's breakpoints apply in the simulated threads too
            sys.settrace(trace)
        try:
            if self.errstate:
                with np.errstate(**self.errstate):
                    self.func(*self.args)
            else:
                self.func(*self.args)
        except _Abort:
            pass
        except BaseException as e:  # noqa: B036 - any failure of the kernel stops the launch
            with self.lock:
                if self.error is None:
                    self.error = (e, s.bid, s.tid)
                self._abort()
        finally:
            if trace is not None:
                sys.settrace(None)
            _tls.s = None
            self._exit(s)

    def _exit(self, s):
        with self.lock:
            self.live -= 1
            self.warp_live[s.warp] &= ~(1 << s.lane)
            if self.live == 0:
                self.done.release()
                return
            if not self.aborting:
                self._try_barrier()
                self._try_warp(s.warp)
                if self.am_pending[s.warp]:
                    self._try_activemask(s.warp)
                self._check_deadlock()

    # ---- failures ----------------------------------------------------------------------
    def _abort(self):
        """(Under the lock.) Releases every waiting thread, to unwind."""
        self.aborting = True
        waiting = list(self.barrier.values())
        waiting.extend(m[0] for m in self.mbar_waiters)
        self.mbar_waiters = []
        for ss in self.group_waiters.values():
            waiting.extend(ss)
        self.group_waiters = {}
        for w in self.warps:
            waiting.extend(a.state for a in w.values())
            w.clear()
        self.arrived = [0] * self.nwarps
        self.am_pending = [0] * self.nwarps
        self.at_barrier = [0] * self.nwarps
        self.barrier.clear()
        for t in waiting:
            t.result = _ABORTED
            t.gate.release()
        self.blocked = 0

    def _fail(self, exc):
        """(Under the lock.) A failure of the launch itself."""
        if self.error is None:
            self.error = (exc, None, None)
        self._abort()

    def _raise(self):
        e, bid, tid = self.error
        if bid is None:
            raise e
        line = None
        for fs in reversed(traceback.extract_tb(e.__traceback__)):
            if os.path.abspath(fs.filename) in _user_files:
                line = fs
                break
        if line is None and getattr(e, "_kjit_warp_site", None):  # failed in a warp operation's exchange
            line = traceback.FrameSummary(*e._kjit_warp_site, None)
        msg = str(e.args[0]) if len(e.args) == 1 else (str(e) if e.args else "")
        # Numba's words, as the compiled devices write them; the innermost
        # line of kernel code (a device function's, maybe) is the one named.
        text = _kjit.kernel_exception_text(self.kernel.__name__, line.filename if line else "",
                                           line.lineno if line else 0, tid, bid, msg)
        try:
            new = type(e)(text)
            if str(new) != text and not isinstance(e, KeyError):
                raise TypeError
        except Exception:
            new = None
        if new is None:  # an exception class that takes other arguments: this one, its message extended
            e.args = (text,) + tuple(e.args[1:])
            new = e
        try:
            new.block, new.thread = bid, tid
            new.lineno = line.lineno if line is not None else None
        except AttributeError:
            pass
        if new is e:
            raise e
        raise new from e

    def _describe(self, states):
        by_site = {}
        for s in states:
            by_site.setdefault((s.kind, s.site), []).append(s)
        parts = []
        for (kind, (fname, lineno)), ss in by_site.items():
            ids = ", ".join(_fmt3(s.tid) for s in ss[:4]) + (", ..." if len(ss) > 4 else "")
            parts.append(f"cuda.{kind}() at {fname}:{lineno} ({len(ss)} thread{'s' if len(ss) != 1 else ''}: {ids})")
        return "; ".join(parts)

    def _check_deadlock(self):
        """(Under the lock.) Every live thread waits, and none can go on."""
        if self.live == 0 or self.blocked < self.live or self.aborting:
            return
        waiting = list(self.barrier.values())
        waiting.extend(m[0] for m in self.mbar_waiters)
        for ss in self.group_waiters.values():
            waiting.extend(ss)
        for w in self.warps:
            waiting.extend(a.state for a in w.values())
        waiting.sort(key=lambda s: s.linear)
        self._fail(BarrierError(
            f"kernel '{self.kernel.__name__}', block {_fmt3(self.bid)}: every live thread of the block waits and "
            f"none can go on (a GPU would hang): {self._describe(waiting)}"))

    # ---- block barriers --------------------------------------------------------------
    def block_sync(self, s, kind, pred, site):
        if self.sequential:
            raise RuntimeError(f"kjit simulator: cuda.{kind}() was reached in a kernel run without threads")
        with self.lock:
            if self.aborting:
                raise _Abort
            s.kind, s.site, s.result = kind, site, pred
            self.barrier[s.linear] = s
            self.at_barrier[s.warp] |= 1 << s.lane
            self.blocked += 1
            self._try_barrier()
            if self.am_pending[s.warp]:
                self._try_activemask(s.warp)
            self._check_deadlock()
        s.gate.acquire()
        r = s.result
        if r is _ABORTED:
            raise _Abort
        return r

    def _try_barrier(self):
        if not self.barrier or len(self.barrier) != self.live:
            return
        waiting = list(self.barrier.values())
        sites = {(s.kind, s.site) for s in waiting}
        if len(sites) > 1:
            waiting.sort(key=lambda s: s.linear)
            self._fail(BarrierError(
                f"kernel '{self.kernel.__name__}', block {_fmt3(self.bid)}: the threads of the block wait at "
                f"different barriers (a GPU would hang or misbehave): {self._describe(waiting)}"))
            return
        kind = waiting[0].kind
        if kind == "syncthreads":
            r = None
        else:
            count = sum(1 for s in waiting if s.result)
            r = count if kind == "syncthreads_count" else int(count == len(waiting)) if kind == "syncthreads_and" \
                else int(count > 0)
        self.barrier.clear()
        self.at_barrier = [0] * self.nwarps
        self.blocked -= len(waiting)
        for s in waiting:
            s.result = r
            s.gate.release()

    # ---- mbarriers (hopper_sim.py) ---------------------------------------------------
    def mbarrier_update(self, fn, *args):
        """``fn(*args)`` changes an mbarrier: the threads whose phase it
        completed go on."""
        with self.lock:
            if self.aborting:
                raise _Abort
            fn(*args)
            keep = []
            for m in self.mbar_waiters:
                s, bars, i, parity = m
                if hopper_sim.phase_done(bars, i, parity):
                    self.blocked -= 1
                    s.result = None
                    s.gate.release()
                else:
                    keep.append(m)
            self.mbar_waiters = keep

    def warpgroup_sync(self, s, site):
        """cuda.wgmma.commit_group(): waits for the 128 threads of the
        warpgroup (the threads compute their parts of a product one by one;
        none may release a buffer another still reads)."""
        if self.sequential:
            raise RuntimeError("kjit simulator: cuda.wgmma.commit_group() was reached in a kernel run without "
                               "threads")
        g = s.linear // 128
        members = min(128, self.nthreads - 128 * g)
        with self.lock:
            if self.aborting:
                raise _Abort
            done = len(self.group_waiters.get(g, ())) + 1 == members
            must_wait = self._arrive(s, g, done, True, "wgmma.commit_group", site)
        if must_wait:
            self._await(s)

    def named_barrier(self, s, ident, count, wait, site):
        """cuda.named_barrier_sync/arrive(id, count): an arrival at barrier
        id of the block, whose phase ends when count threads have come;
        sync waits for that."""
        name = "named_barrier_sync" if wait else "named_barrier_arrive"
        if not 0 <= ident <= 15:
            raise RuntimeError(f"cuda.{name}(): the barrier is {ident}; a block has barriers 0 to 15")
        if count <= 0 or count % 32 or count > 1024:
            raise RuntimeError(f"cuda.{name}(): the thread count is {count}; it is a multiple of 32 (whole "
                               f"warps) up to 1024")
        if self.sequential:
            raise RuntimeError(f"kjit simulator: cuda.{name}() was reached in a kernel run without threads")
        with self.lock:
            if self.aborting:
                raise _Abort
            phase = self.named.setdefault(ident, [count, 0])
            if phase[0] != count:
                raise RuntimeError(f"cuda.{name}(): barrier {ident} is counting {phase[0]} threads; this thread "
                                   f"says {count}")
            phase[1] += 1
            done = phase[1] == count
            if done:
                del self.named[ident]
            must_wait = self._arrive(s, ("named", ident), done, wait, name, site)
        if must_wait:
            self._await(s)

    def _arrive(self, s, key, done, wait, kind, site):
        """(Under the lock.) An arrival of thread ``s`` at the counted
        barrier ``key`` of group_waiters: ``done`` (the last arrival of its
        phase) releases the waiting threads; otherwise, with ``wait``, ``s``
        joins them, and the caller waits (``_await``) once it has left the
        lock: returns whether it must."""
        if done:
            waiting = self.group_waiters.pop(key, [])
            self.blocked -= len(waiting)
            for t in waiting:
                t.result = None
                t.gate.release()
            return False
        if not wait:
            return False
        s.kind, s.site, s.result = kind, site, None
        self.group_waiters.setdefault(key, []).append(s)
        self.blocked += 1
        self._check_deadlock()
        return True

    @staticmethod
    def _await(s):
        s.gate.acquire()
        if s.result is _ABORTED:
            raise _Abort

    def mbarrier_wait(self, s, bars, i, parity, site):
        if self.sequential:
            raise RuntimeError("kjit simulator: cuda.mbarrier.wait() was reached in a kernel run without threads")
        with self.lock:
            if self.aborting:
                raise _Abort
            if hopper_sim.phase_done(bars, i, parity):
                return
            s.kind, s.site, s.result = "mbarrier.wait", site, None
            self.mbar_waiters.append((s, bars, i, parity))
            self.blocked += 1
            self._check_deadlock()
        s.gate.acquire()
        if s.result is _ABORTED:
            raise _Abort

    # ---- warps ---------------------------------------------------------------------
    def warp_op(self, s, kind, mask, value, arg, site):
        if self.sequential:
            raise RuntimeError(f"kjit simulator: cuda.{kind}() was reached in a kernel run without threads")
        with self.lock:
            if self.aborting:
                raise _Abort
            s.kind, s.site = kind, site
            w = s.warp
            bit = 1 << s.lane
            self.warps[w][s.lane] = _Arrival(s, kind, mask, value, arg, site)
            self.arrived[w] |= bit
            self.blocked += 1
            if kind == "activemask":
                self.am_pending[w] += 1
            # Nothing could go before this arrival: something can now only if
            # every lane this one exchanges with is here.
            elif not ((mask & self.warp_live[w]) | bit) & ~self.arrived[w]:
                self._try_warp(w)
            if self.am_pending[w]:
                self._try_activemask(w)
            self._check_deadlock()
        s.gate.acquire()
        r = s.result
        if r is _ABORTED:
            raise _Abort
        return r

    def _try_warp(self, w):
        pend = self.warps[w]
        if not pend:
            return
        live = self.warp_live[w]
        need = {lane: (a.mask & live) | (1 << lane) for lane, a in pend.items()}
        # The lanes that can go: every lane they exchange with has arrived and
        # can go too (a closed set), so no lane reads a value of an operation
        # that another lane has not reached.
        ready = self.arrived[w]
        for lane, a in pend.items():
            if a.kind == "activemask":
                ready &= ~(1 << lane)
        changed = True
        while changed:
            changed = False
            for lane in _bits(ready):
                if need[lane] & ~ready:
                    ready &= ~(1 << lane)
                    changed = True
        if not ready:
            return
        lanes = _bits(ready)
        for lane in lanes:
            kind = pend[lane].kind
            for l in _bits(need[lane]):
                if pend[l].kind != kind:
                    group = sorted((pend[x].state for x in _bits(need[lane])), key=lambda t: t.linear)
                    self._fail(BarrierError(
                        f"kernel '{self.kernel.__name__}', block {_fmt3(self.bid)}, warp {w}: the lanes of a warp "
                        f"operation are at different operations: {self._describe(group)}"))
                    return
        for lane in lanes:
            kind = pend[lane].kind
            if kind in _WHOLE_WARP_KINDS and need[lane] != 0xFFFFFFFF:
                self._fail(BarrierError(
                    f"kernel '{self.kernel.__name__}', block {_fmt3(self.bid)}, warp {w}: cuda.{kind}() is an "
                    f"operation of all 32 lanes of a warp, and lanes {_lanes_text(_bits(~need[lane] & 0xFFFFFFFF))} "
                    f"have returned or are not threads of the block (a GPU's result is undefined): "
                    f"{self._describe([pend[lane].state])}"))
                return
        cache = {}
        results = []
        for lane in lanes:
            try:
                results.append(self._warp_result(pend, lane, need[lane], cache))
            except Exception as e:  # noqa: BLE001 - the lane's operation fails: the launch fails with it
                if self.error is None:
                    e._kjit_warp_site = pend[lane].site  # (file, line) of the lane's call
                    self.error = (e, self.bid, pend[lane].state.tid)
                self._abort()
                return
        for lane, r in zip(lanes, results):
            a = pend.pop(lane)
            a.state.result = r
            a.state.gate.release()
        self.arrived[w] &= ~ready
        self.blocked -= len(lanes)

    @staticmethod
    def _warp_result(pend, lane, need, cache):
        a = pend[lane]
        kind = a.kind
        if kind == "syncwarp":
            return None
        if kind in ("all_sync", "any_sync", "eq_sync", "ballot_sync"):  # the same for the whole group
            key = (kind, need)
            r = cache.get(key)
            if r is None:
                r = cache[key] = _Launch._vote(pend, kind, need)
            return r
        if kind.startswith("shfl"):
            if kind == "shfl_sync":
                src = a.arg % 32
            elif kind == "shfl_up_sync":
                src = lane - a.arg
            elif kind == "shfl_down_sync":
                src = lane + a.arg
            else:
                src = lane ^ a.arg
            if 0 <= src < 32 and (need >> src) & 1:
                return pend[src].value
            return a.value
        if kind == "mma_sync":  # the product of the warp's fragments, computed once
            key = (kind, need)
            r = cache.get(key)
            if r is None:
                r = cache[key] = _mma_sim.mma_m16n8k16([pend[l].value for l in range(32)])
            return r[lane]
        if kind == "wgmma_a":  # wgmma's a in registers: the warp's 16 x 16 slice, for every lane
            key = (kind, need)
            r = cache.get(key)
            if r is None:
                r = cache[key] = hopper_sim.warp_slice([pend[l].value for l in range(32)])
            return r
        if kind == "ldmatrix":  # the rows the lanes supply, each read once, at the operation
            rows = cache.get((kind, need))
            if rows is None:
                _mma_sim.check_same_ldmatrix([pend[l].arg for l in range(32)])
                rows = cache[(kind, need)] = {}

            def row_of(l):
                r = rows.get(l)
                if r is None:
                    r = rows[l] = _mma_sim.read_row(pend[l].value)
                return r

            num, trans = a.arg
            return _mma_sim.ldmatrix(row_of, lane, num, trans)
        lanes = _bits(need)
        if kind == "match_any_sync":
            return _i32(sum(1 << l for l in lanes if _same(pend[l].value, a.value)))
        if kind == "match_all_sync":
            ok = all(_same(pend[l].value, a.value) for l in lanes)
            return (_i32(need) if ok else np.int32(0)), ok
        raise AssertionError(kind)

    @staticmethod
    def _vote(pend, kind, need):
        lanes = _bits(need)
        if kind == "all_sync":
            return all(pend[l].value for l in lanes)
        if kind == "any_sync":
            return any(pend[l].value for l in lanes)
        if kind == "eq_sync":
            return len({pend[l].value for l in lanes}) == 1
        return _i32(sum(1 << l for l in lanes if pend[l].value))

    def active_mask(self, s, site):
        """The lanes of the warp that reach this activemask() together: it
        waits until every live lane of the warp is at some warp operation or
        barrier (or has returned), and counts those at this call site."""
        if self.sequential:
            return np.uint32(self.full[s.warp])
        return self.warp_op(s, "activemask", 0, None, None, site)

    def _try_activemask(self, w):
        live = self.warp_live[w]
        if live & ~(self.arrived[w] | self.at_barrier[w]):
            return  # a lane of the warp is running: it may yet come here
        pend = self.warps[w]
        lanes = [lane for lane, a in pend.items() if a.kind == "activemask"]
        groups = {}
        for lane in lanes:
            site = pend[lane].site
            groups[site] = groups.get(site, 0) | (1 << lane)
        for lane in lanes:
            a = pend.pop(lane)
            a.state.result = np.uint32(groups[a.site])
            a.state.gate.release()
            self.arrived[w] &= ~(1 << lane)
        self.am_pending[w] -= len(lanes)
        self.blocked -= len(lanes)

    # ---- memory ----------------------------------------------------------------------
    def shared_array(self, s, site, shape, dtype):
        if shape == (0,):
            n = self.sharedmem // dtype.itemsize
            return self.dynshared[:n * dtype.itemsize].view(dtype)
        with self.lock:
            a = self.shared.get(site)
            if a is None or a.shape != shape or a.dtype != dtype:
                a = self.shared[site] = np.zeros(shape, dtype)
            return a

    def const_array(self, ary):
        with self.lock:
            c = self.consts.get(id(ary))
            if c is None or c[0] is not ary:
                copy = np.array(ary, copy=True)
                copy.flags.writeable = False
                c = self.consts[id(ary)] = (ary, copy)
            return c[1]


# ---- the worker threads ---------------------------------------------------------------------
class _Worker:
    """A Python thread that runs simulated GPU threads; kept in a pool
    between launches (creating threads is the slow part of a launch)."""

    __slots__ = ("gate", "state", "thread")

    def __init__(self):
        self.gate = threading.Lock()
        self.gate.acquire()
        self.state = None
        self.thread = threading.Thread(target=self._loop, daemon=True, name="kjit-sim worker")
        self.thread.start()

    def _loop(self):
        while True:
            self.gate.acquire()
            s = self.state
            if s is None or s.launch.stop:
                continue
            s.launch._run_thread(s)


_pool = []
_pool_lock = threading.Lock()


def _take_workers(n):
    with _pool_lock:
        k = min(n, len(_pool))
        got = _pool[len(_pool) - k:]
        del _pool[len(_pool) - k:]
    while len(got) < n:
        got.append(_Worker())
    return got


def _give_back(workers):
    with _pool_lock:
        _pool.extend(workers)
