#!/usr/bin/env python3
"""The layering rule of docs' ARCHITECTURE.md, checked on every #include.

Each layer may include only the layers above it in the pipeline picture:

    frontend/support   the bottom library: includes only itself
    frontend           support
    compiler           frontend (support included)
    targets            compiler, frontend
    runtime/device     frontend/support only (the device interface)
    runtime/host       frontend/support, runtime/device
    runtime/cuda       frontend/support, runtime/device
    runtime/hip        frontend/support, runtime/device
    runtime/jit        all of the above (the JIT driver, on top)

    python_bindings/src   the binding: the runtime layers (the JIT driver
                          and the devices), the bottom library, the
                          frontend's public API, and of the compiler only
                          its vocabulary headers (BINDING_COMPILER_HEADERS:
                          types, signatures, globals, the session); never
                          the typer, the IR, lowering or the targets

tools/ and tests/ sit on top and may include anything.
An include into a layer that is not allowed fails the check, which lists every
offending file:line. The CMake build enforces the same rule with per-layer
include roots (CMakeLists.txt, kjit_layer); this check also names the line.

    check_layers.py ROOT          check the tree at ROOT
    check_layers.py --self-test   check that a wrong-way include is caught
"""
import os
import re
import sys
import tempfile

# Layer name -> the folder its sources live in (longest prefix wins).
LAYERS = {
    "support": "frontend/support",
    "frontend": "frontend",
    "compiler": "compiler",
    "targets": "targets",
    "runtime/device": "runtime/device",
    "runtime/host": "runtime/host",
    "runtime/cuda": "runtime/cuda",
    "runtime/hip": "runtime/hip",
    "runtime/jit": "runtime/jit",
    "bindings": "python_bindings/src",
}

# Layer -> the layers it may include (itself always).
ALLOWED = {
    "support": set(),
    "frontend": {"support"},
    "compiler": {"support", "frontend"},
    "targets": {"support", "frontend", "compiler"},
    "runtime/device": {"support"},
    "runtime/host": {"support", "runtime/device"},
    "runtime/cuda": {"support", "runtime/device"},
    "runtime/hip": {"support", "runtime/device"},
    "runtime/jit": {"support", "frontend", "compiler", "targets", "runtime/device", "runtime/host",
                    "runtime/cuda", "runtime/hip"},
    "bindings": {"support", "frontend", "runtime/device", "runtime/host", "runtime/cuda",
                 "runtime/hip", "runtime/jit"},
}

# The compiler headers the binding may include: the vocabulary it turns
# Python values into and back (types, signature strings, global values,
# @jitclass descriptions, the session that owns them), not its internals.
BINDING_COMPILER_HEADERS = {
    "compiler/Types.h", "compiler/Signature.h", "compiler/GlobalEnv.h", "compiler/JitClass.h",
    "compiler/Session.h", "compiler/Context.h",
}

# Files allowed one include against the rule: file -> (the header, why).
# None today; the JIT driver joins the layers that do not use each other.
EXCEPTIONS = {}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_EXTS = (".h", ".cpp", ".def", ".inc")


def layer_of(path):
    best = None
    for name, folder in LAYERS.items():
        if path == folder or path.startswith(folder + "/"):
            if best is None or len(folder) > len(LAYERS[best]):
                best = name
    return best


def check(root):
    problems = []
    for name, folder in LAYERS.items():
        top = os.path.join(root, folder)
        for dirpath, _, files in os.walk(top):
            for f in sorted(files):
                if not f.endswith(SOURCE_EXTS):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
                if layer_of(rel) != name:
                    continue  # a deeper layer's file (frontend/support under frontend)
                problems += check_file(root, rel, name)
    return problems


def check_file(root, rel, layer):
    problems = []
    with open(os.path.join(root, rel), encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc = m.group(1)
            # A path relative to the file's own folder first, as the compiler does.
            local = os.path.normpath(os.path.join(os.path.dirname(rel), inc)).replace(os.sep, "/")
            target = local if os.path.exists(os.path.join(root, local)) else inc
            to = layer_of(target)
            if to is None:
                if os.path.exists(os.path.join(root, target)):
                    problems.append(f"{rel}:{lineno}: {layer} includes {inc}, which is in no layer")
                continue  # not a repository file (a system or generated header)
            if to == layer or to in ALLOWED[layer]:
                continue
            if layer == "bindings" and target in BINDING_COMPILER_HEADERS:
                continue
            allowed_inc, _ = EXCEPTIONS.get(rel, (None, None))
            if allowed_inc == target:
                continue
            may = ", ".join(sorted({layer} | ALLOWED[layer]))
            problems.append(f"{rel}:{lineno}: {layer} includes {inc} ({to}); {layer} may include only {may}")
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as root:
        files = {
            "frontend/support/Hash.h": "#pragma once\n",
            "compiler/Types.h": '#include "frontend/support/Hash.h"\n',
            "runtime/host/Good.cpp": '#include "frontend/support/Hash.h"\n',
            "runtime/host/Bad.cpp": '// a comment\n#include "compiler/Types.h"\n',
            "frontend/support/Up.h": '#include "frontend/Lexer.h"\n',
            "frontend/Lexer.h": "#pragma once\n",
            "compiler/IR.h": "#pragma once\n",
            "python_bindings/src/py_ok.cpp": '#include "compiler/Types.h"\n',
            "python_bindings/src/py_bad.cpp": '#include "compiler/IR.h"\n',
        }
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as fh:
                fh.write(text)
        got = sorted(check(root))
        want = [
            "frontend/support/Up.h:1: support includes frontend/Lexer.h (frontend); "
            "support may include only support",
            "runtime/host/Bad.cpp:2: runtime/host includes compiler/Types.h (compiler); "
            "runtime/host may include only runtime/device, runtime/host, support",
            "python_bindings/src/py_bad.cpp:1: bindings includes compiler/IR.h (compiler); bindings "
            "may include only bindings, frontend, runtime/cuda, runtime/device, runtime/hip, "
            "runtime/host, runtime/jit, support",
        ]
        if got != sorted(want):
            print("self-test failed:\n  got:  %r\n  want: %r" % (got, want))
            return 1
    print("self-test passed: wrong-way includes are reported (the binding's too)")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    problems = check(argv[1])
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include(s) against the layering rule")
        return 1
    print("layering: every include goes to an allowed layer")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
