"""The CPU device (docs/cpu_device.md): errors, the host API over host memory,
and what the fibers must get right. The programs that must match every
device are in kernel_programs.py (test_kernels_devices.py). These tests run
in a subprocess on the device "cpu" (the run_on_device fixture,
conftest.py), so that they test the CPU device on the GPU machine too."""


def test_divergent_syncthreads_is_an_error_naming_both_sites_then_the_process_goes_on(run_on_device):
    r = run_on_device("""
        import numpy as np
        from kjit import cuda

        @cuda.jit
        def divergent(x):
            t = cuda.threadIdx.x
            if t < 16:
                cuda.syncthreads()
            else:
                x[t] = 1
                cuda.syncthreads()

        @cuda.jit
        def fine(x):
            x[cuda.threadIdx.x] = 2
            cuda.syncthreads()

        x = np.zeros(64, np.float32)
        try:
            divergent[2, 64](x)
            print("no error")
        except RuntimeError as e:
            print("error:", e)
        fine[1, 64](x)
        print("after:", x.sum())
    """)
    out = r.stdout
    assert "error: divergent barrier in block (" in out
    assert "thread (0, 0, 0) waits at syncthreads() at " in out
    assert ":9:9" in out and ":12:9" in out  # both barriers, by line and column
    assert "(in kernel 'divergent')" in out
    assert "after: 128.0" in out


def test_barrier_after_early_return_works_as_on_the_gpu(run_on_device):
    r = run_on_device("""
        import numpy as np
        from kjit import cuda

        @cuda.jit
        def early_exit(x):
            t = cuda.grid(1)
            if t >= x.shape[0]:
                return
            cuda.syncthreads()
            x[t] = 2

        x = np.zeros(50, np.float32)
        early_exit[1, 64](x)
        print("sum", x.sum())
    """)
    out = r.stdout
    assert "sum 100.0" in out


def test_kernel_exception_names_kernel_file_line_block_and_thread(run_on_device):
    r = run_on_device("""
        import numpy as np
        from kjit import cuda

        @cuda.jit(boundscheck=True)
        def oob(a):
            i = cuda.grid(1)
            a[i] = 1.0

        def raises(a):
            i = cuda.grid(1)
            if i == 37:
                raise ValueError("bad element")
            a[i] = 1.0

        try:
            oob[(3, 1), 8](np.zeros(20))
        except IndexError as e:
            print("index:", e)
        try:
            cuda.jit(debug=True)(raises)[4, 16](np.zeros(64))
        except ValueError as e:
            print("value:", e, e.thread, e.block)
        a = np.zeros(64)
        cuda.jit(raises)[4, 16](a)   # without debug=True: thread 37 stops, unreported (Numba's rule)
        print("quiet:", a[36], a[37], a[38])
    """)
    out = r.stdout
    line = [ln for ln in out.splitlines() if ln.startswith("index:")][0]
    assert line.startswith("index: In function 'oob', file ") and ".py, line 8, " in line
    assert line.endswith(" tid=[4, 0, 0] ctaid=[2, 0, 0]: index 20 is out of bounds for axis 0 with size 20")
    line = [ln for ln in out.splitlines() if ln.startswith("value:")][0]
    assert line.startswith("value: In function 'raises', file ") and ".py, line 13, " in line
    assert line.endswith("tid=[5, 0, 0] ctaid=[2, 0, 0]: bad element (5, 0, 0) (2, 0, 0)")
    assert "quiet: 1.0 0.0 1.0" in out


def test_launch_config_is_checked_as_on_a_gpu(run_on_device):
    r = run_on_device("""
        import numpy as np
        from kjit import cuda

        @cuda.jit
        def k(x):
            x[cuda.grid(1)] = 1

        for cfg in [(1, 2048), (1, (32, 33)), (0, 32), (1, (1, 1, 65)), (1.5, 32), ("12", 32)]:
            try:
                k[cfg](np.zeros(4096))
                print("launched", cfg)
            except cuda.LaunchConfigError as e:
                print("refused:", e)
        x = np.zeros(64)
        k[2, 32](x)
        print("after", x.sum())
    """)
    out = r.stdout
    assert out.count("refused: kernel 'k'") == 6, out
    assert "the grid must be an int or a tuple of 1 to 3 ints, not 1.5" in out
    assert "not '12'" in out
    assert "a block of 2048 threads along x is more than the device's limit of 1024" in out
    assert "1056 threads per block" in out
    assert "after 64.0" in out


