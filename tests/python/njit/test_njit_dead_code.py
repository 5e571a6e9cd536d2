"""Unreachable code (issue 33): statements after return, raise, break or
continue, and branches of `if` known at compile time, that hold loops, joins
and calls. Python never runs them and Numba never sees them (CPython's
compiler drops them); kjit must neither refuse them nor crash on them (they
once lowered to loops over deleted values: SIGSEGV, invalid IR, hangs). Each
program runs in a new process, so that a crash fails the test, not pytest;
under KJIT_FRONTEND=bytecode the same programs go through the bytecode."""
import pytest

PROGRAMS = r"""
import numpy as np
from kjit import njit

def after_return_for(n):
    return 0
    for i in range(n):
        pass

def after_return_while(n):
    return 0
    while n > 0:
        n -= 1

def after_return_calls(a, n, x):
    return 1
    s = a.sum() + np.prod(a) + n ** 3
    r = round(x, 2)
    t = (1 if n > 2 else (2 if n > 1 else 3)) if x > 0 else 4
    u = [k * k for k in range(n)]
    return s + r + t + len(u)

def after_return_nested(n):
    k = 0
    for i in range(n):
        k += i
    return k
    for i in range(n):
        j = i
        while j > 0:
            j -= 1
            if j == 3:
                break
        else:
            k += 1

def after_break(n):
    k = 0
    for i in range(n):
        k += 1
        if i == 2:
            break
            for j in range(n):
                k += j
    return k

def after_break_always(n):
    # (no back edge: CPython drops the code after the break)
    k = 0
    for i in range(n):
        k += 1
        break
        for j in range(n):
            k += j
    return k

def after_continue(n):
    k = 0
    i = 0
    while i < n:
        i += 1
        k += i
        continue
        while k > 0:
            k -= 1
    return k

def after_raise(n):
    if n > 100:
        raise ValueError("too big")
        for i in range(n):
            n += i
    return n

def dead_branches(n):
    k = 1
    if False:
        for i in range(n):
            k += i
    if 0:
        while n > 0:
            n -= 1
    if not True:
        k = k ** 3
    while False:
        k += 100
    else:
        k += 1
    return k + n

def after_folded_if(n):
    if True:
        return n + 1
    for i in range(n):
        n += i
    return n

def after_if_else(n):
    if n > 0:
        return 1
    else:
        return 2
    while n > 0:
        n -= 1

def after_while_true(n):
    k = 0
    while True:
        k += 1
        if k > n:
            return k
    for i in range(n):
        k += i

def after_constant_compare(n):
    if np.uint64(18446744073709551615) > np.uint64(1):
        return n
    for i in range(n):
        n += 1
    return n

def float_constant_branch(n):
    if -2 != 0.5:
        return n
    else:
        return n & 0.5  # never typed: Numba prunes the branch

def dead_code_that_does_not_type(n):
    return n
    x = "a" + 1
    return x.foo

def nested_def_dead_code(n):
    def g(m):
        return m * 2
        for i in range(m):
            m += i
    return g(n)

ARGS = {
    after_return_calls: (np.arange(1.0, 4.0), 4, np.float32(2.5)),
}
for f in (after_return_for, after_return_while, after_return_calls, after_return_nested,
          after_break, after_break_always, after_continue, after_raise, dead_branches, after_folded_if,
          after_if_else, after_while_true, after_constant_compare, float_constant_branch,
          dead_code_that_does_not_type,
          nested_def_dead_code):
    for args in [ARGS.get(f, (5,))] + ([(0,), (150,)] if f not in ARGS else []):
        try:
            want = f(*args)
        except ValueError:
            want = "ValueError"
        try:
            got = njit(f)(*args)
        except ValueError:
            got = "ValueError"
        assert got == want, (f.__name__, args, got, want)
print("dead code ok")
"""


def test_dead_code_njit(run_on_device):
    r = run_on_device(PROGRAMS, device="cpu")
    assert "dead code ok" in r.stdout


KERNELS = r"""
import numpy as np
from kjit import cuda

@cuda.jit
def k_after_return(out, n):
    i = cuda.grid(1)
    if i >= out.size:
        return
        for j in range(n):
            out[0] += j
    out[i] = i
    return
    while n > 0:
        n -= 1
        out[i] = n

@cuda.jit(device=True)
def dev(n):
    return n * 2
    for j in range(n):
        n += j
    return n

@cuda.jit
def k_after_break(out, n):
    i = cuda.grid(1)
    if i < out.size:
        k = 0
        for j in range(n):
            k += 1
            if j == 0:
                break
                while k > 0:
                    k -= 1
        for j in range(n):
            break
            while k > 0:
                k -= 1
        out[i] = k + dev(i)

out = np.zeros(8, np.int64)
k_after_return[2, 4](out, 3)
assert (out == np.arange(8)).all(), out
k_after_break[2, 4](out, 3)
assert (out == 1 + 2 * np.arange(8)).all(), out
print("dead code in kernels ok")
"""


@pytest.mark.parametrize("device", ["cpu", "sim"])
def test_dead_code_kernels(run_on_device, device):
    r = run_on_device(KERNELS, device=device)
    assert "dead code in kernels ok" in r.stdout
