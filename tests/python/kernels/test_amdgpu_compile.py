"""Every kernel of the device-parity suite (kernel_programs.py) and every seed
kernel compiles for AMD GPUs (gfx90a and gfx940: CDNA, 64-lane wavefronts;
gfx1030: RDNA, 32 lanes) into a valid HSA code object: read back with
llvm-readelf --notes, it describes the kernel (its descriptor symbol, one
argument per kernel parameter, in the order and with the names kjit's ABI
gives them), the wavefront size and the LDS its shared arrays take.

Kernels written for 32 lanes (a 0xffffffff mask) compile for gfx1030 and are
a located error on 64-lane processors, never a wrong answer. No AMD GPU is
needed: kjit compiles, lld links in-process, llvm-readelf reads."""
import gc
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from kjit import cuda, errors
from kjit import types as kt

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/python
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "gpu"))

READELF = shutil.which("llvm-readelf-19") or shutil.which("llvm-readelf") or \
    ("/usr/lib/llvm-19/bin/llvm-readelf" if os.path.exists("/usr/lib/llvm-19/bin/llvm-readelf") else None)
DEVICE_LIBS = any(os.path.exists(os.path.join(d, "ocml.bc")) for d in (
    os.environ.get("KJIT_ROCM_DEVICE_LIBS", ""), "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
    "/opt/rocm/amdgcn/bitcode"))
pytestmark = [
    pytest.mark.skipif(READELF is None, reason="llvm-readelf (LLVM 19's tools) is not installed"),
    pytest.mark.skipif(not DEVICE_LIBS, reason="the ROCm device libraries (rocm-device-libs) are not installed"),
]

ARCHS = {"gfx90a": 64, "gfx940": 64, "gfx1030": 32}


