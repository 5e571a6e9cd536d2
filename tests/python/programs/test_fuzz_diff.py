"""The differential tester's seeded run (tools/fuzz_diff.py; `make
fuzz-diff` runs it for as long as asked): random @njit programs give
Numba's results and result types, or raise what Numba raises."""
import io
import os
import sys

import pytest

pytest.importorskip("numba")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "tools"))
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


def test_numbas_branch_pruning_is_the_documented_difference_only():
    # A condition of constants: Numba types the branch taken alone
    # (docs/differences.md); equal values of other types are that, and
    # nothing else is.
    pruned = "def f(a0):\n    v0 = (float(a0) if -2 <= 0.5 else float(0.5))\n    return v0\n"
    types_only = ((("float", b"1"),), "float64"), ((("float", b"1"),), "float32")
    values_too = ((("float", b"1"),), "float64"), ((("float", b"2"),), "float32")
    assert fuzz_diff.pruned_by_numba(pruned, types_only)
    assert not fuzz_diff.pruned_by_numba(pruned, values_too)
    guarded = "def f(a0):\n    v0 = (float(a0) if a0 <= 0.5 else float(0.5))\n    return v0\n"
    assert not fuzz_diff.pruned_by_numba(guarded, types_only)

