"""The HIP device: @cuda.jit kernels and Numba's host API (device arrays,
streams, events, CUDA array interface, DLPack) on an AMD GPU, with
KJIT_DEVICE=hip. Against the fake HIP runtime (tests/python/fake_hip: it
answers as one AMD GPU, keeps "device" memory in host memory and logs each
launch's parameters, but runs no kernel), so what is checked is what kjit
asks of the runtime: the kernel's parameters, copies, views' addresses.
Kernels' results are checked on AMD hardware by the device-parity suite
(test_kernels_devices.py, device "hip")."""
import os
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/python
ROOT = os.path.join(HERE, "..", "..")


def run(code, env, device="hip"):
    full = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"))
    for v in ("KJIT_ENABLE_CUDASIM", "NUMBA_ENABLE_CUDASIM", "KJIT_DEVICE"):
        full.pop(v, None)
    if device is not None:
        full["KJIT_DEVICE"] = device
    full.update(env)
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=full,
                       timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    return r.stdout.splitlines()


def launches(log):
    """Each logged launch: (kernel, grid, block, shared, parameters as ints)."""
    out = []
    for line in log.read_text().splitlines():
        f = line.split()
        out.append((f[1], tuple(map(int, f[2:5])), tuple(map(int, f[5:8])), int(f[8]),
                    [int(p, 16) for p in f[9:]]))
    return out


def test_cuda_jit_kernels_launch_on_the_amd_gpu_with_kjit_device_hip(fake_hip, tmp_path):
    # The same program as on an NVIDIA GPU: cuda.to_device, a launch, and
    # copy_to_host; the kernel is compiled for the device's processor.
    log = tmp_path / "launches"
    out = run("""
        import numpy as np
        from kjit import cuda, devices

        @cuda.jit
        def scale(x, out, k):
            i = cuda.grid(1)
            if i < x.size:
                out[i] = x[i] * k

        x = np.arange(8, dtype=np.float32)
        d_x = cuda.to_device(x)
        d_out = cuda.device_array_like(x)
        scale[2, 4](d_x, d_out, 3.0)
        cuda.synchronize()
        print(devices.kind(), cuda.is_available(), cuda.get_current_device().name)
        print(type(d_x).__module__, hex(d_x._ptr), hex(d_out._ptr))
        print((d_x.copy_to_host() == x).all())
        print(list(scale._hip_loader().inspect_asm()))
    """, {"KJIT_HIP_RUNTIME": fake_hip, "FAKE_HIP_LOG": str(log), "FAKE_HIP_PARAMS": "7"})
    assert out[0] == "hip True Fake AMD Instinct"
    assert out[1].split()[0] == "kjit.hostapi.arrays"
    px, pout = (int(p, 16) for p in out[1].split()[1:])
    assert out[2] == "True"
    assert out[3] == "[('array(float32, 1d, C)', 'array(float32, 1d, C)', 'float64')]"
    (name, grid, block, shared, params), = launches(log)
    assert (name, grid, block, shared) == ("scale", (2, 1, 1), (4, 1, 1), 0)
    # x, out, k (3.0 as a double), then x's shape and stride, out's
    assert params[:2] == [px, pout]
    assert params[2] == 0x4008000000000000
    assert params[3:] == [8, 4, 8, 4]


def test_slices_of_device_arrays_are_views_with_their_own_address_and_strides(fake_hip, tmp_path):
    log = tmp_path / "launches"
    out = run("""
        import numpy as np
        from kjit import cuda

        @cuda.jit
        def touch(a):
            a[0] = 1

        host = np.arange(24, dtype=np.int32).reshape(4, 6)
        d = cuda.to_device(host)
        v = d[1:, ::2]
        print(v.shape, v.strides, v._ptr - d._ptr, v.is_c_contiguous())
        print((v.copy_to_host() == host[1:, ::2]).all(), d[2, 3], d[-1].copy_to_host().tolist())
        d[0] = 7                      # a row, from a number
        d[:, 5] = np.arange(4) * 10   # a column, strided
        want = host.copy(); want[0] = 7; want[:, 5] = np.arange(4) * 10
        print((d.copy_to_host() == want).all())
        touch[1, 1](v)
        print(d.reshape(6, 4).shape, d.reshape(-1, 8).shape, d.ravel().shape, d.T.strides)
        try:
            d[1:, :3].reshape(9)      # (v.reshape(9) is a view: its elements are 8 bytes apart)
        except NotImplementedError as e:
            print("NotImplementedError")
        try:
            d[4]
        except IndexError as e:
            print("IndexError", e)
    """, {"KJIT_HIP_RUNTIME": fake_hip, "FAKE_HIP_LOG": str(log), "FAKE_HIP_PARAMS": "5"})
    assert out[0] == "(3, 3) (24, 8) 24 False"
    assert out[1] == "True 15 [18, 19, 20, 21, 22, 23]"
    assert out[2] == "True"
    assert out[3] == "(6, 4) (3, 8) (24,) (4, 24)"
    assert out[4] == "NotImplementedError"
    assert out[5] == "IndexError index 4 is out of bounds for axis 0 with size 4"
    (name, _, _, _, params), = launches(log)
    # the view's address (24 bytes in), shape (3, 3), strides (24, 8): a
    # kernel typed for a non-contiguous ('A') array
    assert params[1:] == [3, 3, 24, 8]