def kernel_notes(hsaco):
    """{kernel name: {"args": [arg names], "wavefront": n, "lds": bytes,
    "symbol": descriptor symbol}} from the code object's AMDGPU metadata."""
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"kjit-test-{os.getpid()}.hsaco")
    with open(path, "wb") as f:
        f.write(hsaco)
    try:
        text = subprocess.run([READELF, "--notes", path], capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(path)
    assert "NT_AMDGPU_METADATA" in text, text[:2000]
    kernels, cur, in_kernels = [], None, False
    for raw in text.splitlines():
        if raw.startswith("amdhsa.kernels:"):
            in_kernels = True
            continue
        if raw and not raw.startswith(" "):  # the next top-level key
            in_kernels = False
        if not in_kernels:
            continue
        if raw.startswith("  - "):  # a kernel
            cur = {"args": []}
            kernels.append(cur)
            level, body = "kernel", raw[4:]
        elif raw.startswith("    .") and not raw.startswith("    .args:"):
            level, body = "kernel", raw[4:]
            cur["last"] = body
        elif raw.startswith("      - ") and cur.get("last", ".args").startswith(".args"):  # an argument
            cur["args"].append({})
            level, body = "arg", raw[8:]
        elif raw.startswith("        ") and cur.get("last", ".args").startswith(".args"):
            level, body = "arg", raw[8:]
        else:
            continue
        key, _, value = body.strip().partition(":")
        value = value.strip()
        if value.startswith("'!str ") or value.startswith("!str "):  # YAML's tag on a name such as n
            value = value.strip("'")[5:]
        if level == "arg":
            cur["args"][-1][key] = value
        elif key in (".wavefront_size", ".group_segment_fixed_size"):
            cur[key] = int(value)
        else:
            cur[key] = value
    # (Hidden arguments, which the runtime fills, have a kind and no name.)
    return {k[".name"]: {"args": [a.get(".name") for a in k["args"] if not a[".value_kind"].startswith("hidden_")],
                         "hidden": [a[".value_kind"] for a in k["args"] if a[".value_kind"].startswith("hidden_")],
                         "sizes": [int(a[".size"]) for a in k["args"] if not a[".value_kind"].startswith("hidden_")],
                         "wavefront": k[".wavefront_size"],
                         "lds": k[".group_segment_fixed_size"], "symbol": k[".symbol"]} for k in kernels}


def expected_args(pyfunc, types):
    """The kernel's parameters as kjit passes them on AMD: the numbers and
    the arrays' data pointers in order, then each array's shape and strides;
    a tuple of nothing is nothing."""
    import inspect
    names = list(inspect.signature(pyfunc).parameters)
    out, extents = [], []
    for name, t in zip(names, types):
        if isinstance(t, kt.Array):
            out.append(name + ".data")
            extents += [f"{name}.shape{d}" for d in range(t.ndim)] + [f"{name}.stride{d}" for d in range(t.ndim)]
        elif isinstance(t, kt.BaseTuple) and _holds_nothing(t):
            continue
        else:
            out.append(name)
    return out + extents


def _holds_nothing(t):
    return isinstance(t, kt.BaseTuple) and all(_holds_nothing(e) for e in t.types)


def _launched_kernels():
    """Runs the parity suite on this process's device and returns every
    kernel it launched, with the argument types of each launch."""
    import kernel_programs
    import program_runner  # noqa: F401
    for name, fn in kernel_programs.PROGRAMS.items():
        try:
            fn()
        except Exception:  # (a program's own failure is test_kernels_devices' business)
            pass
    found = {}
    for obj in gc.get_objects():
        # (not tile kernels' translations an earlier test made: their sm_90
        # ones are NVIDIA's only)
        if isinstance(obj, cuda.CUDAKernel) and not obj.device and \
                not str(getattr(obj.py_func, "__kjit_source__", ("",))[0]).startswith("<kjit tile kernel"):
            for types in obj.overloads:
                found.setdefault((obj.py_func.__qualname__, id(obj)), (obj, []))[1].append(types)
    return list(found.values())


@pytest.fixture(scope="module")
def launched():
    kernels = _launched_kernels()
    assert len(kernels) >= 40, f"the parity suite launched only {len(kernels)} kernels"
    return kernels


def _uses_32_lane_masks(pyfunc):
    import inspect
    try:
        return "0xffffffff" in inspect.getsource(pyfunc).lower()
    except OSError:
        return False


@pytest.mark.parametrize("arch", list(ARCHS))
def test_every_parity_kernel_compiles_to_a_valid_code_object(launched, arch):
    compiled = refused = 0
    for kernel, overloads in launched:
        for types in overloads:
            sig = kt.void(*types)
            if ARCHS[arch] == 64 and _uses_32_lane_masks(kernel.py_func):
                with pytest.raises(errors.TypingError, match="names 32 lanes, but this GPU's wavefront has 64"):
                    cuda.compile_amdgcn(kernel, sig, arch=arch, output="hsaco")
                refused += 1
                continue
            hsaco, resty = cuda.compile_amdgcn(kernel, sig, arch=arch, output="hsaco")
            assert hsaco[:4] == b"\x7fELF" and str(resty) == "void"
            notes = kernel_notes(hsaco)
            name = kernel.py_func.__name__
            assert list(notes) == [name], (name, list(notes))
            k = notes[name]
            assert k["symbol"] == name + ".kd"
            assert k["wavefront"] == ARCHS[arch]
            assert k["args"] == expected_args(kernel.py_func, types), (name, types)
            compiled += 1
    assert compiled >= 40 and (refused > 0) == (ARCHS[arch] == 64), (compiled, refused)


def test_seed_kernels_compile_with_their_shared_memory():
    import seed_kernels as S
    f32 = kt.float32
    for arch, lanes in ARCHS.items():
        hsaco, _ = cuda.compile_amdgcn(S.fast_matmul, kt.void(f32[:, ::1], f32[:, ::1], f32[:, ::1]),
                                       arch=arch, output="hsaco")
        k = kernel_notes(hsaco)["fast_matmul"]
        assert k["lds"] == 2 * S.TPB * S.TPB * 4 and k["wavefront"] == lanes
        for name, sig in [("add_kernel", kt.void(f32[::1], f32[::1], f32[::1])),
                          ("saxpy", kt.void(f32, f32[::1], f32[::1], f32[::1])),
                          ("histogram", kt.void(f32[::1], f32, f32, kt.int32[::1])),
                          ("block_sum", kt.void(f32[::1], f32[::1])),
                          ("sinexp", kt.void(f32[::1], f32[::1]))]:
            hsaco, _ = cuda.compile_amdgcn(getattr(S, name), sig, arch=arch, output="hsaco")
            assert kernel_notes(hsaco)[name]["wavefront"] == lanes


def test_assembly_uses_the_amdgpu_forms():
    # Global loads and stores through the array arguments, ds_bpermute for
    # shuffles, s_barrier for syncthreads, ocml for math.
    def k(x, out):
        s = cuda.shared.array(64, np.float64)
        i = cuda.grid(1)
        s[cuda.threadIdx.x] = np.float64(x[i])
        cuda.syncthreads()
        v = cuda.shfl_down_sync(cuda.activemask(), s[cuda.threadIdx.x], 1)
        out[i] = np.sin(v) + cuda.warpsize

    for arch, lanes in ARCHS.items():
        asm, _ = cuda.compile_amdgcn(k, "void(float32[::1], float64[::1])", arch=arch)
        assert "global_load_dword" in asm and "global_store_dwordx2" in asm, arch
        assert "ds_bpermute_b32" in asm and "s_barrier" in asm, arch
        assert f".amdhsa_wavefront_size32 {1 if lanes == 32 else 0}" in asm or lanes == 64, arch


def test_warpsize_and_masks_follow_the_wavefront():
    def k(out):
        out[0] = cuda.warpsize
        out[1] = cuda.ballot_sync(cuda.activemask(), True)

    for arch, lanes in ARCHS.items():
        _, resty = cuda.compile_amdgcn(k, "void(uint64[::1])", arch=arch)
        assert str(resty) == "void"
    with pytest.raises(errors.TypingError, match=r"test_amdgpu_compile.py:\d+:\d+: .*0xffffffff names 32 lanes"):
        def bad(out):
            out[0] = cuda.shfl_sync(0xffffffff, out[1], 0)
        cuda.compile_amdgcn(bad, "void(int32[::1])", arch="gfx90a")


def test_unknown_processor_and_bad_output():
    def k(x):
        x[0] = 1
    with pytest.raises(Exception, match="unknown AMD GPU processor 'gfx9999'"):
        cuda.compile_amdgcn(k, "void(int32[::1])", arch="gfx9999")
    with pytest.raises(ValueError, match="'asm' or 'hsaco'"):
        cuda.compile_amdgcn(k, "void(int32[::1])", output="elf")


def test_launch_parameters_have_the_sizes_the_code_object_declares():
    # The packer every device uses (runtime/device/Params.h) lays out a HIP
    # launch's parameters (numbers, tuples of numbers by value in LLVM's
    # struct layout, data pointers, then shapes and strides); the runtime
    # copies each into the kernel-argument segment by the size the code
    # object's metadata gives: they must agree.
    from kjit import _kjit, hostapi
    from kjit.hip import launch

    def k(out, t, n, u, flag):
        out[0] = t[0] + t[1] + t[2].real + n + u[0][1] + (1 if flag and t[3] else 0)

    types = (kt.float64[::1], kt.Tuple((kt.int64, kt.float64, kt.complex128, kt.boolean)), kt.int32,
             kt.Tuple((kt.UniTuple(kt.float32, 3), kt.int8)), kt.boolean)
    kernel = cuda.jit(kt.void(*types))(k)
    out = hostapi.DeviceNDArray((1,), None, np.float64, _ptr=0x1000)  # (an address only: nothing allocated)
    values, key = launch.argument_key(kernel, [out, (3, 2.5, 1 + 2j, True), 7, ((1.0, 2.0, 3.0), 4), True])
    params = _kjit.hip_pack(kernel._dispatcher, key, tuple(values))
    assert params[0] == (0x1000).to_bytes(8, "little")
    assert params[1][:8] == (3).to_bytes(8, "little") and params[1][32] == 1  # t[3], after 32 bytes
    assert params[2] == (7).to_bytes(4, "little")  # n: int32, as the signature declares
    assert params[-2:] == [(1).to_bytes(8, "little"), (8).to_bytes(8, "little")]  # out's shape, stride
    sizes = {}
    for arch in ARCHS:
        hsaco, _ = cuda.compile_amdgcn(k, kt.void(*types), arch=arch, output="hsaco")
        sizes[arch] = kernel_notes(hsaco)["k"]["sizes"]
    for arch, got in sizes.items():
        assert got == [len(p) for p in params], (arch, got)
    assert [len(p) for p in params] == [8, 40, 4, 16, 1, 8, 8]


def _mfma_product(a, b, out):
    """out (16 x 16) = a @ b.T + 1 by one wavefront: a and b 16 x 16 of
    float16 or bfloat16, lane l giving A[l % 16][4 (l / 16) + j] and
    B[4 (l / 16) + j][l % 16] = b[l % 16][4 (l / 16) + j] (docs/cuda.md)."""
    lane = cuda.threadIdx.x % 64
    r = lane % 16
    h = 4 * (lane // 16)
    fa = (a[r, h], a[r, h + 1], a[r, h + 2], a[r, h + 3])
    fb = (b[r, h], b[r, h + 1], b[r, h + 2], b[r, h + 3])
    d = cuda.mfma("16x16x16", fa, fb, (1.0, 1.0, 1.0, 1.0))
    for j in range(4):
        out[h + j, r] = d[j]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_mfma_compiles_to_the_matrix_instruction_on_cdna(dtype):
    import re
    sig = f"void({dtype}[:, ::1], {dtype}[:, ::1], float32[:, ::1])"
    for arch in ("gfx90a", "gfx940"):
        asm, _ = cuda.compile_amdgcn(_mfma_product, sig, arch=arch)
        # gfx90a spells it v_mfma_f32_16x16x16f16 / bf16_1k, gfx940 v_mfma_f32_16x16x16_f16 / _bf16
        want = "f16" if dtype == "float16" else "bf16"
        assert re.search(rf"v_mfma_f32_16x16x16_?{want}(_1k)?\b", asm), (arch, asm[:2000])
        hsaco, _ = cuda.compile_amdgcn(_mfma_product, sig, arch=arch, output="hsaco")
        assert kernel_notes(hsaco)["_mfma_product"]["wavefront"] == 64


def test_mfma_elsewhere_is_a_located_error():
    sig = "void(float16[:, ::1], float16[:, ::1], float32[:, ::1])"
    import inspect
    lines, first = inspect.getsourcelines(_mfma_product)
    line = first + next(i for i, text in enumerate(lines) if "cuda.mfma(" in text)
    for compile_ in (lambda: cuda.compile_amdgcn(_mfma_product, sig, arch="gfx1030"),
                     lambda: cuda.compile_ptx(_mfma_product, sig, cc=(9, 0)),
                     lambda: cuda.compile_amdgcn(_mfma_product, sig.replace("float16", "bfloat16"),
                                                 arch="gfx908")):
        with pytest.raises(errors.UnsupportedError, match="AMD CDNA's matrix instruction") as e:
            compile_()
        assert e.value.lineno == line and e.value.filename == __file__, str(e.value)
    with pytest.raises(errors.UnsupportedError, match="gfx1030 has none"):
        cuda.compile_amdgcn(_mfma_product, sig, arch="gfx1030")
    with pytest.raises(errors.TypingError, match="a is a tuple of 4 float16 or bfloat16"):
        cuda.compile_amdgcn(_mfma_product, "void(float32[:, ::1], float32[:, ::1], float32[:, ::1])",
                            arch="gfx90a")
