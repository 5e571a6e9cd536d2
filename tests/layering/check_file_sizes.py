#!/usr/bin/env python3
"""No source file over 1,000 lines (docs/architecture.md, "The shape").

A file that grows past the limit holds more than one concern: split it by
concern (one pass, one family of built-ins, one area of the bindings per
file) before it lands. Every tracked source, script, kernel-language
library, build file and document is counted; data and generated tables are
not (SKIP_SUFFIXES).

    check_file_sizes.py ROOT            check the tree at ROOT (its tracked
                                        files when it is a git checkout)
    check_file_sizes.py --self-test     check that a long file is caught
"""
import os
import subprocess
import sys
import tempfile

LIMIT = 1000

# What counts as source: code, the kernel-language libraries, build files,
# scripts and documents.
SOURCE_SUFFIXES = (".cpp", ".h", ".def", ".in", ".py", ".kjit", ".cmake", ".txt", ".sh", ".md",
                   ".ll", ".cu")
SOURCE_NAMES = ("CMakeLists.txt", "Makefile")
# Generated tables and recorded data are not written by hand.
SKIP_SUFFIXES = (".inc", ".json", ".csv", ".npy")


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                             capture_output=True).stdout.decode()
        return [f for f in out.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if not d.startswith((".", "build"))]
            for name in filenames:
                files.append(os.path.relpath(os.path.join(dirpath, name), root))
        return files


def is_source(path):
    name = os.path.basename(path)
    if name.endswith(SKIP_SUFFIXES):
        return False
    return name in SOURCE_NAMES or name.endswith(SOURCE_SUFFIXES)


def long_files(root):
    """(path, lines) of each source file over LIMIT lines, longest first."""
    found = []
    for rel in tracked_files(root):
        path = os.path.join(root, rel)
        if not is_source(rel) or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            lines = f.read().count(b"\n")
        if lines > LIMIT:
            found.append((rel, lines))
    return sorted(found, key=lambda x: -x[1])


def main(argv):
    if argv[1:] == ["--self-test"]:
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "compiler"))
            with open(os.path.join(root, "compiler", "Long.cpp"), "w") as f:
                f.write("int x;\n" * (LIMIT + 1))
            with open(os.path.join(root, "compiler", "Short.cpp"), "w") as f:
                f.write("int x;\n" * LIMIT)
            with open(os.path.join(root, "table.inc"), "w") as f:
                f.write("1,\n" * (LIMIT * 2))
            found = long_files(root)
            if [p for p, _ in found] != [os.path.join("compiler", "Long.cpp")]:
                print(f"self-test failed: found {found}")
                return 1
        print("check_file_sizes self-test: a file of 1,001 lines is caught, 1,000 and a table are not")
        return 0
    root = argv[1] if len(argv) > 1 else "."
    found = long_files(root)
    for path, lines in found:
        print(f"{path}: {lines} lines (more than {LIMIT}): split it by concern")
    if found:
        print(f"check_file_sizes: {len(found)} file(s) over {LIMIT} lines")
        return 1
    print(f"check_file_sizes: every source file has at most {LIMIT} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
