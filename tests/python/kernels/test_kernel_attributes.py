"""Numba's kernel object: ``overloads``, ``specialize``, the compiled
kernels' attributes (registers, shared, local and constant memory, max
threads per block), ``inspect_asm`` / ``inspect_sass``, eager signatures
given as argument types, the options ``lto``, ``shared_memory_carveout`` and
``forceinline``; and two inputs that must not end the process."""
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

KERNELS = """
    import numpy as np
    from kjit import cuda
    from kjit.types import void, float32, float64, int32

    @cuda.jit
    def smem(ary):
        sm = cuda.shared.array(10, dtype=ary.dtype)
        lm = cuda.local.array(1000, dtype=ary.dtype)
        for j in range(10):
            sm[j] = j
        for j in range(1000):
            lm[j] = j
        for j in range(10):
            ary[j] = sm[j] + lm[j]
"""


def test_attributes_on_the_cpu_device(run_on_device):
    run_on_device(KERNELS + """
    d32 = cuda.to_device(np.zeros(10, np.float32))
    smem[1, 1](d32)
    smem[1, 1](cuda.to_device(np.zeros(10, np.float64)))
    # overloads: argument types -> the compiled kernel
    assert set(smem.overloads) == {(float32[::1],), (float64[::1],)}
    # one signature: a number; none: a dict by argument types
    assert smem.get_shared_mem_per_block(void(float32[::1])) == 40
    assert smem.get_shared_mem_per_block() == {(float32[::1],): 40, (float64[::1],): 80}
    assert smem.get_local_mem_per_thread(void(float64[::1])) >= 8000
    assert smem.get_regs_per_thread(void(float32[::1])) == 0   # no GPU registers on the CPU
    assert smem.get_const_mem_size(void(float32[::1])) == 0
    assert smem.get_max_threads_per_block(void(float32[::1])) == 1024
    assert ".text" in smem.inspect_asm(void(float32[::1]))      # the host assembly
    try:
        smem.inspect_sass(void(float32[::1]))
        raise AssertionError("no SASS on the CPU device")
    except RuntimeError as e:
        assert "CPU device" in str(e)
    """)


def test_specialize_and_argument_type_signatures(run_on_device):
    run_on_device(KERNELS + """
    s = smem.specialize(float32[::1])            # types or values
    assert s.specialized and not smem.specialized
    assert smem.specialize(np.zeros(3, np.float32)) is s and len(smem.specializations) == 1
    assert s.get_shared_mem_per_block() == 40     # one signature: a number
    try:
        s.specialize(float32[::1])
        raise AssertionError("specialized twice")
    except RuntimeError as e:
        assert "already specialized" in str(e)

    def put(a, x):
        a[0] = x
    k = cuda.jit((int32[::1], float32))(put)      # one eager signature, as argument types
    k2 = cuda.jit("(int32[::1], float32)")(put)
    assert k.specialized and list(k.overloads) == [(int32[::1], float32)] == list(k2.overloads)
    many = cuda.jit([void(int32[::1], float32), void(int32[::1], float64)])(put)
    assert not many.specialized and len(many.overloads) == 2
    """)


def test_options_lto_carveout_forceinline(run_on_device):
    run_on_device("""
    from kjit import cuda
    def f(a):
        a[0] = 1
    cuda.jit(lto=True, forceinline=True, shared_memory_carveout="MaxL1")(f)
    cuda.jit(shared_memory_carveout=50)(f)
    for bad, exc in ((200, ValueError), ("half", ValueError), (1.5, TypeError)):
        try:
            cuda.jit(shared_memory_carveout=bad)(f)
            raise AssertionError(bad)
        except exc:
            pass
    """)


