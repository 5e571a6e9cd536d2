"""The CUDA runtime: devices, device arrays, launches, streams, events,
interop, errors and cuda.reduce. The tests marked `gpu` run where a CUDA GPU
is present (tools/gpu/check.sh on the GPU machine) and are skipped, and
counted as skipped, elsewhere."""
import math
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

from kjit import _kjit, cuda, errors, float32, int32

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/python
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "gpu"))
import seed_kernels as seeds  # noqa: E402

gpu = pytest.mark.skipif(not _kjit.cuda_available(), reason="no CUDA GPU here")
rng = np.random.default_rng(1)


# ---- without a driver -----------------------------------------------------------------

def test_missing_driver_is_a_clear_error(run_on_device):
    r = run_on_device("""
        from kjit import cuda
        import numpy as np
        print("available", cuda.is_available())
        try:
            cuda.to_device(np.ones(4))
        except cuda.CudaSupportError as e:
            print("error:", e)
        @cuda.jit
        def k(x):
            x[0] = 1
        try:
            k[1, 1](np.zeros(1))
        except cuda.CudaSupportError as e:
            print("launch:", e)
        print("still running")
    """, device="cuda", env={"KJIT_CUDA_DRIVER": "/nonexistent/libcuda.so.1"})
    assert r.returncode == 0, r.stderr
    assert "available False" in r.stdout
    assert "error: kjit: no CUDA GPU: the CUDA driver (/nonexistent/libcuda.so.1) could not be loaded" in r.stdout
    assert "launch: cannot launch kernel 'k'" in r.stdout
    assert "still running" in r.stdout


# ---- devices ---------------------------------------------------------------------------

@gpu
def test_devices():
    assert len(cuda.gpus) >= 1
    d = cuda.get_current_device()
    assert d.id == 0 and isinstance(d.name, str) and d.name
    assert d.compute_capability >= (3, 5)
    assert d.MAX_THREADS_PER_BLOCK == 1024 and d.WARP_SIZE == 32
    assert cuda.select_device(0).id == 0
    with cuda.gpus[0]:
        assert cuda.gpus.current.id == 0
    free, total = cuda.current_context().get_memory_info()
    assert 0 < free <= total
    assert cuda.detect() is True


# ---- device arrays ----------------------------------------------------------------------

@gpu
def test_to_device_and_back():
    a = rng.random((7, 5))
    d = cuda.to_device(a)
    assert d.shape == (7, 5) and d.dtype == np.float64 and d.size == 35 and d.nbytes == 280
    assert d.strides == a.strides and d.is_c_contiguous() and not d.is_f_contiguous()
    np.testing.assert_array_equal(d.copy_to_host(), a)
    out = np.empty_like(a)
    assert d.copy_to_host(out) is out
    np.testing.assert_array_equal(out, a)
    f = np.asfortranarray(a)
    df = cuda.to_device(f)
    assert df.is_f_contiguous()
    np.testing.assert_array_equal(df.copy_to_host(), a)


@gpu
def test_views_and_element_access():
    a = np.arange(60, dtype=np.int32).reshape(6, 10)
    d = cuda.to_device(a)
    np.testing.assert_array_equal(d[2:5, 1:9:3].copy_to_host(), a[2:5, 1:9:3])
    np.testing.assert_array_equal(d[::-1].copy_to_host(), a[::-1])
    np.testing.assert_array_equal(d[3].copy_to_host(), a[3])
    np.testing.assert_array_equal(d[:, 4].copy_to_host(), a[:, 4])
    assert d[4, 7] == a[4, 7] and d[-1, -1] == 59
    np.testing.assert_array_equal(d.reshape(10, 6).copy_to_host(), a.reshape(10, 6))
    np.testing.assert_array_equal(d.reshape(-1).copy_to_host(), a.ravel())
    np.testing.assert_array_equal(d.ravel().copy_to_host(), a.ravel())
    np.testing.assert_array_equal(d.T.copy_to_host(), a.T)
    with pytest.raises(NotImplementedError):
        d[::2, :5].reshape(15)
    with pytest.raises(TypeError, match="fancy indexing"):
        d[[0, 1]]
    d[1:3, 2:4] = 0
    a[1:3, 2:4] = 0
    d[0] = np.arange(10)
    a[0] = np.arange(10)
    d[5, 5] = -7
    a[5, 5] = -7
    np.testing.assert_array_equal(d.copy_to_host(), a)
    d2 = cuda.device_array_like(a)
    d2.copy_to_device(a)
    np.testing.assert_array_equal(d2.copy_to_host(), a)
    e = cuda.device_array((3, 4), np.float32, order="F")
    assert e.is_f_contiguous() and e.strides == (4, 12)


