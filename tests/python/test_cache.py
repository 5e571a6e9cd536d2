"""cache=True: compiled code on disk, keyed by everything it depends on."""
import os
import subprocess
import sys
import textwrap

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")

PROGRAM = """
import numpy as np
from kjit import njit

SCALE = {scale}

@njit(cache=True)
def helper(x):
    return x * SCALE + {offset}

@njit(cache=True)
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += helper(a[i])
    return s

print(total(np.arange(4.0)))
"""


def run(tmp_path, scale=2.0, offset=1.0):
    src = tmp_path / "prog.py"
    src.write_text(textwrap.dedent(PROGRAM.format(scale=scale, offset=offset)))
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"),
               KJIT_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, str(src)], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    return float(r.stdout.strip())


def cache_files(tmp_path):
    d = tmp_path / "cache"
    return sorted(p.name for p in d.iterdir()) if d.exists() else []


def test_cache_is_written_and_reused(tmp_path):
    assert run(tmp_path) == sum(x * 2.0 + 1.0 for x in range(4))
    files = cache_files(tmp_path)
    assert len(files) == 1 and files[0].startswith("total-") and files[0].endswith(".kjitc")
    stamp = os.stat(tmp_path / "cache" / files[0]).st_mtime_ns
    assert run(tmp_path) == 16.0  # a second process: loaded, not rewritten
    assert os.stat(tmp_path / "cache" / files[0]).st_mtime_ns == stamp
    assert cache_files(tmp_path) == files


def test_a_changed_callee_or_global_changes_the_key(tmp_path):
    assert run(tmp_path) == 16.0
    assert run(tmp_path, offset=3.0) == sum(x * 2.0 + 3.0 for x in range(4))  # callee source changed
    assert run(tmp_path, scale=1.0) == sum(x + 1.0 for x in range(4))  # a global changed
    assert len(cache_files(tmp_path)) == 3


def test_a_corrupt_cache_file_is_ignored_and_rebuilt(tmp_path):
    assert run(tmp_path) == 16.0
    (name,) = cache_files(tmp_path)
    path = tmp_path / "cache" / name
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    assert run(tmp_path) == 16.0
    assert path.read_bytes() != bytes(data)  # replaced by a good entry
    path.write_bytes(b"")
    assert run(tmp_path) == 16.0
