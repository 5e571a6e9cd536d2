"""Each rule of the JIT driver (runtime/jit) gives the same answer and the
same message on every device: the GPU launch path (on the fake CUDA driver
here, and on a real GPU where there is one), the CPU device and the
simulator. The rules themselves are unit-tested in
tests/unit/test_jit_driver.cpp; this checks that every device asks them.

One program tries every rule and prints what it saw as JSON; the devices'
reports must be equal, apart from the device's name in launch messages.
Results are compared only where kernels run (not on the fake driver)."""
import json
import re
import subprocess
import sys

import pytest

from conftest import device_environment

PROGRAM = r"""
import json
import numpy as np
from kjit import cuda

seen = {}

def attempt(rule, f):
    try:
        seen[rule] = ["ok", f()]
    except Exception as e:  # the rule's answer is the exception's class and text
        seen[rule] = [type(e).__name__, str(e)]

@cuda.jit
def fill(out, v):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = v

def launch(config):
    def go():
        fill[config](np.zeros(8), 1.0)
    return go

# Launch configurations: every mistake, one message.
for name, config in [("block too big", (1, 2048)), ("threads per block", (1, (64, 32))),
                     ("zero grid", (0, 32)), ("block z", (1, (1, 1, 65))), ("float grid", (1.5, 32)),
                     ("string block", (1, "32")), ("four dims", (1, (1, 1, 1, 1))), ("one item", (1,)),
                     ("five items", (1, 1, 0, 0, 0)), ("negative shared", (1, 32, 0, -1)),
                     ("too much shared", (1, 32, 0, 300 * 1024)), ("grid y", ((1, 70000), 32))]:
    attempt("launch: " + name, launch(config))

# An argument no kernel takes.
attempt("argument: a list", lambda: fill[1, 8]([1.0, 2.0], 1.0))

# Eager signatures: a closed set, Numba's choice among them.
@cuda.jit(["void(float32[:], float32)", "void(float64[:], float64)"])
def store(out, v):
    out[cuda.threadIdx.x] = v

def chosen(dtype, value):
    a = cuda.to_device(np.zeros(4, dtype))
    store[1, 4](a, value)
    return repr(float(a.copy_to_host()[0])) if RUNS else "not run"

attempt("overload: int to float64 array", lambda: chosen(np.float64, 3))
attempt("overload: float32 value narrowed", lambda: chosen(np.float32, 1 / 3))
attempt("overload: no match", lambda: chosen(np.int32, 1))

@cuda.jit(["void(float64[:], int32, float64)", "void(float64[:], float64, int32)"])
def either(out, a, b):
    out[0] = a + b

attempt("overload: ambiguous", lambda: either[1, 1](np.zeros(1), 1, 2))

# A signature the parser refuses.
def bad_signature():
    @cuda.jit("void(float33[:])")
    def k(x):
        x[0] = 1
attempt("signature: unknown type", bad_signature)
attempt("signature: argument count", lambda: cuda.jit("void(float32[:], int32)")(lambda x: None))

print("REPORT " + json.dumps(seen))
"""


def report(run_on_device, device, env=None, runs=True):
    r = run_on_device("RUNS = %r\n" % runs + PROGRAM, device=device, env=env)
    line = [l for l in r.stdout.splitlines() if l.startswith("REPORT ")]
    assert line, r.stdout + r.stderr
    seen = json.loads(line[-1][len("REPORT "):])
    # The device's own name is the one part of a launch message that differs.
    return {rule: [kind, re.sub(r"^(kernel '\w+') on [^:]+:", r"\1 on DEVICE:", text) if kind != "ok" else text]
            for rule, (kind, text) in seen.items()}


