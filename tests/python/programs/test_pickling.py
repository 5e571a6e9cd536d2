"""Jitted functions travel: pickle, multiprocessing (spawn) and Dask.

A kjit function pickles by value, as Numba's do (kjit/serialize.py): the
process that unpickles it never needs the source; it compiles on first use
from the file if it can read it, else from the bytecode.
"""
import multiprocessing
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

from kjit import cuda, guvectorize, njit, vectorize

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/python
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))


def make_functions():
    # Local functions: plain pickle cannot take them by name.
    @njit
    def triple(x):
        return x * 3

    @njit
    def weighted_sum(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += triple(a[i]) * i
        return s

    @vectorize(["float64(float64)"])
    def plus_one(x):
        return x + 1.0

    @guvectorize(["void(float64[:], float64[:])"], "(n)->()")
    def total(a, out):
        out[0] = 0.0
        for x in a:
            out[0] += x

    @cuda.jit
    def scale(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = triple(a[i])

    return weighted_sum, plus_one, total, scale


def test_pickle_round_trip_in_this_process():
    funcs = make_functions()
    again = pickle.loads(pickle.dumps(funcs))
    # Within one process, unpickling gives back the same objects.
    assert all(a is b for a, b in zip(funcs, again))
    assert again[0](np.arange(4.0)) == 3 * (0 + 1 + 4 + 9)


CHILD = """
import pickle, sys
import numpy as np
weighted_sum, plus_one, total, scale = pickle.loads(sys.stdin.buffer.read())
a = np.arange(4.0)
scale[1, 4](a)
print(weighted_sum(np.arange(4.0)), plus_one(np.arange(3.0)).tolist(), float(total(np.arange(5.0))), a.tolist())
"""


def test_a_process_that_never_saw_the_source_compiles_and_runs():
    payload = pickle.dumps(make_functions())
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"), KJIT_DEVICE="cpu")
    r = subprocess.run([sys.executable, "-c", CHILD], input=payload, capture_output=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode().split("\n")[0] == "42.0 [1.0, 2.0, 3.0] 10.0 [0.0, 3.0, 6.0, 9.0]"


def _cached_norm():
    @njit(cache=True)
    def norm2(a):
        s = 0.0
        for x in a:
            s += x * x
        return s

    return norm2


def _run_in_worker(f, a):
    return f(a), f._cache_hits()


def test_multiprocessing_spawn_with_the_same_cache_behaviour(tmp_path, monkeypatch):
    monkeypatch.setenv("KJIT_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.path.join(ROOT, "python_bindings"))
    f = _cached_norm()
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        first = pool.starmap(_run_in_worker, [(f, np.arange(3.0))])
    files = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    assert first == [(5.0, 0)] and files  # compiled in the worker, written to the cache
    with ctx.Pool(1) as pool:
        second = pool.starmap(_run_in_worker, [(f, np.arange(3.0))])
    assert second == [(5.0, 1)]  # a new worker reads what the first wrote
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == files


def test_dask_local_cluster_maps_a_jitted_function_over_partitions():
    distributed = pytest.importorskip("distributed")
    weighted_sum = make_functions()[0]
    parts = [np.arange(float(n)) for n in range(1, 9)]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as client:
        futures = client.map(weighted_sum, parts)
        got = client.gather(futures)
    want = [float(sum(3 * x * i for i, x in enumerate(p))) for p in parts]
    assert got == want


CARRIED_MODULE = '''from kjit import njit


@njit
def count_in(a, lo, hi):
    n_in = 0
    for i in range(a.shape[0]):
        if lo <= a[i] < hi:
            n_in += 1
    return n_in, lo < hi <= a.shape[0], not (lo > hi)


@njit
def wrong(x):
    y = x + 1
    return y + "text"
'''

SENDER = """
import pickle, sys
sys.path.insert(0, sys.argv[1])
import carried
sys.stdout.buffer.write(pickle.dumps((carried.count_in, carried.wrong)))
"""

RECEIVER = """
import pickle, sys
import numpy as np
count_in, wrong = pickle.loads(sys.stdin.buffer.read())
print(count_in(np.arange(10), 2, 5), count_in._frontend)
try:
    wrong(1)
except Exception as e:
    print(str(e))
"""


def test_a_pickled_function_carries_its_source_text(tmp_path):
    # Pickled where its file exists, unpickled after the file is gone: the
    # receiver compiles the text the sender read, not the bytecode, and its
    # messages quote the line.
    (tmp_path / "carried.py").write_text(CARRIED_MODULE)
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"), KJIT_DEVICE="cpu")
    env.pop("KJIT_FRONTEND", None)
    sent = subprocess.run([sys.executable, "-c", SENDER, str(tmp_path)], capture_output=True, env=env, timeout=300)
    assert sent.returncode == 0, sent.stderr.decode()
    os.remove(tmp_path / "carried.py")
    r = subprocess.run([sys.executable, "-c", RECEIVER], input=sent.stdout, capture_output=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr.decode()
    out = r.stdout.decode()
    assert out.splitlines()[0] == "(3, True, True) source", out
    assert "carried.py:16:" in out and 'return y + "text"' in out, out
