"""Cooperative groups: ``g = cuda.cg.this_grid(); g.sync()``, a barrier for
every thread of the grid, as Numba has it.

- On NVIDIA GPUs the kernel is launched with cuLaunchCooperativeKernel (its
  module carries the ``kjit_grid_sync`` marker), so every block is resident;
  the barrier is a word of the driver's grid workspace (%envreg1:%envreg2).
  ``kernel.overloads[sig].max_cooperative_grid_blocks(blockdim)`` gives the
  largest grid (blocks per multiprocessor times multiprocessors).
- The CPU device runs every thread of such a launch at once, as fibers of
  one scheduler, up to ``_kjit.cpu_max_cooperative_threads`` threads; a
  block that returns while others wait at the grid barrier is reported (a
  GPU would hang).
- The simulator runs blocks one after another: it takes a grid barrier in
  a grid of one block and says so otherwise.
- AMD GPUs: refused with a located error (not yet).

The programs run on the CPU device, on the fake CUDA driver (the launch
path: a cooperative launch, its limit), and on the machine's own device
(the GPU when there is one)."""
import math
import subprocess

import numpy as np
import pytest
from conftest import find_ptxas

from kjit import cuda, errors, float64, int32, njit

# Numba's documentation example (docs/source/cuda/cooperative_groups.rst):
# each row of M depends on the previous one, reversed.
SEQUENTIAL_ROWS = """
import numpy as np
from kjit import cuda, int32

sig = (int32[:, ::1],)

@cuda.jit(sig)
def sequential_rows(M):
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    rows = M.shape[0]
    cols = M.shape[1]
    for row in range(1, rows):
        opposite = cols - col - 1
        M[row, col] = M[row - 1, opposite] + 1
        g.sync()

A = np.zeros((256, 256), dtype=np.int32)
blockdim = 32
griddim = A.shape[1] // blockdim
mb = sequential_rows.overloads[sig].max_cooperative_grid_blocks(blockdim)
assert mb >= griddim, mb
sequential_rows[griddim, blockdim](A)
expected = np.zeros_like(A)
for r in range(1, A.shape[0]):
    expected[r] = expected[r - 1][::-1] + 1
assert (A == expected).all()
print("ok", mb)
"""


@pytest.mark.parametrize("device", ["cpu", None], ids=["cpu", "default"])
def test_numbas_grid_sync_example(run_on_device, device):
    out = run_on_device(SEQUENTIAL_ROWS, device=device).stdout.split()
    assert out[0] == "ok"


# A grid-wide sum in two phases: each block's partial sum (shared memory and
# syncthreads), a grid barrier, then block 0 adds the partials; the grid
# barrier is passed twice, in a 2-d grid of 2-d blocks.
GRID_SUM = """
import numpy as np
from kjit import cuda, float64

@cuda.jit
def grid_sum(x, partial, out):
    g = cuda.cg.this_grid()
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    t = ty * cuda.blockDim.x + tx
    nt = cuda.blockDim.x * cuda.blockDim.y
    b = cuda.blockIdx.y * cuda.gridDim.x + cuda.blockIdx.x
    buf = cuda.shared.array(64, float64)
    i = b * nt + t
    buf[t] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    if t == 0:
        s = 0.0
        for k in range(nt):
            s += buf[k]
        partial[b] = s
    g.sync()
    if b == 0 and t == 0:
        s = 0.0
        for k in range(partial.size):
            s += partial[k]
        out[0] = s
    g.sync()
    if t == 0:
        out[1 + b] = out[0]          # every block sees the total after the second barrier

x = np.arange(1000, dtype=np.float64)
grid, block = (4, 4), (8, 8)
partial = np.zeros(16)
out = np.zeros(17)
grid_sum[grid, block](x, partial, out)
assert out[0] == x.sum(), out[0]
assert (out[1:] == x.sum()).all(), out
print("ok")
"""


def test_a_grid_wide_sum_with_two_grid_barriers(run_on_device):
    assert run_on_device(GRID_SUM, device="cpu").stdout.strip() == "ok"


