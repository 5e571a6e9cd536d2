"""The examples run, as a user runs them, and end well (on the CPU device
here; tools/gpu/check.sh runs saxpy on the GPU)."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
EXAMPLES = sorted(f for f in os.listdir(os.path.join(ROOT, "examples")) if f.endswith(".py"))


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_runs(name):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"))
    for v in ("KJIT_ENABLE_CUDASIM", "NUMBA_ENABLE_CUDASIM"):
        env.pop(v, None)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "examples", name)], capture_output=True, text=True,
                       env=env, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    assert r.stdout.strip(), "the example printed nothing"
