"""The bytecode frontend over a corpus, on any CPython it supports.

Every function that the tests and examples decorate for kjit (@njit, @jit,
@cuda.jit, @vectorize, ...) is compiled alone, without its decorators, by
the Python running this script; kjit/bytecode rebuilds its text from the
code object, and that text is compiled again. The two code objects must
hold the same instructions (names, constants and operations; not line
numbers or jump offsets): then the rebuilt function is the user's.

Needs neither NumPy nor kjit's compiled module, so it runs on any Python
of 3.11 to 3.13 (pyenv's, for instance):

    python3.12 tools/bytecode_corpus.py            # a summary
    python3.12 tools/bytecode_corpus.py -v         # each difference
    python3.12 tools/bytecode_corpus.py --json F   # the counts, for a test

Exits 1 when a rebuilt function differs from its original (a wrong
rebuild); functions the frontend refuses (Unsupported) are counted apart,
since refusing with a located error is the designed behaviour.
"""
import argparse
import ast
import dis
import glob
import json
import os
import sys
import types

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PKG = os.path.join(ROOT, "python_bindings", "kjit")

# kjit/bytecode alone: a bare `kjit` package, so that kjit/__init__.py (and
# with it the compiled module and NumPy) is not imported.
_pkg = types.ModuleType("kjit")
_pkg.__path__ = [PKG]
sys.modules.setdefault("kjit", _pkg)
from kjit.bytecode import Unsupported, function_source  # noqa: E402

JIT_NAMES = {"jit", "njit", "vectorize", "guvectorize", "generated_jit", "stencil", "reduce"}


def _decorator_name(node):
    while isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def corpus_functions(paths):
    """(file, line, name, text) of every kjit-decorated def in `paths`."""
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if not any(_decorator_name(d) in JIT_NAMES for d in node.decorator_list):
                continue
            node.decorator_list = []
            yield path, node.lineno, node.name, ast.unparse(node)


def _code_of(text, name):
    ns = {}
    exec(compile(text, "<corpus>", "exec"), ns)  # noqa: S102 - the corpus's own defs
    return ns[name].__code__


def _shape(code):
    """What a code object computes: its instructions with their arguments,
    jump targets as instruction indices, nested code objects by shape."""
    instrs = [i for i in dis.get_instructions(code) if i.opname not in ("NOP", "RESUME", "CACHE")]
    index = {i.offset: k for k, i in enumerate(instrs)}
    out = []
    for i in instrs:
        arg = i.argval
        if isinstance(arg, types.CodeType):
            arg = _shape(arg)
        elif i.opcode in dis.hasjrel or i.opcode in dis.hasjabs:
            arg = index.get(arg, arg)
        out.append((i.opname, repr(arg)))
    return (tuple(code.co_varnames[:code.co_argcount]), tuple(out))


def check(fn_text, name):
    """'same', 'different' (with the rebuilt text) or 'refused' (why)."""
    code = _code_of(fn_text, name)
    func = types.FunctionType(code, {}, name)
    try:
        rebuilt, _ = function_source(func)
    except Unsupported as e:
        return "refused", str(e)
    try:
        again = _code_of(rebuilt, name)
    except Exception as e:  # noqa: BLE001 - any failure to compile is a wrong rebuild
        return "different", f"the rebuilt text does not compile: {e}\n{rebuilt}"
    if _shape(again) == _shape(code):
        return "same", rebuilt
    return "different", rebuilt


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-v", action="store_true", help="print each difference and refusal")
    ap.add_argument("--json", help="write the counts here")
    ap.add_argument("paths", nargs="*", help="files (default: tests/python and examples)")
    args = ap.parse_args()
    paths = args.paths or sorted(glob.glob(os.path.join(ROOT, "tests", "python", "**", "*.py"), recursive=True) +
                                 glob.glob(os.path.join(ROOT, "examples", "*.py")))
    counts = {"same": 0, "different": 0, "refused": 0, "not compiled here": 0}
    refusals = {}
    differences = []
    for path, line, name, text in corpus_functions(paths):
        try:
            verdict, detail = check(text, name)
        except SyntaxError:
            counts["not compiled here"] += 1
            continue
        counts[verdict] += 1
        where = f"{os.path.relpath(path, ROOT)}:{line} {name}"
        if verdict == "refused":
            key = detail.split(" (")[0][:90]
            refusals[key] = refusals.get(key, 0) + 1
            if args.v:
                print(f"refused   {where}: {detail}")
        elif verdict == "different":
            differences.append(where)
            if args.v:
                print(f"DIFFERENT {where}\n--- original\n{text}\n--- rebuilt\n{detail}")
    ver = f"{sys.version_info[0]}.{sys.version_info[1]}"
    print(f"CPython {ver}: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    for why, n in sorted(refusals.items(), key=lambda kv: -kv[1]):
        print(f"  refused {n:4d}: {why}")
    for where in differences[:40]:
        print(f"  different: {where}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"python": ver, "counts": counts, "refusals": refusals, "differences": differences}, f,
                      indent=1)
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
