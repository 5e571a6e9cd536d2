"""cache=True: compiled code on disk, keyed by everything it depends on."""
import os
import subprocess
import sys
import textwrap

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")

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


def env_for(tmp_path):
    return dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"), KJIT_CACHE_DIR=str(tmp_path / "cache"))


def run(tmp_path, scale=2.0, offset=1.0, full=False):
    src = tmp_path / "prog.py"
    src.write_text(textwrap.dedent(PROGRAM.format(scale=scale, offset=offset)))
    r = subprocess.run([sys.executable, str(src)], capture_output=True, text=True, env=env_for(tmp_path),
                       timeout=120)
    assert r.returncode == 0, r.stderr
    return (float(r.stdout.strip()), r.stderr) if full else float(r.stdout.strip())


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


def test_a_corrupt_or_truncated_entry_is_rebuilt_with_a_warning(tmp_path):
    assert run(tmp_path) == 16.0
    (name,) = cache_files(tmp_path)
    path = tmp_path / "cache" / name
    good = path.read_bytes()
    data = bytearray(good)
    data[len(data) // 2] ^= 0xFF  # one flipped byte: the checksum differs
    path.write_bytes(bytes(data))
    value, err = run(tmp_path, full=True)
    assert value == 16.0
    assert "NumbaWarning: kjit: the cache entry of total() at " in err and "is corrupt or truncated" in err, err
    assert path.read_bytes() == good  # rewritten whole (the same code, compiled again)
    for cut in (len(good) // 2, 5, 0):  # truncated: in the middle, inside the header, empty
        path.write_bytes(good[:cut])
        value, err = run(tmp_path, full=True)
        assert value == 16.0 and "compiled again and rewritten" in err and "truncated" in err, (cut, err)
        assert path.read_bytes() == good
    path.write_bytes(b"not a cache entry at all, but long enough to hold a header and a checksum" * 2)
    value, err = run(tmp_path, full=True)
    assert value == 16.0 and "is not a kjit cache entry" in err, err
    value, err = run(tmp_path, full=True)  # and now a good one again: no warning
    assert value == 16.0 and "NumbaWarning" not in err, err


STRESS = """
import os, sys, warnings
import numpy as np
from kjit import njit
from kjit.errors import NumbaWarning

warnings.simplefilter("error", NumbaWarning)  # a half-written entry read would fail the process

def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * 2.0 + 1.0
    return s

cache = os.environ["KJIT_CACHE_DIR"]
me = int(sys.argv[1])
for k in range(40):
    f = njit(cache=True)(total)  # a new dispatcher: it reads the disk (or compiles and writes)
    assert f(np.arange(4.0)) == 16.0
    if (k + me) % 4 == 0:  # and now and then the entry goes, so that others write it again
        for name in os.listdir(cache) if os.path.isdir(cache) else []:
            if name.endswith(".kjitc"):
                try:
                    os.remove(os.path.join(cache, name))
                except FileNotFoundError:
                    pass
print("ok")
"""


def test_processes_at_once_never_read_a_half_written_entry(tmp_path):
    # Six processes compile, write, read and delete the same entry at once:
    # writes go to a file of their own renamed into place, so a reader sees
    # no entry or a whole one (a half-written one would be a warning, made
    # an error here).
    src = tmp_path / "stress.py"
    src.write_text(STRESS)
    procs = [subprocess.Popen([sys.executable, str(src), str(k)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env_for(tmp_path)) for k in range(6)]
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0 and out.strip() == "ok", err
    left = cache_files(tmp_path)
    assert all(n.endswith(".kjitc") for n in left), left  # no temporary file left behind
