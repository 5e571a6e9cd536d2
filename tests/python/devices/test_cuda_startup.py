"""The CUDA driver's start-up: begun on a thread of its own when kjit.cuda
is imported, before kjit's compiler loads, joined before fork and at exit, and what it retains given back
when the program chooses another device; device memory from the driver's
pool.

These run everywhere: the driver is tests/python/fake_cuda/fake_cuda.c
(KJIT_CUDA_DRIVER), which runs no kernel but answers as a GPU would and
logs the calls looked at here. On the GPU machine the same start-up is
timed by benchmarks/gpu/bench_gpu.py (import + first call)."""
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


# The start-up's calls on device 0's primary context: kjit._cuda_prestart's
# thread retains it first thing; the runtime, made on its own thread once
# kjit's compiler has loaded, retains it too and gives the first reference
# back. One reference is left, the runtime's.
START = ["cuDevicePrimaryCtxRetain 0 thread", "cuDevicePrimaryCtxRetain 0 thread",
         "cuDevicePrimaryCtxRelease 0 thread"]
START_CALLS = ["cuInit -1 thread", "cuDevicePrimaryCtxRetain 0 thread", "cuInit -1 thread",
               "cuDevicePrimaryCtxRetain 0 thread", "cuDevicePrimaryCtxRelease 0 thread"]


def ctx_calls(calls):
    return [c for c in calls if "PrimaryCtx" in c]


def run(fake_driver, tmp_path, code, **env):
    """Runs `code` in a new Python on the fake driver; returns (result, log lines)."""
    log = tmp_path / "calls.log"
    if log.exists():
        log.unlink()
    full = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"), KJIT_CUDA_DRIVER=fake_driver,
                FAKE_CUDA_LOG=str(log))
    for v in ("KJIT_ENABLE_CUDASIM", "NUMBA_ENABLE_CUDASIM", "KJIT_DEVICE"):
        full.pop(v, None)
    full.update(env)
    script = tmp_path / "script.py"  # kernels need their source in a file
    script.write_text(textwrap.dedent(code))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=full, timeout=300,
                       cwd=tmp_path)
    lines = log.read_text().splitlines() if log.exists() else []
    return r, lines


def test_driver_starts_on_a_thread_of_its_own(fake_driver, tmp_path):
    # cuInit and device 0's primary context come from kjit's start-up
    # threads, not from the program's; the program then uses that context:
    # one reference left, the runtime's.
    r, calls = run(fake_driver, tmp_path, """
        import numpy as np
        from kjit import cuda
        @cuda.jit
        def fill(out):
            out[cuda.grid(1)] = 1.0
        d = cuda.to_device(np.zeros(64, np.float32))
        fill[2, 32](d)
        cuda.synchronize()
        print("kind", cuda.device_kind())
    """, FAKE_INIT_MS="50", FAKE_CTX_MS="50")
    assert r.returncode == 0, r.stderr
    assert "kind cuda" in r.stdout
    assert calls[0] == "cuInit -1 thread", calls
    assert calls[1] == "cuDevicePrimaryCtxRetain 0 thread", calls
    assert ctx_calls(calls) == START, calls
    assert "cuLaunchKernel -1 main" in calls


def test_another_device_chosen_first_gives_device_0_back(fake_driver, tmp_path):
    r, calls = run(fake_driver, tmp_path, """
        from kjit import cuda
        cuda.select_device(1)
        print("current", cuda.get_current_device().id)
    """, FAKE_CUDA_DEVICES="2")
    assert r.returncode == 0, r.stderr
    assert "current 1" in r.stdout
    ctx = ctx_calls(calls)
    assert ctx == START + ["cuDevicePrimaryCtxRelease 0 main", "cuDevicePrimaryCtxRetain 1 main"], ctx


def test_device_0_used_then_another_keeps_both(fake_driver, tmp_path):
    # Once the program has used device 0, its context is the program's.
    r, calls = run(fake_driver, tmp_path, """
        import numpy as np
        from kjit import cuda
        a = cuda.to_device(np.ones(4))
        cuda.select_device(1)
        b = cuda.to_device(np.ones(4))
        print("ok")
    """, FAKE_CUDA_DEVICES="2")
    assert r.returncode == 0, r.stderr
    ctx = ctx_calls(calls)
    assert ctx == START + ["cuDevicePrimaryCtxRetain 1 main"], ctx


