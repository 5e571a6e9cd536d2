#!/usr/bin/env python3
"""Writes the compatibility report of a run of numba-cuda's test suite
against kjit (docs/compat.md): the totals, then every test that failed,
by file, with the first line of its reason.

    tools/compat_report.py RESULTS_DIR TITLE [--parity LABEL OTHER_RESULTS_DIR ...] > docs/compat.md

--parity adds, for each other run (the CPU device's, the simulator's), the
tests that pass in RESULTS_DIR's run (the GPU's) and fail in that one.

RESULTS_DIR holds one JSON file per test file ({"tests": {nodeid:
{"outcome", "reason"}}, "collect_errors": [...]}), as the suite's runner
writes them. The runner records a test whose unittest subTests failed as
passed (pytest reports each failed subtest, then the test itself as
passed); the pytest logs beside RESULTS_DIR (../logs/<file>.log) name those
subtests, and this report counts such a test as failed."""
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


def failed_subtests(log_path):
    """{test name (Class::test): first error line} of the subtests the
    pytest log shows failing ("_ Class.test (params) _" sections)."""
    out = {}
    if not os.path.exists(log_path):
        return out
    current = None
    for line in open(log_path, errors="replace"):
        m = re.match(r"^_+ (\w+)\.(\w+) \(.*\) _+$", line.rstrip("\n"))
        if m:
            current = f"{m.group(1)}::{m.group(2)}"
            out.setdefault(current, "")
            continue
        if line.startswith("_") or line.startswith("="):
            current = None
        elif current and not out[current] and line.startswith("E   "):
            out[current] = line[4:].strip()
    return out


def load(folder):
    """{nodeid: (outcome, reason)} of a run, subtest failures counted."""
    tests = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        data = json.load(open(path))
        log = os.path.join(os.path.dirname(os.path.abspath(folder)), "logs",
                           os.path.basename(path)[:-5] + ".log")
        subs = failed_subtests(log)
        for nodeid, t in data["tests"].items():
            outcome, reason = t["outcome"] or "error", t.get("reason", "")
            sub = subs.get(nodeid.split("::", 1)[-1])
            if outcome == "passed" and sub is not None:
                outcome, reason = "failed", "a subtest failed: " + sub
            tests[nodeid] = (outcome, reason)
    return tests


def parity(gpu, label, other_folder):
    """The tests that pass on the GPU and fail in the other run."""
    other = load(other_folder)
    lost = sorted((k, other[k][1]) for k, (outcome, _) in gpu.items()
                  if outcome == "passed" and k in other and other[k][0] in ("failed", "error"))
    print(f"## Passing on the GPU, failing {label} ({len(lost)})\n")
    for nodeid, reason in lost:
        print(f"- `{nodeid}`: {short(reason).replace('|', '/')}")
    print()


def main():
    folder, title = sys.argv[1], sys.argv[2]
    others = sys.argv[3:]
    subtests = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        log = os.path.join(os.path.dirname(os.path.abspath(folder)), "logs",
                           os.path.basename(path)[:-5] + ".log")
        subtests[path] = failed_subtests(log)
    totals = collections.Counter()
    per_file = {}
    failures = collections.defaultdict(list)
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        data = json.load(open(path))
        name = os.path.basename(path)[:-5].replace("__", "/") + ".py"
        counts = per_file.setdefault(name, collections.Counter())
        for nodeid, t in sorted(data["tests"].items()):
            outcome = t["outcome"] or "error"
            sub = subtests[path].get(nodeid.split("::", 1)[-1])
            if outcome == "passed" and sub is not None:
                t = dict(t, reason="a subtest failed: " + sub)
                outcome = "failed"
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
    print("\n(A test counts as failed when one of its subtests failed, which the runner's "
          "own summary counts as passed.)\n")
    reasons = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "compat_reasons.md")
    if os.path.exists(reasons):  # the causes, written by hand after each run
        print(open(reasons).read().rstrip())
    print("\nEvery test that fails, with the first line of its reason:\n")
    for name in sorted(failures):
        print(f"## {name} ({len(failures[name])})\n")
        for test, reason in failures[name]:
            print(f"- `{test}`: {reason.replace('|', '/')}")
        print()
    if others:
        print("# The other devices\n")
        gpu = load(folder)
        while len(others) >= 3 and others[0] == "--parity":
            parity(gpu, others[1], others[2])
            others = others[3:]


if __name__ == "__main__":
    main()
