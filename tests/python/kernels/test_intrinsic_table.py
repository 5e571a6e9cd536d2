"""The CUDA simulator's kernel-language names against the compiler's
intrinsic table (compiler/Intrinsics.def): every GPU operation that kjit
compiles must exist in the simulator and in the names that raise outside a
kernel, and every name those offer must be one that kjit compiles.

The table is read from its source: its CUDA section's INTRINSIC lines, with
an intrinsic that has sub-operations (atomic, shfl_sync, vote_sync) replaced
by their kernel-language names from its INTRINSIC_SUBOP lines."""
import os
import re

import kjit.cuda.kernel_language as kernel_language
import kjit.cuda.simulator.kernelapi as kernelapi

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")
TABLE = os.path.join(ROOT, "compiler", "Intrinsics.def")

# Kernel-language names that are not intrinsics: math functions that the
# table lists among the math intrinsics, and selp, typed as a Select node.
NOT_CUDA_INTRINSICS = {"fma", "cbrt", "selp"}


def _table():
    text = open(TABLE).read()
    cuda = text[text.index("// ---- CUDA"):text.index("// ---- output")]
    names = {m.group(2): m.group(1)
             for m in re.finditer(r'^INTRINSIC\((\w+), "([^"]*)"', cuda, re.M)}
    subops = {}
    for m in re.finditer(r'^INTRINSIC_SUBOP\((\w+), \w+, "[^"]*", "([^"]*)"\)', text, re.M):
        subops.setdefault(m.group(1), []).append(m.group(2))
    out = set()
    for name, ident in names.items():
        out.update(subops.get(ident, [name]))
    return out


def _has(module, dotted):
    obj = module
    for part in dotted.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def test_the_table_is_read():
    names = _table()
    # a few of each kind: plain, namespaced, sub-operations
    assert {"syncthreads", "shared.array", "atomic.add", "atomic.and_", "shfl_up_sync",
            "eq_sync", "threadIdx"} <= names
    assert "vote_sync" not in names and "atomic" not in names


def test_every_cuda_intrinsic_exists_in_the_simulator():
    missing = sorted(n for n in _table() if not _has(kernelapi, n))
    assert missing == []


def test_every_cuda_intrinsic_exists_in_the_kernel_language_names():
    missing = sorted(n for n in _table() if not _has(kernel_language, n))
    assert missing == []


def test_every_kernel_language_function_is_compiled():
    table = _table()
    src = open(kernel_language.__file__).read()
    listed = re.search(r"for _name in \((.*?)\):", src, re.S).group(1)
    functions = set(re.findall(r'"(\w+)"', listed))
    assert functions, "no names found in kernel_language.py"
    assert sorted(functions - table - NOT_CUDA_INTRINSICS) == []


def test_every_simulated_atomic_is_compiled():
    table = _table()
    ops = {n for n in dir(kernelapi.atomic) if not n.startswith("_")}
    # cas and compare_and_swap are the AtomicCas intrinsic
    assert sorted(f"atomic.{o}" for o in ops - {"cas", "compare_and_swap"}
                  if f"atomic.{o}" not in table) == []
