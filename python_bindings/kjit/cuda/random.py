"""``cuda.random``: Numba's xoroshiro128+ random number generators for kernels.

    from kjit import cuda
    from kjit.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32

    @cuda.jit
    def pi_darts(states, hits):
        i = cuda.grid(1)
        if i < states.shape[0]:
            x = xoroshiro128p_uniform_float32(states, i)
            y = xoroshiro128p_uniform_float32(states, i)
            if x * x + y * y <= 1.0:
                cuda.atomic.add(hits, 0, 1)

    states = create_xoroshiro128p_states(threads, seed=1)
    pi_darts[blocks, tpb](states, hits)

One generator per thread: state ``i`` is state ``i - 1`` advanced by 2**64
steps (the xoroshiro128+ jump), so the threads' streams never overlap. The
numbers are Numba's: the same seeding (SplitMix64), the same conversions to
float, Box-Muller for the normal variates (its float64 version draws float32
uniforms, as Numba's does).

The states are Numba's: a 1-d device array of ``n`` records of dtype
``xoroshiro128p_dtype`` (two uint64 fields, ``s0`` and ``s1``), so that
``cuda.device_array(n, dtype=xoroshiro128p_dtype)`` followed by
``init_xoroshiro128p_states(states, seed)`` works as in Numba.
"""
import math

import numpy as np

from kjit.types import float32, float64, int64, uint32, uint64
from kjit.dispatcher import njit

from kjit.cuda import active as _cuda  # cuda.jit and the host API of the device kernels run on
from kjit import devices as _devices

xoroshiro128p_dtype = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)
TWO_PI_FLOAT32 = np.float32(2 * math.pi)
TWO_PI_FLOAT64 = np.float64(2 * math.pi)


# ---- in kernels ------------------------------------------------------------------------

@_cuda.jit(device=True)
def rotl(x, k):
    return (x << k) | (x >> (uint32(64) - k))


@_cuda.jit(device=True)
def xoroshiro128p_next(states, index):
    """The next 64 random bits of generator ``index`` (advancing it)."""
    i = int64(index)
    s0 = states[i]["s0"]
    s1 = states[i]["s1"]
    result = s0 + s1
    s1 ^= s0
    states[i]["s0"] = rotl(s0, uint32(55)) ^ s1 ^ (s1 << uint32(14))
    states[i]["s1"] = rotl(s1, uint32(36))
    return result


@_cuda.jit(device=True)
def uint64_to_unit_float64(x):
    """The top 53 bits of ``x`` as a float64 in [0, 1)."""
    return float64(x >> uint32(11)) * (1.0 / 9007199254740992.0)


@_cuda.jit(device=True)
def uint64_to_unit_float32(x):
    return float32(uint64_to_unit_float64(x))


@_cuda.jit(device=True)
def xoroshiro128p_uniform_float32(states, index):
    """A float32 uniform in [0, 1) from generator ``index``."""
    return uint64_to_unit_float32(xoroshiro128p_next(states, index))


@_cuda.jit(device=True)
def xoroshiro128p_uniform_float64(states, index):
    """A float64 uniform in [0, 1) from generator ``index``."""
    return uint64_to_unit_float64(xoroshiro128p_next(states, index))


