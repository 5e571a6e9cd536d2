"""Runs every program of programs.py under kjit's @njit and Numba's and
prints, per group, how many kjit runs with Numba's result, how many it
refuses, and which differ.

    PYTHONPATH=python_bindings /usr/bin/python3 benchmarks/njit_programs/run.py [--verbose]
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python_bindings"))

import numba  # noqa: E402

import kjit  # noqa: E402
from programs import PROGRAMS  # noqa: E402


def same(a, b):
    if isinstance(a, (str, set, dict)) or isinstance(b, (str, set, dict)):
        return a == b
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        return (type(a) is type(b) or {type(a), type(b)} <= {tuple, list}) and len(a) == len(b) and all(
            same(x, y) for x, y in zip(a, b))
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and np.allclose(a, b, equal_nan=True)


def main():
    verbose = "--verbose" in sys.argv
    groups = {}
    for group, fn, args in PROGRAMS:
        g = groups.setdefault(group, {"ok": 0, "refused": [], "differ": [], "numba fails": []})
        copy = lambda: [x.copy() if isinstance(x, (np.ndarray, list)) else x for x in args]  # noqa: E731
        try:
            want = numba.njit(fn)(*copy())
        except Exception as e:  # noqa: BLE001
            g["numba fails"].append(f"{fn.__name__}: {type(e).__name__}")
            continue
        try:
            got = kjit.njit(fn)(*copy())
        except Exception as e:  # noqa: BLE001
            first = str(e).strip().splitlines()[0] if str(e).strip() else ""
            g["refused"].append(f"{fn.__name__}: {type(e).__name__}: {first[:150]}")
            continue
        if same(got, want):
            g["ok"] += 1
        else:
            g["differ"].append(f"{fn.__name__}: kjit {got!r:.80} numba {want!r:.80}")
    total_ok = total = 0
    for group, g in groups.items():
        n = g["ok"] + len(g["refused"]) + len(g["differ"])
        total_ok += g["ok"]
        total += n
        print(f"{group:12s} {g['ok']:3d} of {n:3d} run with Numba's result"
              f" ({len(g['refused'])} refused, {len(g['differ'])} differ;"
              f" {len(g['numba fails'])} that Numba refuses not counted)")
        if verbose:
            for key in ("refused", "differ", "numba fails"):
                for line in g[key]:
                    print(f"    {key}: {line}")
    print(f"{'all':12s} {total_ok:3d} of {total:3d}")


if __name__ == "__main__":
    main()
