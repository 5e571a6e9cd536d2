"""Loads and stores with a cache policy, as numba-cuda has them:
``cuda.ldca/ldcg/ldcs/ldlu/ldcv(array, index)`` and
``cuda.stcg/stcs/stwb/stwt(array, index, value)``; the index is an integer
(1-d) or a tuple of integers, one per dimension, negative ones counted from
the end. On NVIDIA GPUs they are ``ld.global.<policy>.b<bits>`` and
``st.global.<policy>.b<bits>``; the CPU device and AMD GPUs load and store
with volatile accesses (never merged or hoisted, as the PTX), the simulator
plainly. Also: kernel-language names reached through a
global or closure variable (``from kjit.cuda import ldcs``, ``op = cuda.ldcs``)."""
import subprocess

import pytest
from conftest import find_ptxas

from kjit import cuda, errors, types

LOADS = (("ldca", "ca"), ("ldcg", "cg"), ("ldcs", "cs"), ("ldlu", "lu"), ("ldcv", "cv"))
STORES = (("stcg", "cg"), ("stcs", "cs"), ("stwb", "wb"), ("stwt", "wt"))
DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
          "float32", "float64")

EVERY_POLICY = """
import numpy as np
from kjit import cuda

DTYPES = %r

def check(load, store):
    @cuda.jit
    def copy_1d(r, x):
        for i in range(len(r)):
            store(r, i, load(x, i))

    @cuda.jit
    def copy_2d(r, x):
        for i in range(x.shape[0]):
            for j in range(x.shape[1]):
                store(r, (i, j), load(x, (i, j)))

    @cuda.jit
    def last(r, x):
        r[0] = load(x, -1)            # negative indices count from the end

    for ty in DTYPES:
        x = np.arange(12).astype(ty)
        r = np.zeros_like(x)
        copy_1d[1, 1](r, x)
        assert (r == x).all(), (load, store, ty)
        x2, r2 = x.reshape(3, 4), np.zeros((3, 4), ty)
        copy_2d[1, 1](r2, x2)
        assert (r2 == x2).all(), (load, store, ty)
        last[1, 1](r, x)
        assert r[0] == x[-1]

for load, store in zip((cuda.ldca, cuda.ldcg, cuda.ldcs, cuda.ldlu, cuda.ldcv),
                       (cuda.stcg, cuda.stcs, cuda.stwb, cuda.stwt, cuda.stcg)):
    check(load, store)
print("ok")
""" % (DTYPES,)


@pytest.mark.parametrize("device", ["cpu", "sim", None], ids=["cpu", "sim", "default"])
def test_every_policy_loads_and_stores_every_type(run_on_device, device):
    # `load` and `store` are closure variables naming kernel-language functions.
    assert run_on_device(EVERY_POLICY, device=device).stdout.strip() == "ok"


@pytest.mark.parametrize("dtype", DTYPES)
def test_the_ptx_has_the_policy(dtype, tmp_path):
    t = getattr(types, dtype)
    bits = 8 * {"int8": 1, "uint8": 1, "int16": 2, "uint16": 2, "float16": 2, "int32": 4,
                "uint32": 4, "float32": 4}.get(dtype, 8)
    for (load, lmod), (store, smod) in zip(LOADS, STORES + (("stcg", "cg"),)):
        ld, st = getattr(cuda, load), getattr(cuda, store)

        def k(r, x, i):
            st(r, i, ld(x, i))

        ptx, _ = cuda.compile_ptx(k, (t[::1], t[::1], types.int64), cc=(9, 0))
        assert f"ld.global.{lmod}.b{bits} " in ptx, (load, ptx)
        assert f"st.global.{smod}.b{bits} " in ptx, (store, ptx)
        ptxas = find_ptxas()
        if ptxas:
            path = tmp_path / f"{load}.ptx"
            path.write_text(ptx)
            r = subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "k.o")],
                               capture_output=True, text=True)
            assert r.returncode == 0, r.stderr
    if find_ptxas() is None:
        pytest.skip("ptxas is not installed: the PTX was checked, not assembled")


@pytest.mark.parametrize("fn, sig, message", [
    (lambda x: cuda.ldcs(x, 1.0), (types.float32[::1],), "ldcs: float64 is not a valid index"),
    (lambda x: cuda.ldcs(x, (1, 2)), (types.float32[::1],), "ldcs: Expected 1 indices, got 2"),
    (lambda x: cuda.ldcs(x, 1), (types.float32[:, ::1],), "ldcs: Expected 2 indices, got a scalar"),
    (lambda x: cuda.ldcs(x, (1,)), (types.float32[:, ::1],), "ldcs: Expected 2 indices, got 1"),
    (lambda x: cuda.stcs(x, 0, cuda.ldcs(x, 0)), (types.complex64[::1],),
     "ldcs requires array of integer or float type, not complex64"),
    (lambda x: cuda.stwt(x, 0, True), (types.boolean[::1],),
     "stwt requires array of integer or float type, not bool"),
], ids=["float-index", "too-many", "scalar-for-2d", "too-few", "complex", "bool"])
def test_numbas_checks_and_words(fn, sig, message):
    with pytest.raises(errors.TypingError) as ei:
        cuda.compile_ptx(fn, sig)
    assert message in str(ei.value)
    assert f"{__file__}:" in str(ei.value)


def test_amd_gpus_load_and_store_as_volatile_accesses():
    def k(r, x):
        cuda.stcs(r, 0, cuda.ldcs(x, 0))

    code, _ = cuda.compile_amdgcn(k, (types.float32[::1], types.float32[::1]), arch="gfx90a")
    # Volatile there, like the PTX (a loop polling with ldcv reads memory
    # each time): the load bypasses the cache (glc).
    assert "load_dword v" in code and " glc" in code and "store_dword v" in code


GLOBAL_NAMES = """
import numpy as np
from kjit import cuda
from kjit.cuda import ldcs, stcs, syncthreads, threadIdx, shared

@cuda.jit
def k(r, x):
    buf = shared.array(4, np.float64)
    buf[threadIdx.x] = ldcs(x, threadIdx.x)
    syncthreads()
    stcs(r, threadIdx.x, buf[3 - threadIdx.x])

x = np.arange(4.0)
r = np.zeros(4)
k[1, 4](r, x)
assert r.tolist() == [3.0, 2.0, 1.0, 0.0], r
print("ok")
"""


@pytest.mark.parametrize("device", ["cpu", "sim"])
def test_kernel_language_names_imported_by_name(run_on_device, device):
    # `from numba.cuda import syncthreads` and its kind: the names are the
    # kernel language's wherever a kernel reads them from.
    assert run_on_device(GLOBAL_NAMES, device=device).stdout.strip() == "ok"
