"""One kernel suite, every device: each program of kernel_programs.py must give
NumPy's result on the CPU device (compiled), in the simulator, and on the GPU
where there is one. A device is chosen when kjit is imported, so each device
runs the programs in its own process (once, for all the tests of that
device)."""
import json
import os
import subprocess
import sys

import pytest

from kjit import _kjit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import kernel_programs  # noqa: E402

from conftest import device_environment  # noqa: E402

DEVICES = ("cpu", "sim", "cuda")
_results = {}


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
        out.append(pytest.param(d, marks=marks))
    return out


@pytest.mark.parametrize("program", list(kernel_programs.PROGRAMS))
@pytest.mark.parametrize("device", device_params())
def test_program(device, program):
    got = results_on(device)
    assert program in got, f"{program} did not run on {device}"
    assert got[program] == "ok", f"{program} on {device}:\n{got[program]}"
