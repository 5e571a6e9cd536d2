"""Runs a table of kernel programs (kernel_programs.py, record_programs.py)
on whatever device the environment selects and prints one JSON object:
{program name: "ok" or what went wrong}. Each program checks its result
against NumPy; a failure is reported and the next program runs."""
import json
import sys
import traceback


def main(programs, only=None):
    only = sys.argv[1:] if only is None else only
    results = {}
    for name, fn in programs.items():
        if only and name not in only:
            continue
        try:
            fn()
            results[name] = "ok"
        except Exception as e:  # reported, the next program runs
            results[name] = f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=4)}"
    print("KJIT-RESULTS " + json.dumps(results))