def test_exit_right_after_import_waits_for_the_start_up(fake_driver, tmp_path):
    # The interpreter does not end under a thread still inside the driver
    # (the start-up takes 2 s here, far longer than the import).
    r, calls = run(fake_driver, tmp_path, "import kjit.cuda\n", FAKE_INIT_MS="2000", FAKE_CTX_MS="100")
    assert r.returncode == 0, r.stderr
    assert calls == START_CALLS, calls


def test_fork_after_import_joins_the_start_up_first(fake_driver, tmp_path):
    # The start-up thread has finished before the process forks (the child
    # reads the log first thing): the child never holds a half-initialised
    # driver, and runs CPU code normally.
    r, calls = run(fake_driver, tmp_path, """
        import os
        import numpy as np
        import kjit
        import kjit.cuda
        pid = os.fork()
        if pid == 0:
            seen = len(open(os.environ["FAKE_CUDA_LOG"]).read().splitlines())
            @kjit.njit
            def total(a):
                s = 0.0
                for x in a:
                    s += x
                return s
            with open("child.txt", "w") as f:
                f.write(f"{seen} {total(np.arange(5.0))}")
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        print("child status", status)
    """, FAKE_INIT_MS="2000", FAKE_CTX_MS="100")
    assert r.returncode == 0, r.stderr
    assert "child status 0" in r.stdout
    # Both threads' start-up calls were logged when the child began.
    assert (tmp_path / "child.txt").read_text() == f"{len(START_CALLS)} 10.0"
    assert calls == START_CALLS, calls