@_cuda.jit(device=True)
def xoroshiro128p_normal_float32(states, index):
    """A float32 standard normal (Box-Muller; advances the generator twice)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(-float32(2.0) * math.log(u1)) * math.cos(float32(TWO_PI_FLOAT32) * u2)


@_cuda.jit(device=True)
def xoroshiro128p_normal_float64(states, index):
    """A float64 standard normal (Box-Muller on float32 uniforms, as Numba)."""
    u1 = float64(xoroshiro128p_uniform_float32(states, index))
    u2 = float64(xoroshiro128p_uniform_float32(states, index))
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(TWO_PI_FLOAT64 * u2)


# ---- on the host: the states ------------------------------------------------------------
# Computed as an (n, 2) uint64 array (s0, s1 per row: the records' bytes).

@njit
def _next(states, i):
    s0 = states[i, 0]
    s1 = states[i, 1]
    s1 ^= s0
    states[i, 0] = ((s0 << uint32(55)) | (s0 >> uint32(9))) ^ s1 ^ (s1 << uint32(14))
    states[i, 1] = (s1 << uint32(36)) | (s1 >> uint32(28))


@njit
def _jump(states, i):
    # xoroshiro128+'s jump polynomial: 2**64 steps ahead.
    s0 = uint64(0)
    s1 = uint64(0)
    for word in range(2):
        bits = uint64(0xbeac0467eba5facb) if word == 0 else uint64(0xd86b048b86aa9922)
        for b in range(64):
            if (bits >> uint32(b)) & uint64(1):
                s0 ^= states[i, 0]
                s1 ^= states[i, 1]
            _next(states, i)
    states[i, 0] = s0
    states[i, 1] = s1


@njit
def _init_states(states, seed, subsequence_start):
    n = states.shape[0]
    if n < 1:
        return
    # SplitMix64 of the seed, so that small seeds give unrelated streams.
    z = seed + uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> uint32(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint32(27))) * uint64(0x94D049BB133111EB)
    z = z ^ (z >> uint32(31))
    states[0, 0] = z
    states[0, 1] = z
    for _ in range(subsequence_start):
        _jump(states, 0)
    for i in range(1, n):
        states[i, 0] = states[i - 1, 0]
        states[i, 1] = states[i - 1, 1]
        _jump(states, i)


def _host_states(n, seed, subsequence_start):
    states = np.empty((int(n), 2), np.uint64)
    _init_states(states, np.uint64(int(seed) % 2**64), np.int64(subsequence_start))
    return states.view(xoroshiro128p_dtype).reshape(int(n))


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """(Re)seeds ``states``, a 1-d device array of dtype
    ``xoroshiro128p_dtype`` (one generator per element)."""
    if states.dtype != xoroshiro128p_dtype or len(states.shape) != 1:
        raise TypeError(f"init_xoroshiro128p_states takes a 1-d array of dtype xoroshiro128p_dtype, not "
                        f"{len(states.shape)}-d {states.dtype}")
    states.copy_to_device(_host_states(states.shape[0], seed, subsequence_start), stream=stream)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A device array of ``n`` generators (one per thread), seeded from
    ``seed``; ``subsequence_start`` advances the first by that many times
    2**64 steps."""
    return _cuda.host_api().to_device(_host_states(n, seed, subsequence_start), stream=stream)


# ---- in the simulator ----------------------------------------------------------------------
# The simulator runs device functions as Python: there the generator runs on
# Python ints (the same numbers, without NumPy's overflow warnings), while the
# kernel-language versions above are what the compiler type-checks.

_MASK = (1 << 64) - 1


def _py_next(states, index):
    i = int(index)
    s0, s1 = int(states["s0"][i]), int(states["s1"][i])
    result = (s0 + s1) & _MASK
    s1 ^= s0
    states["s0"][i] = (((s0 << 55) | (s0 >> 9)) & _MASK) ^ s1 ^ ((s1 << 14) & _MASK)
    states["s1"][i] = ((s1 << 36) | (s1 >> 28)) & _MASK
    return np.uint64(result)


def _py_unit_float64(x):
    return np.float64((int(x) >> 11) * (1.0 / 9007199254740992.0))


def _py_unit_float32(x):
    return np.float32(_py_unit_float64(x))


def _py_uniform_float32(states, index):
    return _py_unit_float32(_py_next(states, index))


def _py_uniform_float64(states, index):
    return _py_unit_float64(_py_next(states, index))


def _py_normal_float32(states, index):
    u1 = _py_uniform_float32(states, index)
    u2 = _py_uniform_float32(states, index)
    return np.float32(np.sqrt(np.float32(-2.0) * np.log(u1)) * np.cos(TWO_PI_FLOAT32 * u2))


def _py_normal_float64(states, index):
    u1 = np.float64(_py_uniform_float32(states, index))
    u2 = np.float64(_py_uniform_float32(states, index))
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(TWO_PI_FLOAT64 * u2)


if _devices.simulator():
    for _f, _py in [(xoroshiro128p_next, _py_next), (uint64_to_unit_float64, _py_unit_float64),
                    (uint64_to_unit_float32, _py_unit_float32),
                    (xoroshiro128p_uniform_float32, _py_uniform_float32),
                    (xoroshiro128p_uniform_float64, _py_uniform_float64),
                    (xoroshiro128p_normal_float32, _py_normal_float32),
                    (xoroshiro128p_normal_float64, _py_normal_float64)]:
        _f.py_func = _py
    del _f, _py