@gpu
def test_no_leak_over_100000_allocations():
    cuda.synchronize()
    free0, _ = cuda.current_context().get_memory_info()
    block = np.zeros(1 << 16, np.uint8)  # 64 KiB each
    for _ in range(100_000):
        d = cuda.device_array(block.shape, block.dtype)
        del d
    free1, _ = cuda.current_context().get_memory_info()
    # 100,000 x 64 KiB is 6.5 GB if leaked; allow 64 MiB of noise.
    assert free0 - free1 < 64 << 20, (free0, free1)


# ---- launches ------------------------------------------------------------------------------

@gpu
def test_seed_kernels():
    n = 1 << 20
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    dx, dy, dout = cuda.to_device(x), cuda.to_device(y), cuda.device_array(n, np.float32)
    seeds.add_kernel[128, 256](dx, dy, dout)
    np.testing.assert_allclose(dout.copy_to_host(), x + y)
    seeds.saxpy[(n + 255) // 256, 256](np.float32(2.5), dx, dy, dout)
    np.testing.assert_allclose(dout.copy_to_host(), 2.5 * x.astype(np.float64) + y, rtol=1e-6)

    a2 = rng.random((300, 200), dtype=np.float32)
    d2 = cuda.to_device(a2)
    seeds.increment_a_2D_array[((300 + 15) // 16, (200 + 15) // 16), (16, 16)](d2)
    np.testing.assert_allclose(d2.copy_to_host(), a2 + 1)

    M, K, N = 300, 200, 100
    A, B = rng.random((M, K), dtype=np.float32), rng.random((K, N), dtype=np.float32)
    dC = cuda.device_array((M, N), np.float32)
    g = max((N + 15) // 16, (M + 15) // 16, (K + 15) // 16)
    seeds.fast_matmul[(g, g), (16, 16)](cuda.to_device(A), cuda.to_device(B), dC)
    np.testing.assert_allclose(dC.copy_to_host(), A.astype(np.float64) @ B, rtol=1e-4, atol=1e-4)

    vals = rng.random(n, dtype=np.float32) * 10
    hist = cuda.to_device(np.zeros(16, np.int32))
    seeds.histogram[128, 256](cuda.to_device(vals), np.float32(0), np.float32(10), hist)
    want = np.histogram(vals, bins=16, range=(0, 10))[0]
    assert np.abs(hist.copy_to_host() - want).max() <= 1

    v = rng.random(256 * 64, dtype=np.float32)
    total = cuda.to_device(np.zeros(1, np.float32))
    seeds.block_sum[64, 256](cuda.to_device(v), total)
    assert abs(total.copy_to_host()[0] - v.astype(np.float64).sum()) < 1e-3 * v.size

    sx = rng.random(4096, dtype=np.float32)
    sout = cuda.device_array(4096, np.float32)
    seeds.sinexp[16, 256](cuda.to_device(sx), sout)
    ref = sx.astype(np.float64)
    for _ in range(64):
        ref = np.sin(ref) * np.exp(-ref * np.float32(0.01))
    np.testing.assert_allclose(sout.copy_to_host(), ref, rtol=1e-4, atol=1e-5)

    wa = rng.integers(-5, 5, 1024).astype(np.int32)
    wout = cuda.device_array(1024, np.int32)
    seeds.warp_ops[4, 256](cuda.to_device(wa), wout)
    exp = np.empty(1024, np.int64)
    for w in range(0, 1024, 32):
        lanes = wa[w:w + 32].astype(np.int64)
        vv = lanes + np.where(np.arange(32) < 16, lanes[(np.arange(32) + 16) % 32], lanes)
        exp[w:w + 32] = vv + int(np.sum(vv > 0)) + np.arange(32)
    np.testing.assert_array_equal(wout.copy_to_host(), exp)


@cuda.jit
def scale(a, k):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] = a[i] * k


@gpu
def test_numpy_arguments_are_copied_in_and_out():
    a = np.arange(100, dtype=np.float64)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        scale[1, 128](a, 3)
    assert any(issubclass(x.category, errors.PerformanceWarning) and "copied to the device" in str(x.message)
               for x in w)
    np.testing.assert_array_equal(a, np.arange(100) * 3.0)
    b = np.arange(200, dtype=np.float64)[::2]  # not contiguous
    scale[1, 128](b, 2)
    np.testing.assert_array_equal(b, np.arange(0, 200, 2) * 2.0)


@gpu
def test_scalars_and_eager_signatures():
    @cuda.jit
    def put(out, a, b, c):
        out[0] = a
        out[1] = b
        out[2] = c

    out = cuda.device_array(3, np.float64)
    put[1, 1](out, 1.5, 7, True)
    np.testing.assert_array_equal(out.copy_to_host(), [1.5, 7.0, 1.0])

    @cuda.jit("void(float32[::1], float32)")
    def fill(x, v):
        i = cuda.grid(1)
        if i < x.shape[0]:
            x[i] = v

    d = cuda.device_array(64, np.float32)
    fill[1, 64](d, 0.1)  # a Python float, passed as the declared float32
    assert (d.copy_to_host() == np.float32(0.1)).all()
    with pytest.raises(TypeError, match="No matching definition"):
        fill[1, 64](cuda.device_array(4, np.float64), 1.0)


@gpu
def test_dynamic_shared_memory_and_forall():
    @cuda.jit
    def reverse(a):
        buf = cuda.shared.array(0, dtype=float32)
        t = cuda.threadIdx.x
        buf[t] = a[t]
        cuda.syncthreads()
        a[t] = buf[cuda.blockDim.x - 1 - t]

    a = np.arange(256, dtype=np.float32)
    d = cuda.to_device(a)
    reverse[1, 256, 0, 256 * 4](d)
    np.testing.assert_array_equal(d.copy_to_host(), a[::-1])
    x = cuda.to_device(np.ones(1000))
    scale.forall(1000)(x, 5.0)
    assert (x.copy_to_host() == 5.0).all()


# ---- streams, events, host memory ------------------------------------------------------------

@gpu
def test_streams_and_events():
    s = cuda.stream()
    a = np.arange(1 << 20, dtype=np.float64)
    d = cuda.to_device(a, stream=s)
    start, end = cuda.event(), cuda.event()
    start.record(s)
    scale[(a.size + 255) // 256, 256, s](d, 2.0)
    end.record(s)
    end.synchronize()
    assert cuda.event_elapsed_time(start, end) > 0
    with s.auto_synchronize():
        out = d.copy_to_host(stream=s)
    np.testing.assert_array_equal(out, a * 2)
    assert s.query() is True
    ev = cuda.event(timing=False)
    ev.record(s)
    ev.wait(cuda.default_stream())
    ev.synchronize()
    assert ev.query()
    cuda.synchronize()


@gpu
def test_pinned_mapped_managed():
    p = cuda.pinned_array((4, 4), np.float32)
    p[:] = 2
    d = cuda.to_device(p)
    np.testing.assert_array_equal(d.copy_to_host(), p)
    m = cuda.mapped_array(1000, np.float64)
    m[:] = 1
    scale[4, 256](m, 4.0)  # the kernel writes host memory directly
    cuda.synchronize()
    assert (m == 4.0).all()
    g = cuda.managed_array(1000, np.float64)
    g[:] = 3
    scale[4, 256](g, 2.0)
    cuda.synchronize()
    assert (g == 6.0).all()
    h = np.ones(1000)
    with cuda.pinned(h):
        dh = cuda.to_device(h)
    assert (dh.copy_to_host() == 1).all()


# ---- interop ----------------------------------------------------------------------------------

@gpu
def test_cupy_arrays_in_place():
    cp = pytest.importorskip("cupy")
    x = cp.arange(1000, dtype=cp.float64)
    scale[4, 256](x, 2.0)  # no copy: CuPy's memory, checked by CuPy
    assert bool((x == cp.arange(1000, dtype=cp.float64) * 2).all())
    d = cuda.to_device(np.arange(10, dtype=np.float32))
    c = cp.asarray(d)  # kjit exports __cuda_array_interface__
    assert c.sum().item() == 45
    c2 = cp.from_dlpack(d)
    c2 += 1
    np.testing.assert_array_equal(d.copy_to_host(), np.arange(10) + 1)
    v = cuda.as_cuda_array(x)
    assert v.shape == (1000,) and v[3] == 6.0


@gpu
def test_torch_tensors_in_place():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    t = torch.arange(1000, dtype=torch.float64, device="cuda")
    scale[4, 256](t, 3.0)
    torch.cuda.synchronize()
    assert torch.equal(t, torch.arange(1000, dtype=torch.float64, device="cuda") * 3)
    t2 = torch.ones(64, dtype=torch.float32, device="cuda")
    v = cuda.from_dlpack(t2)
    scale[1, 64](v, np.float32(5.0))  # float32 throughout: no promotion warning
    cuda.synchronize()
    assert torch.equal(t2, torch.full((64,), 5.0, device="cuda"))
    back = torch.from_dlpack(cuda.to_device(np.arange(8, dtype=np.int32)))
    assert back.sum().item() == 28


# ---- errors ---------------------------------------------------------------------------------

def _assert_launches_after():
    a = cuda.to_device(np.ones(64))
    scale[1, 64](a, 2.0)
    assert (a.copy_to_host() == 2.0).all()


@gpu
def test_too_many_threads_per_block():
    a = cuda.to_device(np.ones(4096))
    with pytest.raises(cuda.LaunchConfigError, match=r"kernel 'scale' on .*2048 threads along x is more than"):
        scale[2, 2048](a, 2.0)
    with pytest.raises(ValueError, match="at least 1"):
        scale[0, 32](a, 2.0)
    _assert_launches_after()


# A kernel fault costs the process its CUDA context, and CUDA (driver 580,
# H100) keeps the error for the rest of the process even after kjit resets
# the primary context: these run in a fresh Python each, which then checks
# that further GPU calls raise a clear error and the process goes on.
AFTER = """
try:
    a = cuda.to_device(np.ones(64))
    scale[1, 64](a, 2.0)
    print("after:", a.copy_to_host().sum())
except cuda.CudaDriverError as e:
    print("after refused:", e)
print("still running")
"""
PRELUDE = """
import sys
import numpy as np
from kjit import cuda
sys.path.insert(0, %r)
import seed_kernels as seeds

@cuda.jit
def scale(a, k):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] = a[i] * k
""" % os.path.join(ROOT, "tools", "gpu")


@gpu
def test_boundscheck_error_names_the_line_and_thread(run_on_device):
    r = run_on_device(PRELUDE + """
d_a, d_out = cuda.to_device(np.zeros(1000, np.float32)), cuda.device_array(1000, np.float32)
try:
    seeds.checked_copy[4, 256](d_a, d_out, 7)
    cuda.synchronize()
except IndexError as e:
    print("IndexError:", e)
""" + AFTER, device="cuda")
    assert r.returncode == 0, r.stderr
    line = next(i + 1 for i, t in enumerate(open(seeds.__file__)) if "out[i] = a[i + k]" in t)
    assert f"seed_kernels.py, line {line}, " in r.stdout and "In function 'checked_copy'" in r.stdout, r.stdout
    assert "out of bounds for axis 0 with size 1000" in r.stdout and " tid=[" in r.stdout
    # The failing threads returned (no trap): the context goes on.
    assert "after: 128.0" in r.stdout and "still running" in r.stdout, r.stdout


@gpu
def test_illegal_address_names_the_kernel(run_on_device):
    r = run_on_device(PRELUDE + """
bogus = cuda.DeviceNDArray((1000,), (8,), np.float64, _ptr=0x10)
old = cuda.to_device(np.ones(8))
try:
    scale[4, 256](bogus, 2.0)
    cuda.synchronize()
except cuda.CudaDriverError as e:
    print("CudaDriverError:", e.name, e)
try:
    scale[1, 8](old, 2.0)
except ValueError as e:
    print("refused:", e)
""" + AFTER, device="cuda")
    assert r.returncode == 0, r.stderr
    assert "CudaDriverError: CUDA_ERROR_ILLEGAL_ADDRESS kernel 'scale' failed" in r.stdout, r.stdout
    assert "refused: argument 1 of kernel 'scale' is a device array of a CUDA context that was lost" in r.stdout
    assert "after refused: CUDA gives this process no new context" in r.stdout and "still running" in r.stdout


# ---- reductions and the disk cache ------------------------------------------------------------

@gpu
def test_reduce():
    sum_reduce = cuda.reduce(lambda a, b: a + b)
    x = rng.random(1 << 24, dtype=np.float32)
    got = sum_reduce(cuda.to_device(x))
    assert abs(got - x.astype(np.float64).sum()) < 1e-4 * x.size
    assert sum_reduce(np.arange(10, dtype=np.int64)) == 45
    assert sum_reduce(np.arange(10, dtype=np.int64), init=5) == 50
    assert sum_reduce(np.arange(3, dtype=np.int32)) == 3
    assert sum_reduce(np.zeros(0, np.float64), init=2.0) == 2.0

    @cuda.jit(device=True)
    def bigger(a, b):
        return a if a > b else b

    max_reduce = cuda.reduce(bigger)
    y = rng.standard_normal(100_003)
    assert max_reduce(y, init=-np.inf) == y.max()
    res = cuda.device_array(1, np.float64)
    max_reduce(cuda.to_device(y), res=res, init=-np.inf)
    assert res.copy_to_host()[0] == y.max()


@gpu
def test_bad_ptx_is_an_error_with_the_jit_log():
    bad = b".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tbogus.u32 %r1;\n}\n"
    with pytest.raises(cuda.CudaDriverError, match=r"(?s)compiling the PTX of kernel 'k' failed.*JIT log:.*bogus"):
        _kjit.cuda_load_ptx(bad.decode(), "k", "k")


@gpu
def test_disk_cache_keeps_the_kernel(tmp_path):
    src = tmp_path / "cached_kernel.py"
    src.write_text(textwrap.dedent("""
        import numpy as np
        from kjit import cuda

        @cuda.jit(cache=True)
        def double(a):
            i = cuda.grid(1)
            if i < a.shape[0]:
                a[i] *= 2

        d = cuda.to_device(np.arange(10.0))
        double[1, 32](d)
        print(d.copy_to_host().sum(), "hits", double._dispatcher._cache_hits())
    """))
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"), KJIT_CACHE_DIR=str(tmp_path / "c"))
    r1 = subprocess.run([sys.executable, str(src)], capture_output=True, text=True, env=env)
    assert r1.returncode == 0 and "90.0 hits 0" in r1.stdout, r1.stderr
    files = os.listdir(tmp_path / "c")
    assert len(files) == 1 and files[0].startswith("double-"), files
    r2 = subprocess.run([sys.executable, str(src)], capture_output=True, text=True, env=env)
    assert r2.returncode == 0 and "90.0 hits 1" in r2.stdout, r2.stderr
