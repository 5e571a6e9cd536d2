#!/usr/bin/env python3
"""Writes the compatibility report of a run of numba-cuda's test suite
against kjit (docs/compat.md): the totals, then every test that failed,
by file, with the first line of its reason.

    tools/compat_report.py RESULTS_DIR TITLE > docs/compat.md

RESULTS_DIR holds one JSON file per test file ({"tests": {nodeid:
{"outcome", "reason"}}, "collect_errors": [...]}), as the suite's runner
writes them."""
import collections
import glob
import json
import os
import re
import sys


def short(reason):
    reason = re.sub(r"/[^ :]*/tests/", "", reason)
    # A name of numba's that kjit lacks, as the test runner's import shim reports it.
    reason = re.sub(r"^\w+\.PeerMissing: (.*) is not provided by kjit \(\w+ placeholder\)",
                    r"missing in kjit: \1", reason)
    reason = re.sub(r"0x[0-9a-f]+", "0x..", reason)
    return reason.strip()[:180] or "(no message)"


def main():
    folder, title = sys.argv[1], sys.argv[2]
    totals = collections.Counter()
    per_file = {}
    failures = collections.defaultdict(list)
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        data = json.load(open(path))
        name = os.path.basename(path)[:-5].replace("__", "/") + ".py"
        counts = per_file.setdefault(name, collections.Counter())
        for nodeid, t in sorted(data["tests"].items()):
            outcome = t["outcome"] or "error"
            totals[outcome] += 1
            counts[outcome] += 1
            if outcome in ("failed", "error"):
                failures[name].append((nodeid.split("::", 1)[-1], short(t["reason"])))
        for e in data.get("collect_errors", []):
            totals["error"] += 1
            failures[name].append(("(collection)", short(e["reason"])))
    ran = totals["passed"] + totals["failed"] + totals["error"]
    print(f"# Compatibility: numba-cuda's own tests\n\n{title}\n")
    print(f"Passed {totals['passed']}, failed {totals['failed']}, errors {totals['error']}, "
          f"skipped {totals['skipped']}: {100.0 * totals['passed'] / ran:.1f} % of the tests that ran.\n")
    print("| file | passed | failed | errors | skipped |\n|---|---|---|---|---|")
    for name, c in sorted(per_file.items()):
        print(f"| {name} | {c['passed']} | {c['failed']} | {c['error']} | {c['skipped']} |")
    print("\nEvery test that fails, with the first line of its reason:\n")
    for name in sorted(failures):
        print(f"## {name} ({len(failures[name])})\n")
        for test, reason in failures[name]:
            print(f"- `{test}`: {reason.replace('|', '/')}")
        print()


if __name__ == "__main__":
    main()