# Many grid barriers in a full cooperative grid: after each, every thread
# must see the arrivals of every thread of the grid.
STRESS = """
import numpy as np
from kjit import cuda, int32

@cuda.jit((int32[::1], int32[::1]))
def rounds(count, bad):
    g = cuda.cg.this_grid()
    n = cuda.gridsize(1)
    for it in range(count.size):
        cuda.atomic.add(count, it, 1)
        g.sync()
        if count[it] != n:
            bad[0] = 1

threads = 128
blocks = min(rounds.overloads[(int32[::1], int32[::1])].max_cooperative_grid_blocks(threads), 64)
count, bad = np.zeros(50, np.int32), np.zeros(1, np.int32)
rounds[blocks, threads](count, bad)
assert (count == blocks * threads).all() and bad[0] == 0, (count, bad)
print("ok", blocks)
"""


@pytest.mark.parametrize("device", ["cpu", None], ids=["cpu", "default"])
def test_fifty_grid_barriers_in_a_full_grid(run_on_device, device):
    assert run_on_device(STRESS, device=device).stdout.split()[0] == "ok"

DIVERGENT = """
import numpy as np
from kjit import cuda

@cuda.jit
def diverge(a):
    i = cuda.grid(1)
    if cuda.blockIdx.x == 1:
        return
    cuda.cg.this_grid().sync()
    a[i] = 1

try:
    diverge[4, 8](np.zeros(32))
except RuntimeError as e:
    print(e)
"""


def test_a_block_that_returns_before_a_grid_barrier_is_reported(run_on_device):
    out = run_on_device(DIVERGENT, device="cpu").stdout
    assert "divergent grid barrier: block (0, 0, 0) waits at grid.sync() at " in out
    assert "and block (1, 0, 0) has returned; every block must reach each grid.sync()" in out
    assert "(in kernel 'diverge')" in out


TOO_LARGE = """
import numpy as np
from kjit import _kjit, cuda, int32

@cuda.jit((int32[::1],))
def k(a):
    cuda.cg.this_grid().sync()
    a[cuda.grid(1)] = 1

limit = _kjit.cpu_max_cooperative_threads
assert k.overloads[(int32[::1],)].max_cooperative_grid_blocks(128) == limit // 128
assert k.overloads[(int32[::1],)].max_cooperative_grid_blocks((8, 16)) == limit // 128
a = np.zeros(limit + 128, np.int32)
try:
    k[limit // 128 + 1, 128](a)
except RuntimeError as e:
    print(e)
k[limit // 128, 128](a)
assert a[:limit].all() and not a[limit:].any()
"""


def test_the_cpu_device_refuses_a_cooperative_grid_it_cannot_hold(run_on_device):
    out = run_on_device(TOO_LARGE, device="cpu").stdout
    assert "cooperative launch too large: " in out
    assert "kernel.max_cooperative_grid_blocks(blockdim) gives the largest grid" in out


FAKE_LAUNCH = """
import numpy as np
from kjit import cuda, int32

@cuda.jit
def plain(a):
    a[cuda.grid(1)] = 1

@cuda.jit((int32[::1],))
def coop(a):
    g = cuda.cg.this_grid()
    g.sync()
    a[cuda.grid(1)] = 1

a = np.zeros(256 * 300, np.int32)
plain[2, 256](a)
print("blocks", coop.overloads[(int32[::1],)].max_cooperative_grid_blocks(256))
coop[2, 256](a)
try:
    coop[300, 256](a)
except Exception as e:
    print(type(e).__name__, e)
"""