def test_jit_programs_never_start_the_driver(fake_driver, tmp_path):
    # `import kjit` alone (CPU @jit) loads no driver and holds no GPU memory;
    # kjit.cuda is imported at its first use.
    r, calls = run(fake_driver, tmp_path, """
        import sys
        import numpy as np
        import kjit
        @kjit.njit
        def double(x):
            return 2 * x
        print(double(21), "kjit.cuda" in sys.modules)
        print(kjit.cuda.device_kind())
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["42 False", "cuda"], r.stdout
    # The driver was started by the use of kjit.cuda, not before.
    assert calls[:2] == ["cuInit -1 thread", "cuDevicePrimaryCtxRetain 0 thread"], calls


def test_close_then_select_releases_once(fake_driver, tmp_path):
    # cuda.close() gives device 0's warm context back; selecting device 1
    # afterwards must not give it back a second time (another library's
    # reference on the primary context would go).
    r, calls = run(fake_driver, tmp_path, """
        from kjit import cuda
        cuda.get_current_device()
        cuda.close()
        cuda.select_device(1)
        print("current", cuda.get_current_device().id)
    """, FAKE_CUDA_DEVICES="2")
    assert r.returncode == 0, r.stderr
    assert "current 1" in r.stdout
    assert not [c for c in calls if "UNDERFLOW" in c], calls
    assert ctx_calls(calls) == START + ["cuDevicePrimaryCtxRelease 0 main", "cuDevicePrimaryCtxRetain 1 main"], calls


def test_subclass_of_a_kernel_launches(fake_driver, tmp_path):
    # kernel[config] is a C++ lookup installed on CUDAKernel and its subclasses.
    r, calls = run(fake_driver, tmp_path, """
        import numpy as np
        from kjit import cuda
        from kjit.cuda.compiler import CUDAKernel
        class Traced(CUDAKernel):
            pass
        def fill(out):
            out[cuda.grid(1)] = 1.0
        k = Traced(fill)
        d = cuda.to_device(np.zeros(64, np.float32))
        assert k[2, 32] is k[2, 32]
        k[2, 32](d)
        print("launched")
    """)
    assert r.returncode == 0, r.stderr
    assert "launched" in r.stdout and calls.count("cuLaunchKernel -1 main") == 1, calls


def test_kernel_subscript_has_no_python_getitem():
    # A Python __getitem__ on CUDAKernel would be called by the interpreter
    # in place of the C++ lookup (3.11+ specialises subscripts of classes
    # with a Python __getitem__), costing every launch a Python call.
    from kjit.cuda.compiler import CUDAKernel
    assert "__getitem__" not in CUDAKernel.__dict__
    assert not any("__getitem__" in vars(c) for c in CUDAKernel.__mro__[:-1])


def test_cpu_device_and_simulator_start_no_driver(fake_driver, tmp_path):
    for env, kind in (({"KJIT_DEVICE": "cpu"}, "cpu"), ({"KJIT_ENABLE_CUDASIM": "1"}, "simulator"), ({}, "cuda")):
        r, calls = run(fake_driver, tmp_path, """
            from kjit import cuda
            print("kind", cuda.device_kind())
        """, **env)
        assert r.returncode == 0, r.stderr
        assert f"kind {kind}" in r.stdout, (env, r.stdout)
        # The fake driver is loaded on the GPU path only (the last, a positive control).
        assert (calls == []) == (kind != "cuda"), (env, calls)


def test_launch_limits_checked_against_the_device(fake_driver, tmp_path):
    # The launch path's checks, run in CI on the fake device (1024 threads
    # a block): the error names the kernel and the limit, and the process
    # launches a correct kernel afterwards.
    r, calls = run(fake_driver, tmp_path, """
        import numpy as np
        from kjit import cuda
        @cuda.jit
        def fill(out):
            out[cuda.grid(1)] = 1.0
        d = cuda.to_device(np.zeros(4096, np.float32))
        try:
            fill[2, 2048](d)
        except cuda.LaunchConfigError as e:
            print("error:", e)
        fill[4, 1024](d)
        cuda.synchronize()
        print("launched after")
    """)
    assert r.returncode == 0, r.stderr
    assert "error: kernel 'fill' on fake GPU: a block of 2048 threads along x is more than the device's limit of " \
        "1024" in r.stdout, r.stdout
    assert "launched after" in r.stdout
    assert calls.count("cuLaunchKernel -1 main") == 1, calls


def test_lazy_start_leaves_the_driver_alone_until_first_use(fake_driver, tmp_path):
    # KJIT_LAZY_CUDA=1: importing kjit touches no driver (a program may fork
    # and use CUDA in the children); the first use starts it, on the caller's thread.
    r, calls = run(fake_driver, tmp_path, """
        import os
        import numpy as np
        from kjit import cuda
        print("calls at import", len(open(os.environ["FAKE_CUDA_LOG"]).read().splitlines())
              if os.path.exists(os.environ["FAKE_CUDA_LOG"]) else 0)
        d = cuda.to_device(np.ones(4))
        print("kind", cuda.device_kind())
    """, KJIT_LAZY_CUDA="1")
    assert r.returncode == 0, r.stderr
    assert "calls at import 0" in r.stdout and "kind cuda" in r.stdout
    assert calls[:2] == ["cuInit -1 main", "cuDevicePrimaryCtxRetain 0 main"], calls


# ---- device memory: the driver's stream-ordered pool ----------------------------------------

POOL_SCRIPT = """
    import numpy as np
    from kjit import cuda
    for _ in range(3):
        d = cuda.device_array(1000, np.float32)
        del d
    print("ok")
"""


def memory_calls(calls):
    return [c.split()[0] for c in calls if c.split()[0] in
            ("cuMemAlloc", "cuMemFree", "cuMemAllocAsync", "cuMemFreeAsync", "cuCtxSynchronize", "cuMemPoolTrimTo")]


def test_device_memory_comes_from_the_pool(fake_driver, tmp_path):
    # Allocated and freed in the legacy stream's order, no synchronisation.
    r, calls = run(fake_driver, tmp_path, POOL_SCRIPT)
    assert r.returncode == 0, r.stderr
    assert memory_calls(calls) == ["cuMemAllocAsync", "cuMemFreeAsync"] * 3, calls


def test_pool_off_without_driver_pools_or_when_asked(fake_driver, tmp_path):
    for env in ({"FAKE_CUDA_NO_POOLS": "1"}, {"KJIT_CUDA_POOL": "0"}):
        r, calls = run(fake_driver, tmp_path, POOL_SCRIPT, **env)
        assert r.returncode == 0, r.stderr
        assert memory_calls(calls) == ["cuMemAlloc", "cuMemFree"] * 3, (env, calls)


def test_non_blocking_stream_makes_frees_wait(fake_driver, tmp_path):
    # Work on a non-blocking stream is not ordered with the legacy stream the
    # pool frees on; once one is used, a free first waits for the device.
    r, calls = run(fake_driver, tmp_path, """
        import ctypes, os
        import numpy as np
        from kjit import cuda
        lib = ctypes.CDLL(os.environ["KJIT_CUDA_DRIVER"])
        handle = ctypes.c_void_p()
        lib.cuStreamCreate(ctypes.byref(handle), 1)  # CU_STREAM_NON_BLOCKING
        @cuda.jit
        def fill(out):
            out[cuda.grid(1)] = 1.0
        a = cuda.device_array(64, np.float32)
        fill[2, 32, cuda.stream()](a)            # a blocking stream: still ordered
        del a
        b = cuda.device_array(64, np.float32)
        fill[2, 32, cuda.external_stream(handle.value)](b)
        del b
        print("ok")
    """)
    assert r.returncode == 0, r.stderr
    mem = memory_calls(calls)
    # The first sync comes when the non-blocking stream is first seen (what
    # was freed before may still be in use), the second before the free.
    assert mem == ["cuMemAllocAsync", "cuMemFreeAsync", "cuMemAllocAsync", "cuCtxSynchronize", "cuCtxSynchronize",
                   "cuMemFreeAsync"], mem
    launch_on_s = calls.index("cuLaunchKernel -1 main", calls.index("cuLaunchKernel -1 main") + 1)
    assert calls.index("cuCtxSynchronize -1 main") < launch_on_s, calls


def test_start_up_begins_before_the_compiler_loads(fake_driver, tmp_path):
    # `from kjit import cuda` begins the driver's start-up (kjit._cuda_prestart)
    # before kjit's compiler library (LLVM, _kjit) and NumPy load, so that
    # their loading overlaps it. An import hook looks at the moment _kjit is
    # imported: the start-up has begun (a second start is refused) and
    # NumPy is not loaded yet.
    r, calls = run(fake_driver, tmp_path, """
        import os
        import sys
        seen = []
        class Watch:
            def find_spec(self, name, path=None, target=None):
                if name == "kjit._kjit" and not seen:
                    pre = sys.modules.get("kjit._cuda_prestart")
                    seen.append((pre is not None and pre.start(os.environ["KJIT_CUDA_DRIVER"]) is False,
                                 "numpy" in sys.modules))
                return None
        sys.meta_path.insert(0, Watch())
        from kjit import cuda
        print("at _kjit's import: started", seen[0][0], "numpy", seen[0][1])
        print("device", cuda.get_current_device().name)
    """, FAKE_INIT_MS="100")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["at _kjit's import: started True numpy False", "device fake GPU"], r.stdout
    assert ctx_calls(calls) == START, calls


def test_import_kjit_loads_neither_compiler_nor_numpy(tmp_path):
    # `import kjit` is cheap: the compiler and NumPy load at the first use of
    # a name that needs them; every public name is there, `from kjit import *`
    # gives them all, and `kjit.vectorize` stays the decorator when its
    # package (kjit/vectorize/) is imported first.
    script = tmp_path / "lazy.py"
    script.write_text(textwrap.dedent("""
        import sys
        import kjit
        print("at import:", "kjit._kjit" in sys.modules, "numpy" in sys.modules)
        import kjit.vectorize
        from kjit.vectorize import CUDAUFunc
        from kjit import vectorize
        print(type(vectorize).__name__, type(kjit.vectorize).__name__, type(kjit.guvectorize).__name__)
        f = kjit.njit(lambda x: x + 1)
        print("after kjit.njit:", "kjit._kjit" in sys.modules, f(41))
        ns = {}
        exec("from kjit import *", ns)
        print(sorted(n for n in ("jit", "njit", "prange", "vectorize", "guvectorize", "Dispatcher", "float32",
                                 "int64", "void", "TypingError", "dispatcher", "cuda") if n in ns),
              type(ns["vectorize"]).__name__)
        print("cuda" in dir(kjit), "kjit.cuda" in sys.modules)
        try:
            kjit.no_such_name
        except AttributeError as e:
            print(e)
    """))
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "at import: False False",
        "function function function",
        "after kjit.njit: True 42",
        "['Dispatcher', 'TypingError', 'dispatcher', 'float32', 'guvectorize', 'int64', 'jit', 'njit', 'prange', "
        "'vectorize', 'void'] function",
        "True False",
        "module 'kjit' has no attribute 'no_such_name'",
    ], r.stdout