def test_host_api_on_the_cpu_device(run_on_device):
    r = run_on_device("""
        import numpy as np
        from kjit import cuda

        print("kind", cuda.device_kind(), cuda.is_available(), cuda.get_current_device().name)
        a = np.arange(10, dtype=np.float32)
        d = cuda.to_device(a)
        a[0] = 99                       # a device array is a copy
        print("copy", d.copy_to_host()[0])
        print("interface", "data" in d.__array_interface__, hasattr(d, "__cuda_array_interface__"))
        e0, e1 = cuda.event(), cuda.event()
        s = cuda.stream()
        e0.record(s)
        out = cuda.device_array_like(d)

        @cuda.jit
        def twice(x, o):
            i = cuda.grid(1)
            if i < x.shape[0]:
                o[i] = 2 * x[i]

        twice[1, 32, s](d, out)
        e1.record(s)
        e1.synchronize()
        print("ms>=0", cuda.event_elapsed_time(e0, e1) >= 0)
        print("result", out.copy_to_host().tolist()[:3])
        print("reduce", cuda.reduce(lambda p, q: p + q)(np.arange(1000.0)))
    """)
    out = r.stdout
    assert "kind cpu True kjit CPU device" in out
    assert "copy 0.0" in out
    assert "interface True True" in out  # the CUDA Array Interface gives a host pointer
    assert "ms>=0 True" in out
    assert "result [0.0, 2.0, 4.0]" in out
    assert "reduce 499500.0" in out


def test_no_gpu_default_is_the_cpu_device(run_on_device):
    """A bad driver path and no KJIT_DEVICE: kernels run on the CPU device."""
    r = run_on_device("""
        import numpy as np
        from kjit import cuda

        @cuda.jit
        def k(x):
            x[cuda.grid(1)] = 3

        x = np.zeros(8)
        k[1, 8](x)
        print(cuda.device_kind(), x.sum())
    """, env={"KJIT_DEVICE": "", "KJIT_CUDA_DRIVER": "/nonexistent/libcuda.so.1"})
    out = r.stdout
    assert "cpu 24.0" in out


def test_barrier_free_kernels_are_vectorised_loops(run_on_device):
    r = run_on_device("""
        import numpy as np
        from kjit import cuda

        @cuda.jit
        def saxpy(a, x, y, out):
            i = cuda.grid(1)
            if i < x.shape[0]:
                out[i] = a * x[i] + y[i]

        x = np.zeros(1000, np.float32)
        saxpy[4, 256](np.float32(2), x, x, x)
        d = saxpy._dispatcher
        ir = d._cpu_inspect(d._cpu_keys()[0], False)
        block = ir[ir.index("_block("):]
        block = block[:block.index("\\n}")]
        print("vector", "x float>" in block)
        print("calls", "kjit_cpu_" in ir)
    """)
    out = r.stdout
    assert "vector True" in out  # the block loop was vectorised
    assert "calls False" in out  # no barrier: no fiber runtime calls


def test_local_arrays_get_the_stack_they_need_up_to_a_gpus_limit(run_on_device):
    r = run_on_device("""
        import numpy as np
        from kjit import cuda, float32

        @cuda.jit
        def big_local(out):
            a = cuda.local.array(100000, float32)   # 400 KB: more than the default fiber stack
            for k in range(100000):
                a[k] = k
            cuda.syncthreads()
            out[cuda.grid(1)] = a[99999]

        @cuda.jit
        def too_big(out):
            a = cuda.local.array(200000, float32)   # 800 KB: over a GPU's 512 KiB
            a[0] = 1
            out[0] = a[0]

        o = np.zeros(64, np.float32)
        big_local[1, 64](o)
        print("big", o.min(), o.max())
        try:
            too_big[1, 1](o)
        except RuntimeError as e:
            print("refused:", e)
        big_local[2, 32](o)
        print("after", int(o.sum()))
    """)
    out = r.stdout
    assert "big 99999.0 99999.0" in out
    assert "refused: the kernel's local arrays take 800000 bytes per thread" in out
    assert "(in kernel 'too_big')" in out
    assert "after 6399936" in out


