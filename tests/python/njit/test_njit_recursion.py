"""Deep recursion raises RecursionError instead of ending the process
(compiler/LoweringRecursion.cpp): on the caller's thread, on other Python
threads, in prange workers and in the CPU device's threads (fibers, each with
its own small stack). Each program runs in its own process (run_on_device),
so that a crash fails the test instead of ending the test run."""


def test_deep_recursion_raises_recursion_error_and_the_process_goes_on(run_on_device):
    r = run_on_device("""
        from kjit import njit

        @njit
        def f(n):
            return 0 if n == 0 else 1 + f(n - 1)

        @njit
        def is_even(n):
            return True if n == 0 else is_odd(n - 1)

        @njit
        def is_odd(n):
            return False if n == 0 else is_even(n - 1)

        @njit
        def fib(n):
            if n < 2:
                return n
            return fib(n - 1) + fib(n - 2)

        @njit
        def caught(n):
            try:
                return f(n)
            except RecursionError:
                return -1

        for fn, name in ((f, "f"), (is_even, "is_")):
            try:
                fn(10_000_000)
                raise AssertionError("no exception")
            except RecursionError as e:
                msg = str(e)
                assert "maximum recursion depth exceeded in " + name in msg, msg
        assert isinstance(RecursionError(), RuntimeError)
        assert f(100) == 100
        assert is_even(100) and is_odd(101)
        assert f(50_000) == 50_000
        assert fib(25) == 75025
        assert caught(10_000_000) == -1 and caught(10) == 10
        print("ok")
    """)
    assert r.stdout.strip().endswith("ok")


def test_each_thread_checks_its_own_stack(run_on_device):
    # A Python thread with a small stack, and prange workers (their stacks
    # are not the caller's, whose bounds the call's context holds).
    r = run_on_device("""
        import threading
        import numpy as np
        from kjit import njit, prange

        @njit(nogil=True)
        def f(n):
            return 0 if n == 0 else 1 + f(n - 1)

        @njit(parallel=True)
        def many(depths):
            out = np.zeros(depths.size, np.int64)
            for i in prange(depths.size):
                out[i] = f(depths[i])
            return out

        results = []

        def work():
            for n in (10_000_000, 1000):
                try:
                    results.append(f(n))
                except RecursionError as e:
                    results.append(str(e))

        threading.stack_size(1 << 20)
        t = threading.Thread(target=work)
        t.start()
        t.join()
        assert "maximum recursion depth exceeded in f" in results[0], results
        assert "(1024 KiB)" in results[0] or "KiB" in results[0], results
        assert results[1] == 1000, results

        assert list(many(np.full(64, 1000))) == [1000] * 64
        try:
            many(np.full(64, 10_000_000))
            raise AssertionError("no exception")
        except RecursionError as e:
            assert "maximum recursion depth exceeded in f" in str(e), e
        assert list(many(np.arange(8))) == list(range(8))
        print("ok")
    """)
    assert r.stdout.strip().endswith("ok")


def test_deep_recursion_in_a_cpu_device_kernel_raises(run_on_device):
    # The recursive device function runs on the worker's stack (a kernel
    # without barriers) or on the thread's fiber (with syncthreads).
    r = run_on_device("""
        import numpy as np
        from kjit import cuda

        @cuda.jit(device=True)
        def depth(n):
            return 0 if n == 0 else 1 + depth(n - 1)

        @cuda.jit(device=True)
        def is_even(n):
            return True if n == 0 else is_odd(n - 1)

        @cuda.jit(device=True)
        def is_odd(n):
            return False if n == 0 else is_even(n - 1)

        @cuda.jit
        def plain(r, n):
            r[cuda.threadIdx.x] = depth(n[cuda.threadIdx.x])

        @cuda.jit
        def fibers(r, n):
            t = cuda.threadIdx.x
            cuda.syncthreads()
            r[t] = depth(n[t]) + is_even(n[t])

        r = np.zeros(32, np.int64)
        for kernel in (plain, fibers):
            n = np.full(32, 100, np.int64)
            n[5] = 10_000_000
            try:
                kernel[1, 32](r, n)
                raise AssertionError("no exception")
            except RecursionError as e:
                assert "maximum recursion depth exceeded in depth" in str(e), e
            kernel[1, 32](r, np.full(32, 100, np.int64))
            assert (r == (100 if kernel is plain else 101)).all(), r
        # Fibers of 256 KiB still hold a thousand calls.
        fibers[2, 32](r, np.full(32, 1000, np.int64))
        assert (r == 1001).all(), r
        print("ok")
    """)
    assert r.stdout.strip().endswith("ok")
