import os
import sys

# Every function that the suite compiles has its typed IR verified after each
# pass (compiler/Pipeline.cpp): an invalid IR fails the test that made it.
os.environ.setdefault("KJIT_VERIFY", "1")

# The package is used in place: python_bindings/ holds kjit/ and the built _kjit.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python_bindings"))


# ---- programs run in a new process -----------------------------------------------------------
import itertools  # noqa: E402
import subprocess  # noqa: E402
import textwrap  # noqa: E402

import pytest  # noqa: E402

from kjit import devices  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The environment that selects each device (kjit/devices.py); None: the
# machine's own choice (the GPU if there is one, else the CPU device).
DEVICE_ENV = {"cpu": {"KJIT_DEVICE": "cpu"}, "sim": {"KJIT_ENABLE_CUDASIM": "1"}, "cuda": {"KJIT_DEVICE": "cuda"},
              "hip": {"KJIT_DEVICE": "hip"}, None: {}}

_program_numbers = itertools.count()

FAKE_CUDA_SOURCE = os.path.join(ROOT, "tests", "python", "fake_cuda", "fake_cuda.c")
FAKE_HIP_SOURCE = os.path.join(ROOT, "tests", "python", "fake_hip", "fake_hip.c")


def _build_fake(tmp_path_factory, source, name, what):
    import shutil
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip(f"no C compiler to build the fake {what}")
    lib = str(tmp_path_factory.mktemp(os.path.basename(os.path.dirname(source))) / name)
    subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", lib, source], check=True)
    return lib


@pytest.fixture(scope="session")
def fake_driver(tmp_path_factory):
    """tests/python/fake_cuda/fake_cuda.c built as a CUDA driver: it runs no
    kernel but answers as a GPU would, so the GPU launch path runs in CI
    (KJIT_DEVICE=cuda KJIT_CUDA_DRIVER=<this>)."""
    return _build_fake(tmp_path_factory, FAKE_CUDA_SOURCE, "libcuda.so", "CUDA driver")


@pytest.fixture(scope="session")
def fake_hip(tmp_path_factory):
    """tests/python/fake_hip/fake_hip.c built as the HIP runtime: one AMD GPU
    that runs no kernel (KJIT_HIP_RUNTIME=<this>)."""
    return _build_fake(tmp_path_factory, FAKE_HIP_SOURCE, "libamdhip64.so", "HIP runtime")


def find_ptxas():
    """CUDA's ptxas ($CUDA_HOME/bin, /usr/local/cuda/bin or the PATH), or
    None: tests that assemble PTX skip that step without it."""
    import shutil
    for path in (os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas"),
                 shutil.which("ptxas") or ""):
        if path and os.path.exists(path):
            return path
    return None


def assemble(ptx, tmp_path, arch="sm_90", relocatable=False, name="kernel"):
    """Assemble `ptx` with ptxas (skip, not pass, when there is no ptxas)."""
    ptxas = find_ptxas()
    if ptxas is None:
        pytest.skip("ptxas not found (CUDA_HOME, /usr/local/cuda/bin, PATH): PTX not validated")
    src = tmp_path / f"{name}.ptx"
    src.write_text(ptx)
    cmd = [ptxas, f"-arch={arch}", str(src), "-o", str(tmp_path / f"{name}.cubin")]
    if relocatable:
        cmd.insert(1, "-c")
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, f"ptxas rejected the PTX of {name}:\n{r.stderr}\n{ptx}"


def device_environment(device, env=None):
    """os.environ with kjit on the path, the device selected (no inherited
    KJIT_DEVICE or simulator variable), then `env`."""
    full = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"))
    for v in ("KJIT_DEVICE",) + devices.SIMULATOR_VARIABLES:
        full.pop(v, None)
    full.update(DEVICE_ENV[device])
    full.update(env or {})
    return full


@pytest.fixture
def run_on_device(tmp_path):
    """run_on_device(code, device="cpu"|"sim"|"cuda"|"hip"|None, env=None, ...):
    runs the program `code` (dedented) in a new Python, from a file (kernels
    need their source), on that device. A check inside the program is an
    `assert`; unless check=False, the process must exit with 0, and the
    failure shows its exit code, stdout and stderr (so a failed assert's
    message). Returns the CompletedProcess, with .path the program's file.
    `cwd` (default: a temporary folder) holds the program and is its
    working directory; `stdin` is its input."""

    def run(code, device="cpu", env=None, check=True, cwd=None, timeout=600, stdin=None):
        folder = str(cwd or tmp_path)
        path = os.path.join(folder, f"program_{os.getpid()}_{next(_program_numbers)}.py")
        with open(path, "w") as f:
            f.write(textwrap.dedent(code))
        r = subprocess.run([sys.executable, path], capture_output=True, text=True, env=device_environment(device, env),
                           timeout=timeout, cwd=folder, input=stdin)
        r.path = path
        if check:
            assert r.returncode == 0, (f"the program on device {device!r} exited with {r.returncode}\n"
                                       f"---- stdout\n{r.stdout}\n---- stderr\n{r.stderr}")
        return r

    return run
