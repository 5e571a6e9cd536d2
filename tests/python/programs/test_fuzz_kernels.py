"""The random-kernel tester's seeded run (tools/fuzz_kernels.py): random
kernels compile to PTX for every supported compute capability (in turn),
ptxas assembles that PTX where the toolkit is installed, and the CPU device
and the simulator compute the same results."""
import os
import subprocess
import sys

import numpy as np

TOOLS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "tools")
sys.path.insert(0, TOOLS)
import fuzz_kernels  # noqa: E402


def test_random_kernels_compile_assemble_and_agree():
    env = dict(os.environ, PYTHONPATH=os.path.join(TOOLS, "..", "python_bindings"), KJIT_DEVICE="cpu")
    r = subprocess.run([sys.executable, os.path.join(TOOLS, "fuzz_kernels.py"), "--kernels", "80", "--seed", "5",
                        "--batch", "40"], capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]
    assert "80 kernels (seed 5): 80 compiled to PTX" in r.stdout and \
        "80 the same on the CPU device and the simulator; 0 failures" in r.stdout, r.stdout[-2000:]


def test_the_comparison_can_fail():
    fo = np.array([1.0, np.nan, 3.0])
    io, acc = np.array([1, 2, 3]), np.zeros(5, dtype=np.int64)
    assert fuzz_kernels.agree((fo, io, acc), (fo.copy(), io.copy(), acc.copy()))  # NaN matches NaN
    assert not fuzz_kernels.agree((fo, io, acc), (fo + 1e-3, io, acc))
    assert not fuzz_kernels.agree((fo, io, acc), (fo, io + 1, acc))
    assert not fuzz_kernels.agree((fo, io, acc), (fo, io, acc + 1))