def test_every_device_gives_the_same_answers_and_messages(run_on_device, fake_driver):
    cpu = report(run_on_device, "cpu")
    sim = report(run_on_device, "sim")
    gpu = report(run_on_device, "cuda", env={"KJIT_CUDA_DRIVER": fake_driver}, runs=False)
    assert cpu == sim, "\n".join(f"{k}: cpu {cpu[k]} / sim {sim.get(k)}" for k in cpu if cpu[k] != sim.get(k))
    # The fake driver runs no kernel: its results are "not run", its errors must be the same.
    same_errors = {k: v for k, v in cpu.items() if v[0] != "ok"}
    gpu_errors = {k: v for k, v in gpu.items() if v[0] != "ok"}
    assert gpu_errors == same_errors, "\n".join(
        f"{k}: cpu {same_errors.get(k)} / gpu path {gpu_errors.get(k)}"
        for k in set(same_errors) | set(gpu_errors) if same_errors.get(k) != gpu_errors.get(k))

    # What the rules say (pinned once; the comparison above makes it every device's).
    assert cpu["launch: block too big"] == [
        "LaunchConfigError",
        "kernel 'fill' on DEVICE: a block of 2048 threads along x is more than the device's limit of 1024"]
    assert cpu["launch: threads per block"][1].endswith(
        "2048 threads per block (64 x 32 x 1) is more than the limit of 1024 of the device")
    assert cpu["launch: zero grid"] == ["LaunchConfigError", "kernel 'fill': the grid along x is 0; it must be at least 1"]
    # Numba's words follow kjit's; an item that is not an int is a TypeError too, as in Numba.
    assert cpu["launch: float grid"] == [
        "LaunchConfigTypeError", "kernel 'fill': the grid must be an int or a tuple of 1 to 3 ints, not 1.5 "
        "(griddim must be a sequence of integers, got [1.5])"]
    assert cpu["launch: string block"][1] == ("kernel 'fill': the block must be an int or a tuple of 1 to 3 ints, "
                                              "not '32' (blockdim must be a sequence of integers, got ['32'])")
    assert cpu["launch: four dims"][1] == ("kernel 'fill': the block must be an int or a tuple of 1 to 3 ints, not 4 "
                                           "ints (blockdim must be a sequence of 1, 2 or 3 integers, got [1, 1, 1, 1])")
    assert "not 1 item" in cpu["launch: one item"][1] and "not 5 items" in cpu["launch: five items"][1]
    assert cpu["launch: negative shared"][1] == (
        "kernel 'fill': the dynamic shared memory size cannot be negative (got -1)")
    assert cpu["launch: too much shared"][1] == (
        "kernel 'fill' on DEVICE: 307200 bytes of shared memory per block (0 static + 307200 dynamic) is more than "
        "the device's limit of 232448")
    assert cpu["launch: grid y"][1].endswith("a grid of 70000 blocks along y is more than the device's limit of 65535")
    assert cpu["argument: a list"] == ["TypeError", "kernel 'fill': argument 1 ('out') has a type kernels cannot take: list"]
    assert cpu["overload: int to float64 array"] == ["ok", "3.0"]
    assert cpu["overload: float32 value narrowed"] == ["ok", repr(float(__import__("numpy").float32(1 / 3)))]
    assert cpu["overload: no match"][0] == "TypeError"
    assert cpu["overload: no match"][1].startswith(
        "No matching definition for argument type(s) array(int32, 1d, C), int64 in kernel 'store'")
    assert cpu["overload: ambiguous"] == [
        "TypeError", "Ambiguous overloading for <function either (a kernel)> (Array(float64, 1, 'C', False, "
        "aligned=True), int64, int64):\n(Array(float64, 1, 'A', False, aligned=True), int32, float64) -> none\n"
        "(Array(float64, 1, 'A', False, aligned=True), float64, int32) -> none\n(the signatures of kernel "
        "'either' that fit (array(float64, 1d, C), int64, int64) equally well)"]
    assert cpu["signature: unknown type"][0] == "TypeError" and "float33" in cpu["signature: unknown type"][1]
    assert cpu["signature: argument count"] == [
        "TypeError", "signature \"void(float32[:], int32)\" has 2 arguments but <lambda>() takes 1"]


@pytest.mark.skipif(not __import__("shutil").which("nvidia-smi"), reason="needs a CUDA GPU")
def test_a_gpu_gives_the_cpu_devices_answers(run_on_device):
    cpu = report(run_on_device, "cpu")
    gpu = report(run_on_device, "cuda")
    assert gpu == cpu, "\n".join(f"{k}: cpu {cpu[k]} / gpu {gpu.get(k)}" for k in cpu if cpu[k] != gpu.get(k))


CACHED = r"""
import numpy as np
from kjit import cuda

@cuda.jit(cache=True)
def scale(out, v):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = v * 2

out = cuda.to_device(np.zeros(16))
scale[1, 16](out, 1.5)
print("HITS", scale._dispatcher._cache_hits())
"""


def test_the_disk_cache_serves_a_second_process_on_every_device(fake_driver, tmp_path):
    # cache=True: one key (runtime/jit/CacheKey.h) and one disk cache for every
    # device that compiles: PTX for the GPU path (which the simulator compiles
    # too, as a launch would), host code for the CPU device.
    for device, env in [("cpu", {}), ("sim", {}), ("cuda", {"KJIT_CUDA_DRIVER": fake_driver})]:
        folder = tmp_path / device
        folder.mkdir()
        env = dict(env, KJIT_CACHE_DIR=str(folder / "cache"))
        program = folder / "program.py"  # the same file both times: its name is part of the key
        program.write_text(CACHED)
        hits = []
        for _ in range(2):
            r = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, cwd=folder,
                               env=device_environment(device, env), timeout=300)
            assert r.returncode == 0, (device, r.stdout, r.stderr)
            hits += [int(l.split()[1]) for l in r.stdout.splitlines() if l.startswith("HITS")]
        assert hits == [0, 1], (device, hits)
        assert len(list((folder / "cache").iterdir())) == 1, (device, list((folder / "cache").iterdir()))
