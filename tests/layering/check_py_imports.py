#!/usr/bin/env python3
"""The import rule of the Python package python_bindings/kjit: no circles,
and every import goes down the layers below.

Every import of a kjit module counts, wherever it is written (at module level
or inside a function, where it runs later but still ties the two modules
together):

    import kjit.x [as y]              from kjit.x import y
    from . import y                   from ..x import y   (relative forms)
    importlib.import_module("kjit.x") sys.modules.get("kjit.x"), sys.modules["kjit.x"]

A probe of sys.modules counts as an import too: a module that looks a
higher one up there still depends on it (the core's dispatcher used to
probe kjit.vectorize that way; it now takes a hook instead, below).

``from P import n`` is an import of the module P.n when there is one, else of
P (a package's ``__init__``); an import of kjit.a.b is an edge to kjit.a.b
only, not to its parent packages (Python runs them first, but a package's
``__init__`` that imports its own submodules would otherwise close a circle
with each of them). A module name built at run time (``"kjit.cuda." + name``)
cannot be followed and is itself an error: write the name out; a name held
in a variable is not seen at all (kjit/__init__'s table of lazy names: it is
on top, and nothing imports it back, so it closes no circle). Imports of
the compiled extensions (kjit._kjit, kjit._cuda_prestart) are no edges: they
import no Python module of kjit.

The layers, lowest first (LAYERS below). A module may import modules of its
own layer and of the layers below it, never above:

    core        errors, config, devices, types, typed, np/*, typeof,
                frontend, bytecode/*, dispatcher, serialize, sourcetext,
                bfloat16_host, float8_host: the @jit
                compiler's Python side, which knows of no device
    device      cuda/* (with cuda/simulator/*, cuda/cudadrv/*), hip/*, hostapi/*:
                the kernel API, the devices it launches on, and the one host
                API of them all
    extensions  vectorize/*, experimental: built on @jit and @cuda.jit
    top         kjit/__init__: names every layer (lazily)

So ``cuda/`` and ``vectorize/`` depend downward on the core, and the core
never imports them: where a lower module must act on a higher one's objects
(classify a @vectorize ufunc a jitted function names, pickle a kernel), the
higher one registers a hook with it when it is imported or passes it a
function (``kjit.dispatcher.register_classifier``,
``kjit.serialize.register_kernel_rebuild``, the rebuild function each
reducer is given); inside cuda/, the package kjit.cuda gives its
submodules the device's host API and cuda.jit through ``kjit.cuda.active``
(``bind``). Within a layer the circle check alone applies.

    check_py_imports.py ROOT          check ROOT/python_bindings/kjit (exit 1 on a problem)
    check_py_imports.py --graph ROOT  print every edge, then check
    check_py_imports.py --self-test   check that a circle and a wrong-way import are caught
"""
import ast
import os
import sys
import tempfile

PACKAGE = "kjit"

# Layer name -> the modules in it: a name, or a package followed by ".*" for
# the package and everything under it. Lowest layer first.
LAYERS = [
    ("core", ["kjit.errors", "kjit.config", "kjit.devices", "kjit.types", "kjit.typed", "kjit.np.*",
              "kjit.typeof", "kjit.frontend", "kjit.bytecode.*", "kjit.dispatcher", "kjit.serialize",
              "kjit.sourcetext", "kjit.bfloat16_host", "kjit.float8_host"]),
    ("device", ["kjit.cuda.*", "kjit.hip.*", "kjit.hostapi.*"]),
    ("extensions", ["kjit.vectorize.*", "kjit.experimental"]),
    ("top", ["kjit"]),
]

# Compiled extension modules: imports of them are no edges.
EXTENSIONS = {"kjit._kjit", "kjit._cuda_prestart"}

# Literal-name calls that import a module: (object name or None, function name).
IMPORT_CALLS = {("importlib", "import_module"), (None, "import_module"), ("sys.modules", "get")}


def module_files(src):
    """{module name: file path} for every .py under src/kjit."""
    out = {}
    top = os.path.join(src, PACKAGE)
    for dirpath, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__pycache__")))
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), src)[:-3].replace(os.sep, ".")
            name = rel[:-len(".__init__")] if rel.endswith(".__init__") else rel
            out[name] = os.path.join(dirpath, f)
    return out


