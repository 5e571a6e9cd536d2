"""One kernel suite, every device: each program of kernel_programs.py must give
NumPy's result on the CPU device (compiled), in the simulator, and on the GPUs
where there are some (an NVIDIA GPU: "cuda"; an AMD GPU through HIP: "hip").
A device is chosen when kjit is imported, so each device runs the programs in
its own process (once, for all the tests of that device)."""
import json
import os
import subprocess
import sys

import pytest

from kjit import _kjit

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/python
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import kernel_programs  # noqa: E402

from conftest import device_environment  # noqa: E402

DEVICES = ("cpu", "sim", "cuda", "hip")
_results = {}

# Programs written for 32-lane warps (full masks as 0xffffffff): on a GPU with
# 64-lane wavefronts (AMD CDNA) each must be refused with this TypingError,
# never give a wrong answer (docs/amdgpu.md); on 32-lane GPUs they run.
THIRTY_TWO_LANE_PROGRAMS = {"seed_warp_ops", "warp_shuffles", "warp_shuffle_reduction", "warp_votes_and_matches",
                            "tuple_loops_and_run_time_tuple_index"}
SIXTY_FOUR_LANE_REFUSAL = "names 32 lanes, but this GPU's wavefront has 64"


def hip_wavefront():
    from kjit import hip
    return hip.list_devices()[0]["wavefront"]


def results_on(device):
    if device not in _results:
        # One process runs every program (a session's worth of results):
        # the device's environment is the run_on_device fixture's.
        r = subprocess.run([sys.executable, os.path.join(HERE, "kernel_programs.py")], capture_output=True,
                           text=True, env=device_environment(device), timeout=900)
        line = [ln for ln in r.stdout.splitlines() if ln.startswith("KJIT-RESULTS ")]
        assert line, f"kernel_programs.py on {device} printed no results:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
        _results[device] = json.loads(line[-1][len("KJIT-RESULTS "):])
    return _results[device]


def device_params():
    out = []
    for d in DEVICES:
        marks = []
        if d == "cuda" and not _kjit.cuda_available():
            marks.append(pytest.mark.skip(reason="no CUDA GPU here"))
        if d == "hip" and not _kjit.hip_available():
            marks.append(pytest.mark.skip(reason=f"no AMD GPU here ({_kjit.hip_why()})"))
        out.append(pytest.param(d, marks=marks))
    return out


@pytest.mark.parametrize("program", list(kernel_programs.PROGRAMS))
@pytest.mark.parametrize("device", device_params())
def test_program(device, program):
    got = results_on(device)
    assert program in got, f"{program} did not run on {device}"
    if device == "hip" and program in THIRTY_TWO_LANE_PROGRAMS and hip_wavefront() == 64:
        assert got[program].startswith("TypingError") and SIXTY_FOUR_LANE_REFUSAL in got[program], got[program]
        return
    assert got[program] == "ok", f"{program} on {device}:\n{got[program]}"