def test_shared_memory_is_limited_as_on_a_gpu_and_the_process_goes_on(run_on_device):
    r = run_on_device("""
        import numpy as np
        from kjit import cuda, float32, float64

        @cuda.jit
        def dyn(x):
            buf = cuda.shared.array(0, dtype=float32)
            buf[cuda.threadIdx.x] = 1
            cuda.syncthreads()
            x[cuda.threadIdx.x] = buf[0] + buf.shape[0]

        @cuda.jit
        def static_big(x):
            buf = cuda.shared.array(100000, dtype=float64)   # 800 KB
            buf[cuda.threadIdx.x] = 1
            x[cuda.threadIdx.x] = buf[0]

        x = np.zeros(32, np.float32)
        for b in (10**12, 300 * 1024):
            try:
                dyn[1, 32, 0, b](x)
            except RuntimeError as e:
                print("refused:", e)
        try:
            static_big[1, 32](x)
        except RuntimeError as e:
            print("refused:", e)
        dyn[1, 32, 0, 200 * 1024](x)
        print("after", int(x[0]))
    """)
    out = r.stdout
    # The rule every device shares (runtime/jit/LaunchConfig.cpp), with the same message.
    assert "refused: kernel 'dyn' on the CPU device: 1000000000000 bytes of shared memory per block " \
        "(0 static + 1000000000000 dynamic) is more than the device's limit of 232448" in out
    assert "refused: kernel 'dyn' on the CPU device: 307200 bytes of shared memory per block" in out
    assert "refused: kernel 'static_big' on the CPU device: 800000 bytes of shared memory per block " \
        "(800000 static + 0 dynamic)" in out
    assert "after 51201" in out  # 1 + 200 KiB / 4 bytes


def test_print_lines_of_threads_never_mix(run_on_device):
    r = run_on_device("""
        import numpy as np
        from kjit import cuda

        @cuda.jit
        def k(x):
            i = cuda.grid(1)
            print("thread", i, "value", x[i], "end")

        k[64, 32](np.arange(2048.0))
    """, env={"KJIT_NUM_THREADS": "4"})
    out = r.stdout
    lines = out.splitlines()
    assert len(lines) == 2048
    import re
    assert all(re.fullmatch(r"thread (\d+) value \1\.0 end", ln) for ln in lines), [
        ln for ln in lines if not re.fullmatch(r"thread (\d+) value \1\.0 end", ln)][:3]
    assert sorted(int(ln.split()[1]) for ln in lines) == list(range(2048))


def test_out_of_bounds_is_an_index_error_not_a_crash(run_on_device):
    # On a GPU an access out of bounds is an illegal address (a CUDA error);
    # on the CPU device it would end the process, so kernels are checked
    # there unless they say boundscheck=False.
    r = run_on_device("""
        import numpy as np
        from kjit import cuda

        @cuda.jit
        def far(a):
            i = cuda.grid(1)
            a[i + 100000000] = 1.0

        @cuda.jit
        def fill(a):
            i = cuda.grid(1)
            if i < a.shape[0]:
                a[i] = 2.0

        a = cuda.to_device(np.zeros(64, np.float32))
        try:
            far[2, 32](a)
            cuda.synchronize()
        except IndexError as e:
            print("IndexError:", e)
        fill[2, 32](a)
        print("then", a.copy_to_host()[:2].tolist())
    """)
    out = r.stdout
    assert "IndexError: In function 'far', file " in out, out
    assert ": index 100000000 is out of bounds for axis 0 with size 64" in out, out
    assert "then [2.0, 2.0]" in out


def test_dtype_names_fancy_indexing_and_numba_boundscheck(run_on_device):
    r = run_on_device("""
        import numpy as np
        from kjit import cuda

        @cuda.jit
        def reverse(out):
            sh = cuda.shared.array(32, dtype="float32")
            loc = cuda.local.array(2, "int64")
            t = cuda.threadIdx.x
            loc[0] = t
            sh[t] = loc[0]
            cuda.syncthreads()
            out[t] = sh[31 - t]

        o = cuda.to_device(np.zeros(32, np.float32))
        reverse[1, 32](o)
        print(o.copy_to_host()[:3].tolist())
        try:
            o[np.array([1, 2])]
        except TypeError as e:
            print("TypeError:", e)
    """)
    out = r.stdout
    assert "[31.0, 30.0, 29.0]" in out
    assert "TypeError: device arrays are indexed by ints, slices, None and Ellipsis (not ndarray)" in out
    # NUMBA_BOUNDSCHECK=1 turns the checks on everywhere (here: a @jit function).
    r = run_on_device("""
        import numpy as np
        from kjit import njit

        @njit
        def at(a, i):
            return a[i]

        try:
            at(np.zeros(3), 5)
        except IndexError as e:
            print("IndexError:", e)
    """, env={"NUMBA_BOUNDSCHECK": "1"})
    out = r.stdout
    assert "IndexError: index 5 is out of bounds for axis 0 with size 3" in out, out