def _dotted(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return base + "." + node.attr if base else None
    return None


def _literal_prefix(node):
    """The leading literal text of a string expression ("kjit.cuda." + name,
    f"kjit.{x}"), or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _literal_prefix(node.left)
    if isinstance(node, ast.JoinedStr) and node.values:
        return _literal_prefix(node.values[0])
    return None


def imports_of(name, path, modules):
    """[(imported module, line, how)] for every kjit import in one module, and
    [(line, message)] for imports the check cannot follow."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    is_package = os.path.basename(path) == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    edges, problems = [], []

    def target(mod):
        # The module an import of `mod` loads: itself, or None when it is not
        # kjit's (or is a compiled extension).
        if mod in EXTENSIONS or not (mod == PACKAGE or mod.startswith(PACKAGE + ".")):
            return None
        if mod in modules:
            return mod
        return "?" + mod

    def add(mod, line, how):
        t = target(mod)
        if t is None:
            return
        if t.startswith("?"):
            problems.append((line, f"{how}: no module {t[1:]} in the package"))
        else:
            edges.append((t, line, how))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno, f"import {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                if node.level - 1 >= len(parts):
                    problems.append((node.lineno, "relative import beyond the package"))
                    continue
                base = ".".join(parts[:len(parts) - (node.level - 1)])
                mod = base + ("." + node.module if node.module else "")
            else:
                mod = node.module
            text = "from " + "." * node.level + (node.module or "") + " import "
            names = {}  # the module loaded -> the names taken from it, in order
            for alias in node.names:
                sub = mod + "." + alias.name
                loaded = sub if alias.name != "*" and (sub in modules or sub in EXTENSIONS) else mod
                names.setdefault(loaded, []).append(alias.name)
            for loaded, taken in names.items():
                add(loaded, node.lineno, text + ", ".join(taken))
        elif (isinstance(node, ast.Subscript) and _dotted(node.value) == "sys.modules"
              and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
            add(node.slice.value, node.lineno, f'sys.modules["{node.slice.value}"]')
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            key = None
            if isinstance(func, ast.Attribute):
                key = (_dotted(func.value), func.attr)
            elif isinstance(func, ast.Name):
                key = (None, func.id)
            if key not in IMPORT_CALLS:
                continue
            arg = node.args[0]
            call = f"{key[0] + '.' if key[0] else ''}{key[1]}"
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                add(arg.value, node.lineno, f'{call}("{arg.value}")')
            else:
                prefix = _literal_prefix(arg)
                if prefix is not None and (prefix == PACKAGE or prefix.startswith(PACKAGE + ".")):
                    problems.append((node.lineno, f"{call}({prefix!r} + ...): a module name built at run time "
                                                  "cannot be checked; write it out"))
    return edges, problems


def layer_of(module):
    """(index, name) of the module's layer, or None."""
    best = None
    for i, (layer, patterns) in enumerate(LAYERS):
        for p in patterns:
            if p.endswith(".*"):
                base = p[:-2]
                if module == base or module.startswith(base + "."):
                    length = len(base)
                else:
                    continue
            elif module == p:
                length = len(p) + 1  # an exact name beats a package pattern
            else:
                continue
            if best is None or length > best[0]:
                best = (length, i, layer)
    return None if best is None else best[1:]


def find_cycles(graph):
    """The elementary circles of the graph, one per strongly connected
    component's edge not yet covered: [[m0, m1, ..., m0]]."""
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                comps.append(set(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    cycles = []
    for comp in comps:
        if len(comp) == 1:
            v = next(iter(comp))
            if v in graph.get(v, ()):
                cycles.append([v, v])
            continue
        # Cover every edge inside the component by a shortest circle through it.
        covered = set()
        for a in sorted(comp):
            for b in sorted(graph[a] & comp):
                if (a, b) in covered:
                    continue
                path = _shortest(graph, comp, b, a)
                cycle = [a] + path
                for x, y in zip(cycle, cycle[1:]):
                    covered.add((x, y))
                cycles.append(cycle)
    return cycles


def _shortest(graph, comp, start, goal):
    prev, frontier = {start: None}, [start]
    while frontier:
        nxt = []
        for v in frontier:
            if v == goal:
                path = []
                while v is not None:
                    path.append(v)
                    v = prev[v]
                return path[::-1]
            for w in sorted(graph.get(v, ()) & comp):
                if w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    raise AssertionError("no path inside a strongly connected component")


def check(src, show_graph=False, out=sys.stdout):
    """The problems of the package under src (a list of lines; empty when
    the package keeps the rule)."""
    modules = module_files(src)
    problems = []
    graph = {m: set() for m in modules}
    where = {}  # (a, b) -> ["file:line (how)"]
    for name, path in sorted(modules.items()):
        rel = os.path.relpath(path, os.path.dirname(src)).replace(os.sep, "/")
        edges, unfollowed = imports_of(name, path, modules)
        for line, msg in unfollowed:
            problems.append(f"{rel}:{line}: {msg}")
        for mod, line, how in edges:
            if mod == name:
                continue  # a module naming itself (a docstring example, sys.modules[__name__])
            graph[name].add(mod)
            where.setdefault((name, mod), []).append(f"{rel}:{line} ({how})")
        mine = layer_of(name)
        if mine is None:
            problems.append(f"{rel}: module {name} is in no layer (add it to LAYERS in {os.path.basename(__file__)})")
            continue
        for mod, line, how in edges:
            theirs = layer_of(mod)
            if theirs is not None and theirs[0] > mine[0]:
                problems.append(f"{rel}:{line}: {how}: {name} (layer {mine[1]}) imports {mod} (layer {theirs[1]}, "
                                f"above it)")
    if show_graph:
        for (a, b), places in sorted(where.items()):
            for p in places:
                print(f"{a} -> {b}  {p}", file=out)
    for cycle in find_cycles(graph):
        lines = [f"import circle: {' -> '.join(cycle)}"]
        for a, b in zip(cycle, cycle[1:]):
            lines.append(f"    {a} -> {b}: {', '.join(where[(a, b)])}")
        problems.append("\n".join(lines))
    return problems


def run(root, show_graph=False):
    src = os.path.join(root, "python_bindings")
    if not os.path.isdir(os.path.join(src, PACKAGE)):
        print(f"no package {PACKAGE} under {src}", file=sys.stderr)
        return 2
    problems = check(src, show_graph)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} import problem(s) in python_bindings/{PACKAGE} (tests/layering/check_py_imports.py "
              "says what the rule is)")
        return 1
    print(f"python_bindings/{PACKAGE}: no import circles, every import goes down the layers")
    return 0


def self_test():
    """A made-up package with circles (function-local, relative and
    import_module imports close them), wrong-way imports from the core (one
    a probe of sys.modules) and a module name built at run time: each must
    be reported."""
    files = {
        "kjit/__init__.py": "from kjit import errors\n",
        "kjit/errors.py": "class E(Exception):\n    pass\n",
        "kjit/dispatcher.py": "from kjit import errors\n\ndef f():\n    from kjit.cuda import compiler\n",
        "kjit/serialize.py": "import importlib\n\ndef g():\n    return importlib.import_module('kjit.vectorize')\n",
        "kjit/typeof.py": "import importlib\nimport sys\n\ndef t(name):\n"
                          "    return sys.modules.get('kjit.cuda'), importlib.import_module('kjit.cuda.' + name)\n",
        "kjit/cuda/__init__.py": "from . import compiler\n",
        "kjit/cuda/compiler.py": "from kjit.dispatcher import f\n\ndef h():\n    from ..cuda import api\n",
        "kjit/cuda/api.py": "def k():\n    from .compiler import h\n",
        "kjit/vectorize/__init__.py": "from kjit import serialize, dispatcher\n",
    }
    with tempfile.TemporaryDirectory() as d:
        for rel, text in files.items():
            path = os.path.join(d, "python_bindings", rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        problems = check(os.path.join(d, "python_bindings"))
    text = "\n".join(problems)
    want = [
        # the wrong-way imports, function-local and by import_module
        "python_bindings/kjit/dispatcher.py:4: from kjit.cuda import compiler: kjit.dispatcher (layer core) imports "
        "kjit.cuda.compiler (layer device, above it)",
        "python_bindings/kjit/serialize.py:4: importlib.import_module(\"kjit.vectorize\"): kjit.serialize (layer core) "
        "imports kjit.vectorize (layer extensions, above it)",
        # a probe of sys.modules is an import; a name built at run time cannot be checked
        "python_bindings/kjit/typeof.py:5: sys.modules.get(\"kjit.cuda\"): kjit.typeof (layer core) imports kjit.cuda "
        "(layer device, above it)",
        "python_bindings/kjit/typeof.py:5: importlib.import_module('kjit.cuda.' + ...): a module name built at run "
        "time cannot be checked",
        # the circles: through the core, by relative imports inside cuda/,
        # and by a string import_module
        "import circle: kjit.cuda.compiler -> kjit.dispatcher -> kjit.cuda.compiler",
        "kjit.dispatcher -> kjit.cuda.compiler: python_bindings/kjit/dispatcher.py:4 (from kjit.cuda import compiler)",
        "import circle: kjit.cuda.api -> kjit.cuda.compiler -> kjit.cuda.api",
        "kjit.cuda.compiler -> kjit.cuda.api: python_bindings/kjit/cuda/compiler.py:4 (from ..cuda import api)",
        "import circle: kjit.serialize -> kjit.vectorize -> kjit.serialize",
        "kjit.vectorize -> kjit.serialize: python_bindings/kjit/vectorize/__init__.py:1 (from kjit import serialize)",
    ]
    missing = [w for w in want if w not in text]
    if missing or len(problems) != 7:
        print("self-test FAILED; the check reported:\n" + text)
        for w in missing:
            print("missing: " + w)
        return 1
    print(text)
    print("self-test passed: import circles and wrong-way imports are reported")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) == 3 and argv[1] == "--graph":
        return run(argv[2], show_graph=True)
    if len(argv) == 2 and not argv[1].startswith("-"):
        return run(argv[1])
    print("usage: check_py_imports.py [--graph] ROOT | --self-test", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
