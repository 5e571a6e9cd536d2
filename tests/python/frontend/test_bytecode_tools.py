"""The bytecode frontend against random programs and the test corpus.

tools/bytecode_fuzz.py makes random structured programs (if/elif/else,
while and for with break/continue/else, early returns, and/or, chained
comparisons, conditional expressions, tuple and augmented assignments,
try/except, calls with side effects), rebuilds each from its bytecode and
runs both: the rebuilt function must behave as the original, or be refused
with Unsupported (never a wrong program, an exception of another kind, or a
hang). tools/bytecode_corpus.py rebuilds every kjit-decorated function of
the tests and examples and compares the instructions CPython compiles from
the rebuilt text with the original's.

Both run here under this Python, and under CPython 3.12 and 3.13 where
those are installed (pyenv's, for instance): the frontend's code differs
between versions.
"""
import glob
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/python
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
TOOLS = os.path.join(ROOT, "tools")


def other_pythons():
    """CPython 3.12 and 3.13 interpreters found on this machine."""
    found = {}
    for ver in ("3.12", "3.13"):
        cands = [f"/usr/bin/python{ver}", f"/usr/local/bin/python{ver}"] + \
            sorted(glob.glob(os.path.expanduser(f"~/.pyenv/versions/{ver}.*/bin/python{ver}")))
        for c in cands:
            if os.path.exists(c):
                found[ver] = c
                break
    return found


def test_random_programs_rebuild_or_are_refused():
    sys.path.insert(0, TOOLS)
    try:
        import bytecode_fuzz
    finally:
        sys.path.remove(TOOLS)
    import io
    log = io.StringIO()
    # (The guard is for hangs: the largest programs' refused rebuilds walk
    # up to the step limit, about 2.5 s here, longer on a loaded machine.)
    bytecode_fuzz.SLOW_S = 30
    counts = bytecode_fuzz.run(200, seed=7, out=log)
    assert counts["DIVERGES"] == 0 and counts["CRASH"] == 0 and counts["SLOW"] == 0, log.getvalue()
    # Not everything is refused: about 70 % of the programs come back.
    assert counts["same"] + counts["equivalent"] >= 40, log.getvalue()


# Rebuilt texts that compile to other instructions than the original and
# were read to be equivalent (the key: CPython version, file, function).
REVIEWED = {
    # An except clause whose try body always raises: the statements after
    # the try come back inside the clause (no exception can reach them there).
    ("3.11", "tests/python/njit/test_njit_try.py", "f"),
    ("3.12", "tests/python/njit/test_njit_try.py", "f"),
    ("3.13", "tests/python/njit/test_njit_try.py", "f"),
    # `return a if c else b` comes back as two returns, and `if c: body` at
    # the end of a loop as `if not c: continue` (3.12 lays both out so).
    ("3.12", "examples/jit_basics.py", "rms_above"),
    ("3.13", "examples/jit_basics.py", "rms_above"),
    # An if/else that ends the function comes back as `if c: body; return`
    # followed by the else branch's statements.
    ("3.11", "examples/gemm_hopper.py", "gemm"),
    ("3.12", "examples/gemm_hopper.py", "gemm"),
    ("3.13", "examples/gemm_hopper.py", "gemm"),
    ("3.11", "examples/attention_hopper.py", "attention"),
    ("3.12", "examples/attention_hopper.py", "attention"),
    ("3.13", "examples/attention_hopper.py", "attention"),
}


def _corpus(python, tmp_path):
    out = tmp_path / "corpus.json"
    r = subprocess.run([python, os.path.join(TOOLS, "bytecode_corpus.py"), "--json", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert out.exists(), r.stdout + r.stderr
    return json.loads(out.read_text()), r.stdout


def _check_corpus(data, text):
    ver = data["python"]
    assert data["counts"]["same"] >= 250, text
    unexpected = [d for d in data["differences"]
                  if (ver, d.split(":")[0], d.split()[-1]) not in REVIEWED]
    assert not unexpected, text


def test_corpus_rebuilds_to_the_same_instructions(tmp_path):
    data, text = _corpus(sys.executable, tmp_path)
    _check_corpus(data, text)


@pytest.mark.parametrize("ver", ["3.12", "3.13"])
def test_other_pythons(ver, tmp_path):
    python = other_pythons().get(ver)
    if python is None:
        pytest.skip(f"no CPython {ver} on this machine")
    r = subprocess.run([python, os.path.join(TOOLS, "bytecode_fuzz.py"), "--programs", "150", "--seed", "11",
                        "--slow", "30"],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    data, text = _corpus(python, tmp_path)
    _check_corpus(data, text)