def test_host_arrays_and_a_declared_signature(fake_hip, tmp_path):
    # Host arrays go to the device for the launch and come back; a declared
    # signature converts the Python float to its float32.
    log = tmp_path / "launches"
    out = run("""
        import numpy as np
        from kjit import cuda

        @cuda.jit("void(float32, float32[::1])")
        def fill(v, a):
            a[cuda.grid(1)] = v

        a = np.full(4, 5.0, np.float32)
        fill[1, 4](2.0, a)
        print(a.tolist())
    """, {"KJIT_HIP_RUNTIME": fake_hip, "FAKE_HIP_LOG": str(log), "FAKE_HIP_PARAMS": "4"})
    assert out[0] == "[5.0, 5.0, 5.0, 5.0]"  # (the fake runs no kernel: the copy back is what went)
    (_, _, _, _, params), = launches(log)
    assert params[0] & 0xffffffff == 0x40000000  # 2.0f
    assert params[2:] == [4, 4]


def test_streams_and_events(fake_hip, tmp_path):
    log = tmp_path / "launches"
    out = run("""
        import numpy as np
        from kjit import cuda

        @cuda.jit
        def k(a):
            a[0] = 1

        s = cuda.stream()
        d = cuda.to_device(np.zeros(4), stream=s)
        start, end = cuda.event(), cuda.event()
        start.record(s)
        k[1, 1, s](d)
        end.record(s)
        end.synchronize()
        s.synchronize()
        print(repr(s).startswith("<kjit stream"), cuda.event_elapsed_time(start, end), start.elapsed_time(end))
        with s.auto_synchronize():
            d.copy_to_host(stream=s)
        print(cuda.default_stream().handle)
        try:
            k[1, 1, 12345](d)
        except TypeError as e:
            print("TypeError")
    """, {"KJIT_HIP_RUNTIME": fake_hip, "FAKE_HIP_LOG": str(log), "FAKE_HIP_PARAMS": "1"})
    # (the fake's events are 0.5 ms apart)
    assert out == ["True 0.5 0.5", "0", "TypeError"]
    assert len(launches(log)) == 1


def test_cuda_array_interface_and_dlpack_with_the_rocm_device_type(fake_hip, tmp_path):
    log = tmp_path / "launches"
    out = run("""
        import numpy as np
        from kjit import cuda, hip

        @cuda.jit
        def k(a):
            a[0] = 1

        d = cuda.to_device(np.arange(6, dtype=np.float64).reshape(2, 3))
        print(d.__dlpack_device__())
        back = hip.from_dlpack(d)            # a DLPack tensor on the AMD GPU: a view, no copy
        print(back._ptr == d._ptr, back.shape, back.strides, back.dtype)
        try:
            np.from_dlpack(d)                # NumPy takes CPU tensors only
        except (RuntimeError, BufferError, TypeError, ValueError):
            print("refused by NumPy")

        class Foreign:                       # what CuPy-ROCm exports
            def __init__(self, d):
                self.__cuda_array_interface__ = dict(d.__cuda_array_interface__)

        f = Foreign(d[1])
        print(cuda.is_cuda_array(f), cuda.as_cuda_array(f)._ptr - d._ptr)
        k[1, 1](f)                           # launched as a device array, by its pointer
        print(hex(d._ptr + 24))

        class Cpu:                            # a DLPack tensor on the CPU
            def __dlpack__(self, stream=None):
                return np.zeros(3).__dlpack__()
            def __dlpack_device__(self):
                return (1, 0)
        try:
            hip.from_dlpack(Cpu())
        except TypeError as e:
            print("TypeError", e)
    """, {"KJIT_HIP_RUNTIME": fake_hip, "FAKE_HIP_LOG": str(log), "FAKE_HIP_PARAMS": "1"})
    assert out[0] == "(10, 0)"
    assert out[1] == "True (2, 3) (24, 8) float64"
    assert out[2] == "refused by NumPy"
    assert out[3] == "True 24"
    assert out[5].startswith("TypeError from_dlpack: the tensor is on a device of DLPack type 1, not an AMD GPU")
    (_, _, _, _, params), = launches(log)
    assert params == [int(out[4], 16)]  # the foreign array's own pointer, 24 bytes into d


def test_the_hip_device_is_the_default_with_an_amd_gpu_and_no_cuda_gpu(fake_hip):
    out = run("""
        from kjit import cuda, devices, _kjit
        print(_kjit.cuda_available(), devices.kind(), cuda.get_current_device().processor)
    """, {"KJIT_HIP_RUNTIME": fake_hip, "KJIT_CUDA_DRIVER": "/nonexistent/libcuda.so.1",
          "FAKE_HIP_ARCH": "gfx1030"}, device=None)
    assert out == ["False hip gfx1030"]


def test_without_an_amd_gpu_kjit_device_hip_is_a_clear_error(fake_hip):
    out = run("""
        import numpy as np
        from kjit import cuda
        from kjit.cuda.errors import CudaSupportError

        @cuda.jit
        def k(a):
            a[0] = 1
        try:
            cuda.to_device(np.zeros(2))
        except CudaSupportError as e:
            print("CudaSupportError", e)
        try:
            k[1, 1](np.zeros(2))
        except CudaSupportError as e:
            print("CudaSupportError", e)
    """, {"KJIT_HIP_RUNTIME": fake_hip, "FAKE_HIP_DEVICES": "0"})
    assert len(out) == 2 and all(line.startswith("CudaSupportError no AMD GPU") for line in out)


def test_an_unknown_kjit_device_names_the_devices():
    full = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"), KJIT_DEVICE="tpu")
    r = subprocess.run([sys.executable, "-c", "from kjit import devices; devices.compiled_kind()"],
                       capture_output=True, text=True, env=full, timeout=120)
    assert r.returncode != 0
    assert "KJIT_DEVICE='tpu': the devices are 'cuda', 'hip' and 'cpu'" in r.stderr