def test_attributes_from_the_driver(fake_driver, tmp_path):
    # On a GPU the numbers are cuFuncGetAttribute's (the fake driver says 16 registers).
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent(KERNELS + """
    d = cuda.to_device(np.zeros(10, np.float32))
    smem[1, 1](d)
    assert list(smem.overloads) == [(float32[::1],)]
    assert smem.get_regs_per_thread() == {(float32[::1],): 16}   # not specialized: a dict
    assert smem.get_max_threads_per_block(void(float32[::1])) == 1024
    assert isinstance(smem.get_local_mem_per_thread(void(float32[::1])), int)
    assert ".entry" in smem.inspect_asm(void(float32[::1]))      # the PTX
    print("ok")
    """))
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"), KJIT_CUDA_DRIVER=fake_driver,
               KJIT_DEVICE="cuda")
    for v in ("KJIT_ENABLE_CUDASIM", "NUMBA_ENABLE_CUDASIM"):
        env.pop(v, None)
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300,
                       cwd=tmp_path)
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout + r.stderr


def test_unknown_compute_capability_is_clamped(run_on_device):
    # LLVM 19 knows no sm_100: kjit compiles for the newest target it knows
    # (sm_90), which the driver compiles forward, instead of aborting.
    r = run_on_device("""
    from kjit import cuda
    def k(x):
        x[0] = cuda.shfl_sync(0xffffffff, x[1], 0)
    ptx, _ = cuda.compile_ptx(k, "void(int32[:])", cc=(10, 0))
    assert ".target sm_90" in ptx
    print("still running")
    """)
    assert "still running" in r.stdout


def test_empty_tuple_arguments(run_on_device):
    # NVPTX takes no empty parameter: a kernel's () has none; a device
    # function's is a clear TypeError, not an abort.
    r = run_on_device("""
    import numpy as np
    from kjit import cuda
    def k(t, x):
        x[0] = 1
    try:
        cuda.compile_ptx(k, "void(Tuple(), int32[:])")
    except TypeError as e:
        assert "empty tuple" in str(e), e
    @cuda.jit
    def e(t, x):
        x[0] = 1
    key = e._dispatcher._argument_key(((), np.zeros(2, np.int32)))
    ptx = e._dispatcher._cuda_kernel_for(key, 90)[2]  # a kernel takes (): no parameter for it
    assert ptx.count(".param .") == 3, ptx      # x: pointer, shape, stride
    key = e._dispatcher._argument_key((((), 1), np.zeros(2, np.int32)))
    ptx = e._dispatcher._cuda_kernel_for(key, 90)[2]  # () beside a value: an aggregate of 8 bytes
    assert ".param .align 8 .b8 e_param_0[8]" in ptx, ptx
    print("still running")
    """)
    assert "still running" in r.stdout


def test_overloads_keys_are_type_objects_made_from_the_compiled_types(run_on_device):
    # The compiled kernel's argument types reach Python as kjit.types objects
    # built from the driver's types (_cuda_argument_types), equal to what
    # reading the driver's type names back gives (kjit.typeof.type_of_name).
    run_on_device("""
    import numpy as np
    from kjit import cuda
    from kjit import types as kt
    from kjit.typeof import type_of_name

    @cuda.jit
    def k(a, b, t, u, x, r):
        pass

    rec = np.dtype([("x", np.float32), ("n", np.int16)])
    args = (np.zeros((2, 3), np.float64), np.zeros((3, 2), np.int8).T, (1, 2), (1, 2.5),
            np.float32(1.5), np.zeros(3, rec))
    k[1, 1](*args)
    (types,) = k.overloads
    assert types[0] == kt.float64[:, ::1] and types[1] == kt.int8[::1, :], types
    assert types[2] == kt.UniTuple(kt.int64, 2) and types[3] == kt.Tuple([kt.int64, kt.float64])
    assert types[4] is kt.float32
    d = k._dispatcher
    key = d._argument_key(args)
    assert d._cuda_argument_types(key) == tuple(type_of_name(n) for n in d._cuda_resolved_types(key))
    assert k.specialize(*args).overloads.keys() == k.overloads.keys()
    """)
