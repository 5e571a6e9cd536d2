"""The differential tester's seeded run (tools/fuzz_diff.py; `make
fuzz-diff` runs it for as long as asked): random @njit programs give
Numba's results and result types, or raise what Numba raises."""
import io
import os
import sys

import pytest

pytest.importorskip("numba")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
import fuzz_diff  # noqa: E402


@pytest.mark.parametrize("seed", [11, 12])
def test_random_programs_agree_with_numba(seed):
    out = io.StringIO()
    done, diverged = fuzz_diff.run(300, seed, out=out)
    assert done == 300
    assert not diverged, out.getvalue()[-6000:]


def test_the_tester_sees_a_divergence():
    # The comparison itself can fail: a program whose result kjit gives
    # differently on purpose (float-to-integer saturation) is reported.
    source = "def sat(x):\n    return int(x)\n"
    assert fuzz_diff.compare(source, (float("inf"),), "sat") is not None
    assert fuzz_diff.compare("def same(x):\n    return x + 1\n", (2,), "same") is None
