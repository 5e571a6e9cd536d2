"""wgmma on 8-bit floats (sm_90a's k32 products of float8_e4m3fn and
float8_e5m2, either times either, float32 accumulation): tiles of 128
values a row loaded by TMA, on the CPU device, the simulator and (where
there is one) the GPU against NumPy; the PTX assembles; a transposed or
register operand is a located error (the hardware has them for 16-bit types
only).
"""
import shutil
import subprocess

import pytest

from kjit import cuda, errors

from conftest import assemble, find_ptxas

DEVICES = ["cpu", "sim"] + (["cuda"] if shutil.which("nvidia-smi") else [])

# integer-valued inputs of magnitude <= 4 (exact in both formats); sums of
# 128 products stay exact in float32
PRODUCT = r'''
import numpy as np, kjit
from kjit import cuda, uint64, float32

def make(ta_dt, tb_dt):
    @cuda.jit
    def prod(tma, tmb, out):
        sa = cuda.shared.array((64, 128), ta_dt)
        sb = cuda.shared.array((64, 128), tb_dt)
        bars = cuda.shared.array(1, uint64)
        if cuda.threadIdx.x == 0:
            cuda.mbarrier.init(bars, 0, 1)
            cuda.fence_mbarrier_init()
        cuda.syncthreads()
        if cuda.threadIdx.x == 0:
            cuda.mbarrier.arrive_expect_tx(bars, 0, 2 * 64 * 128)
            cuda.tma.load(sa, tma, (0, 0), bars, 0)
            cuda.tma.load(sb, tmb, (0, 0), bars, 0)
        cuda.mbarrier.wait(bars, 0, 0)
        cuda.wgmma.fence()
        acc = cuda.wgmma.mma_async(cuda.wgmma.zeros(64), sa, sb, 0)
        for k in range(1, 4):
            acc = cuda.wgmma.mma_async(acc, sa, sb, k)
        cuda.wgmma.commit_group()
        acc = cuda.wgmma.wait_group(0, acc)
        cuda.wgmma.store(out, (0, 0), acc)
    return prod

rng = np.random.default_rng(5)
a = rng.integers(-4, 5, (64, 128)).astype(np.float64)
b = rng.integers(-4, 5, (64, 128)).astype(np.float64)
for na, nb in (("float8_e4m3fn", "float8_e4m3fn"), ("float8_e4m3fn", "float8_e5m2"), ("float8_e5m2", "float8_e5m2")):
    da = cuda.to_device(kjit.to_float8(a, na)); db = cuda.to_device(kjit.to_float8(b, nb))
    out = cuda.device_array((64, 64), np.float32)
    ma = cuda.make_tensor_map(da, (64, 128), swizzle=128); mb = cuda.make_tensor_map(db, (64, 128), swizzle=128)
    make(getattr(kjit, na), getattr(kjit, nb))[1, 128](ma, mb, out)
    assert np.array_equal(out.copy_to_host(), a @ b.T), (na, nb)


class TorchFloat8:
    """What a PyTorch float8 tensor shows: data_ptr(), stride() in elements,
    a dtype printed "torch.float8_...", and a __cuda_array_interface__ that
    fails (PyTorch has no typestr for it)."""
    def __init__(self, dev, name):
        self._dev, self.shape, self.is_cuda = dev, dev.shape, True
        self.dtype = type("dtype", (), {"__str__": lambda s: "torch." + name})()

    def data_ptr(self):
        return self._dev.__cuda_array_interface__["data"][0]

    def stride(self):
        return tuple(s // self._dev.dtype.itemsize for s in self._dev.strides)

    @property
    def __cuda_array_interface__(self):
        raise KeyError("torch.float8_e4m3fn")


da = cuda.to_device(kjit.to_float8(a, "float8_e4m3fn")); db = cuda.to_device(kjit.to_float8(b, "float8_e5m2"))
out = cuda.device_array((64, 64), np.float32)
ma = cuda.make_tensor_map(TorchFloat8(da, "float8_e4m3fn"), (64, 128))
mb = cuda.make_tensor_map(TorchFloat8(db, "float8_e5m2"), (64, 128))
make(kjit.float8_e4m3fn, kjit.float8_e5m2)[1, 128](ma, mb, out)
assert np.array_equal(out.copy_to_host(), a @ b.T), "torch-like float8 tensors"
print("fp8 ok")
'''


@pytest.mark.parametrize("device", DEVICES)
def test_fp8_products(run_on_device, device):
    r = run_on_device(PRODUCT, device=device, timeout=600)
    assert "fp8 ok" in r.stdout


def _product(a_type, b_type):
    from kjit import uint64

    def prod(tma, tmb, out):
        sa = cuda.shared.array((64, 128), a_type)
        sb = cuda.shared.array((64, 128), b_type)
        bars = cuda.shared.array(1, uint64)
        cuda.mbarrier.wait(bars, 0, 0)
        cuda.wgmma.fence()
        acc = cuda.wgmma.mma_async(cuda.wgmma.zeros(64), sa, sb, 0)
        cuda.wgmma.commit_group()
        acc = cuda.wgmma.wait_group(0, acc)
        cuda.wgmma.store(out, (0, 0), acc)
    return prod


def test_fp8_ptx(tmp_path):
    import kjit
    ptx, _ = cuda.compile_ptx(_product(kjit.float8_e4m3fn, kjit.float8_e5m2),
                              "void(uint64[::1], uint64[::1], float32[:, ::1])", cc=(9, 0))
    assert ".target sm_90a" in ptx
    assert "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2" in ptx
    assemble(ptx, tmp_path, arch="sm_90a")
    (tmp_path / "f.ptx").write_text(ptx)
    r = subprocess.run([find_ptxas(), "-arch=sm_90a", "-v", str(tmp_path / "f.ptx"), "-o",
                        str(tmp_path / "f.cubin")], capture_output=True, text=True)
    assert r.returncode == 0 and "C75" not in r.stderr, r.stderr


def test_fp8_misuse_is_located():
    import kjit

    def transposed(a, b, o):
        acc = cuda.wgmma.mma_async(cuda.wgmma.zeros(64), a, b, 0)
        o[0] = acc[0]

    with pytest.raises(errors.TypingError, match="b is a 2-d shared tile") as e:
        cuda.compile_ptx(transposed, "void(float8_e4m3fn[:, ::1], float8_e4m3fn[:, :, ::1], float32[::1])",
                         cc=(9, 0))
    assert "test_hopper_fp8.py" in str(e.value)

    def registers(b, o):
        acc = cuda.wgmma.mma_async(cuda.wgmma.zeros(64), cuda.wgmma.zeros(32), b, 0)
        o[0] = acc[0]

    with pytest.raises(errors.TypingError, match="8-bit products read a and b from K-major shared tiles"):
        cuda.compile_ptx(registers, "void(float8_e5m2[:, ::1], float32[::1])", cc=(9, 0))

    def mixed(a, b, o):
        acc = cuda.wgmma.mma_async(cuda.wgmma.zeros(64), a, b, 0)
        o[0] = acc[0]

    with pytest.raises(errors.TypingError, match="a and b hold one type"):
        cuda.compile_ptx(mixed, "void(float16[:, ::1], float8_e5m2[:, ::1], float32[::1])", cc=(9, 0))