def test_a_grid_barrier_makes_the_launch_cooperative(run_on_device, fake_driver, tmp_path):
    # The fake driver has 132 multiprocessors and two resident blocks of 256
    # threads on each; it refuses a cooperative grid larger than that.
    log = tmp_path / "calls.log"
    r = run_on_device(FAKE_LAUNCH, device="cuda",
                      env={"KJIT_CUDA_DRIVER": fake_driver, "FAKE_CUDA_LOG": str(log)})
    assert "blocks 264" in r.stdout
    assert "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE" in r.stdout, r.stdout
    assert "kernel 'coop' calls grid.sync(), so all its blocks must be resident at once, and a grid of 300 blocks of 256 threads" in r.stdout
    calls = [c.split()[0] for c in log.read_text().splitlines()]
    assert calls.count("cuLaunchKernel") == 1, calls  # `plain` only
    assert calls.count("cuLaunchCooperativeKernel") == 2, calls


def _sequential_rows(M):
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    for row in range(1, M.shape[0]):
        M[row, col] = M[row - 1, M.shape[1] - col - 1] + 1
        g.sync()


@pytest.mark.parametrize("cc", [(7, 5), (8, 0), (8, 6), (9, 0)])
def test_the_ptx_of_a_grid_barrier(cc, tmp_path):
    ptx, _ = cuda.compile_ptx(_sequential_rows, (int32[:, ::1],), cc=cc)
    # The marker the runtime reads to launch cooperatively, the grid
    # workspace's address, the arrival and the block barriers around it.
    assert ".visible .global .align 4 .u32 kjit_grid_sync = 1;" in ptx
    assert "%envreg1;" in ptx and "%envreg2;" in ptx
    assert "atom.add.u32" in ptx
    assert ptx.count("bar.sync \t0;") >= 2 or ptx.count("barrier.sync \t0;") >= 2, ptx
    ptxas = find_ptxas()
    if ptxas is None:
        pytest.skip("ptxas is not installed: the PTX was not assembled")
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    r = subprocess.run([ptxas, f"-arch=sm_{cc[0]}{cc[1]}", str(path), "-o", str(tmp_path / "k.o")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_a_kernel_without_a_grid_barrier_has_no_marker():
    def plain(a):
        cuda.syncthreads()
        a[cuda.grid(1)] = 1

    ptx, _ = cuda.compile_ptx(plain, (int32[::1],), cc=(9, 0))
    assert "kjit_grid_sync" not in ptx and "envreg" not in ptx


def test_amd_gpus_refuse_a_grid_barrier_where_it_is():
    with pytest.raises(errors.UnsupportedError) as ei:
        cuda.compile_amdgcn(_sequential_rows, (int32[:, ::1],), arch="gfx90a")
    text = str(ei.value)
    assert "grid.sync() (cooperative groups) is not supported on AMD GPUs yet" in text
    assert f"{__file__}:" in text


SIMULATED = """
import numpy as np
from kjit import cuda

@cuda.jit
def k(a, out):
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    a[i] = i
    g.sync()
    out[i] = a[(i + 1) % a.size]

a, out = np.zeros(8), np.zeros(8)
k[1, 8](a, out)
assert out.tolist() == [1, 2, 3, 4, 5, 6, 7, 0], out
try:
    k[2, 4](a, out)
except NotImplementedError as e:
    print(e)
"""


def test_the_simulator_takes_a_grid_barrier_in_one_block(run_on_device):
    out = run_on_device(SIMULATED, device="sim").stdout
    assert "kjit simulator: grid.sync() in a grid of 2 blocks" in out
    assert "the CPU device (KJIT_DEVICE=cpu) runs cooperative kernels" in out


def test_grid_sync_outside_a_kernel_says_where_it_can_be_used():
    with pytest.raises(RuntimeError, match="can only be used inside a @cuda.jit kernel"):
        cuda.cg.this_grid()


# Locals assigned a compile-time value once (Numba lets a variable name a
# function, a module or a dtype): what makes `g = cuda.cg.this_grid()` work.
def test_a_local_may_name_a_function_a_module_or_a_dtype():
    @njit
    def f(x):
        root = math.sqrt
        m = math
        dt = np.float32
        return root(x) + m.floor(2.5) + dt(0.25)

    assert f(16.0) == 6.25

    @cuda.jit
    def k(out):
        dt = float64
        buf = cuda.local.array(2, dt)
        buf[0] = 1.5
        out[0] = buf[0]

    out = np.zeros(1)
    k[1, 1](out)
    assert out[0] == 1.5


def test_a_local_assigned_two_functions_is_still_refused():
    @njit
    def f(x, flag):
        g = math.sin
        if flag:
            g = math.cos
        return g(x)

    with pytest.raises(errors.TypingError, match="it has no run-time value"):
        f(1.0, True)


def _sync_with_an_argument(a):
    cuda.cg.this_grid().sync(2)


def _this_grid_with_an_argument(a):
    cuda.cg.this_grid(1).sync()


def _no_such_method(a):
    g = cuda.cg.this_grid()
    g.wait()


def _no_such_group(a):
    cuda.cg.this_thread_block().sync()


@pytest.mark.parametrize("fn, exc, message", [
    (_sync_with_an_argument, errors.TypingError, "cuda.cg.this_grid().sync() takes 0 arguments (1 given)"),
    (_this_grid_with_an_argument, errors.TypingError, "cuda.cg.this_grid() takes 0 arguments (1 given)"),
    (_no_such_method, errors.UnsupportedError, "cuda.cg.grid_group.wait() is not supported in kernels yet"),
    (_no_such_group, errors.UnsupportedError, "cuda.cg.this_thread_block() is not supported in kernels yet"),
], ids=["sync-argument", "this_grid-argument", "no-such-method", "no-such-group"])
def test_misuse_is_a_located_error(fn, exc, message):
    with pytest.raises(exc) as ei:
        cuda.jit((int32[::1],))(fn)
    assert message in str(ei.value)
    assert f"{__file__}:" in str(ei.value)


def test_a_grid_barrier_in_host_code_is_refused_where_it_is():
    @njit
    def host(x):
        cuda.cg.this_grid().sync()
        return x

    with pytest.raises(errors.UnsupportedError,
                       match="cuda.cg.this_grid\\(\\) is only available in @cuda.jit kernels"):
        host(1)


def test_max_cooperative_grid_blocks_takes_a_positive_block():
    @cuda.jit((int32[::1],))
    def k(a):
        cuda.cg.this_grid().sync()

    for bad in (0, -1, (0, 2)):
        with pytest.raises(ValueError, match="blockdim must be positive"):
            k.overloads[(int32[::1],)].max_cooperative_grid_blocks(bad)


def test_a_local_naming_a_bound_method_is_refused():
    # A method value does not hold its object: `c = z.conjugate; c(w)` would
    # call it on nothing (Python calls it on z); kjit refuses it where it is.
    @njit
    def f(z, w):
        c = z.conjugate
        return c(w)

    with pytest.raises(errors.TypingError) as ei:
        f(1 + 2j, 3 + 4j)
    assert "cannot assign Function(number.conjugate) to variable 'c': it has no run-time value" in str(ei.value)


SHARED_LIMIT = """
import numpy as np
from kjit import _kjit, cuda, float32

@cuda.jit((float32[::1],))
def big(a):
    s = cuda.shared.array(50000, float32)     # 200,000 bytes a block
    s[cuda.threadIdx.x] = 1
    cuda.cg.this_grid().sync()
    a[cuda.blockIdx.x] = s[0]

k = big.overloads[(float32[::1],)]
limit = _kjit.cpu_max_cooperative_shared_bytes
assert k.max_cooperative_grid_blocks(1) == limit // 200000, k.max_cooperative_grid_blocks(1)
assert k.max_cooperative_grid_blocks(1, 100000) == limit // 300032
a = np.zeros(k.max_cooperative_grid_blocks(1), np.float32)
big[a.size, 1](a)
assert (a == 1).all()
try:
    big[a.size + 1, 1](np.zeros(a.size + 1, np.float32))
except RuntimeError as e:
    print(e)
"""


def test_the_cpu_device_bounds_a_cooperative_grids_shared_memory(run_on_device):
    out = run_on_device(SHARED_LIMIT, device="cpu").stdout
    assert "cooperative launch too large: " in out and "bytes of shared memory" in out
