"""Which device runs kernels: the one place that decides.

    "simulator"  KJIT_ENABLE_CUDASIM=1 (or Numba's NUMBA_ENABLE_CUDASIM=1):
                 kernels run in the interpreter (kjit.cuda.simulator)
    "cuda"       a CUDA GPU: KJIT_DEVICE=cuda (or gpu), or by default when
                 the CUDA driver finds one
    "hip"        an AMD GPU through the HIP runtime: KJIT_DEVICE=hip (or
                 rocm, amd), or by default with an AMD GPU and no CUDA GPU
    "cpu"        the compiled CPU device: KJIT_DEVICE=cpu (or host), or by
                 default without a GPU

The environment is read once (the simulator's variables when kjit.cuda is
imported, KJIT_DEVICE at the first launch); the answers do not change in a
process. docs/cpu_device.md, docs/amdgpu.md and docs/simulator.md describe
the devices.
"""
import os

SIMULATOR, CUDA, HIP, CPU = "simulator", "cuda", "hip", "cpu"

# The variables that select the simulator; KJIT_DEVICE chooses among the others.
SIMULATOR_VARIABLES = ("KJIT_ENABLE_CUDASIM", "NUMBA_ENABLE_CUDASIM")

_NAMES = {"cpu": CPU, "host": CPU, "cuda": CUDA, "gpu": CUDA, "hip": HIP, "rocm": HIP, "amd": HIP}

_simulator = None  # whether the simulator runs kernels, once asked
_compiled = None  # "cuda", "hip" or "cpu", once asked


def simulator():
    """Whether kernels run in the simulator (KJIT_ENABLE_CUDASIM or
    NUMBA_ENABLE_CUDASIM set to something other than "" or "0")."""
    global _simulator
    if _simulator is None:
        _simulator = any(os.environ.get(v, "0") not in ("", "0") for v in SIMULATOR_VARIABLES)
    return _simulator


def requested(env=None):
    """The device KJIT_DEVICE names ("cuda", "hip" or "cpu"), None when it is unset
    or empty, or the value itself (lower-cased) when it names no device."""
    want = (os.environ if env is None else env).get("KJIT_DEVICE", "").strip().lower()
    return _NAMES.get(want, want) or None


def compiled_kind():
    """Where compiled kernels launch: "cuda", "hip" or "cpu". KJIT_DEVICE
    chooses; by default a CUDA GPU when the CUDA driver finds one, else an
    AMD GPU when the HIP runtime finds one, else the CPU device. A
    KJIT_DEVICE that names no device is a ValueError."""
    global _compiled
    if _compiled is None:
        want = requested()
        if want in (CUDA, HIP, CPU):
            _compiled = want
        elif want:
            raise ValueError(f"KJIT_DEVICE={want!r}: the devices are 'cuda', 'hip' and 'cpu'")
        else:
            from kjit import _kjit
            _compiled = CUDA if _kjit.cuda_available() else HIP if _kjit.hip_available() else CPU
    return _compiled


def kind():
    """Where kernels run: "simulator", "cuda", "hip" or "cpu"."""
    return SIMULATOR if simulator() else compiled_kind()
