"""Functions without source: kjit rebuilds them from their bytecode.

kjit compiles a function from its source text. Where there is none (``python
-c``, the interactive prompt, ``exec``, a function unpickled in another
process) or the file no longer holds it, kjit reads the code object instead
(kjit/bytecode): the same parser, typer and code generator run on a text
rebuilt from the bytecode, and every location moves back to the user's file,
line and column. ``KJIT_FRONTEND=bytecode`` uses the bytecode for every
function (the whole test suite passes that way too).
"""
import ast
import io
import linecache
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import kjit
from kjit import bytecode, cuda, errors, njit

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/python
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))


def from_text(text, name, filename="<generated>", register=False, env=None):
    """The function `name` defined by exec of `text` (no file to read).
    register=True puts the text in linecache, as IPython does."""
    text = textwrap.dedent(text)
    if register:
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    ns = dict(env or {})
    exec(compile(text, filename, "exec"), ns)  # noqa: S102 - a function without a file
    return ns[name]


def typed_ir(f):
    out = io.StringIO()
    f.inspect_types(file=out)
    return out.getvalue()


# ---- functions made by exec ---------------------------------------------------

PROGRAM = """
def collatz_steps(n, limit):
    steps = 0
    while n != 1 and steps < limit:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        steps += 1
    else:
        steps = -steps
    return steps

def first_negative(a):
    for i in range(a.shape[0]):
        if a[i] < 0:
            break
    else:
        return -1
    return i

def clipped_sum(a, lo, hi):
    s = 0.0
    for x in a:
        if not lo <= x < hi:
            continue
        s += x if x > 0 else -x
    return s

def mixed(a, b):
    x, y = b, a
    t = a if a > b else b
    both = a > 0 and b > 0
    either = a > 0 or b > 0
    assert t >= x or t >= y, "max is at least both"
    return x - y, t, both, either
"""


def test_functions_made_by_exec_compile_from_bytecode():
    ns_src = textwrap.dedent(PROGRAM)
    for name, args in [("collatz_steps", (27, 1000)), ("collatz_steps", (27, 10)),
                       ("first_negative", (np.array([1.0, 2.0, -3.0, 4.0]),)),
                       ("first_negative", (np.array([1.0, 2.0]),)),
                       ("clipped_sum", (np.array([-3.0, -1.0, 0.5, 2.0, 7.0]), -2.0, 5.0)),
                       ("mixed", (3, -4)), ("mixed", (-1.5, 2.5))]:
        py = from_text(ns_src, name)
        f = njit(py)
        assert f._frontend == "bytecode"
        assert f(*args) == py(*args), name


def test_inspect_types_says_the_function_was_read_from_bytecode(monkeypatch):
    monkeypatch.delenv("KJIT_FRONTEND", raising=False)
    f = njit(from_text("def inc(x):\n    return x + 1\n", "inc"))
    assert f(2) == 3
    assert "# inc: read from its bytecode\n" in typed_ir(f)

    @njit
    def g(x):
        return x + 1

    g(2)
    assert g._frontend == "source" and "bytecode" not in typed_ir(g)


def test_an_exec_generated_kernel_runs_on_every_device(run_on_device):
    # Libraries build kernels from templates with exec: the CPU device, the
    # simulator and the GPU path (PTX) all take them.
    program = """
        import numpy as np
        from kjit import cuda
        TEMPLATE = '''
        def scale_{name}(a, out):
            i = cuda.grid(1)
            if i < a.size:
                out[i] = a[i] {op} {k}
        '''
        ns = {"cuda": cuda}
        for name, op, k in [("mul", "*", 3), ("add", "+", 10)]:
            exec(TEMPLATE.format(name=name, op=op, k=k), ns)
        a = np.arange(8.0)
        out = np.zeros(8)
        cuda.jit(ns["scale_mul"])[1, 32](a, out)
        assert (out == a * 3).all(), out
        cuda.jit(ns["scale_add"])[1, 32](a, out)
        assert (out == a + 10).all(), out
        ptx = cuda.compile_ptx(ns["scale_mul"], "void(float64[::1], float64[::1])")[0]
        assert ".entry" in ptx or ".visible" in ptx
        print("ok")
    """
    for device in ("cpu", "sim"):
        assert run_on_device(program, device=device).stdout.strip() == "ok"


# ---- no file at all: python -c and the prompt -----------------------------------

SCRIPT = """\
import numpy as np
from kjit import njit, cuda

@njit
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * a[i]
    return s

@cuda.jit
def double(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= 2

a = np.arange(4.0)
double[1, 4](a)
print(total(a))
"""


def _env():
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"), KJIT_DEVICE="cpu")
    env.pop("KJIT_FRONTEND", None)
    return env


def test_python_dash_c():
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=_env(), timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "56.0"


def test_the_interactive_prompt_through_a_pipe():
    # `python3 -i` reading from a pipe: each statement typed at the prompt.
    session = SCRIPT.replace("\ns = ", "\n    s = ") + "\n"
    r = subprocess.run([sys.executable, "-i", "-q"], input=session, capture_output=True, text=True, env=_env(),
                       timeout=300)
    assert "56.0" in r.stdout, r.stdout + r.stderr
    assert "Error" not in r.stderr, r.stderr


def test_errors_in_python_dash_c_name_the_line_and_column():
    script = "from kjit import njit\n@njit\ndef f(x):\n    return x.nothing\nf(1)\n"
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=_env(), timeout=300)
    assert r.returncode == 1
    assert "kjit.errors.TypingError: <string>:4:12: error: int64 has no attribute 'nothing'" in r.stderr


# ---- locations -----------------------------------------------------------------------


def test_errors_point_at_the_users_line_and_column():
    text = """
    def f(a, n):
        s = 0
        for i in range(n):
            s += a[i] + "text"
        return s
    """
    f = njit(from_text(text, "f", filename="<kernels>", register=True))
    with pytest.raises(errors.TypingError) as ei:
        f(np.zeros(3), 3)
    e = ei.value
    assert (e.filename, e.lineno, e.col) == ("<kernels>", 5, 14)
    # The line is known (linecache): the message shows it with a caret.
    assert str(e).splitlines()[1:] == ['  File "<kernels>", line 5', '    s += a[i] + "text"', '         ^^^^^^^^^^^^^']


def test_an_error_inside_a_comprehension_points_at_its_element(monkeypatch):
    monkeypatch.setenv("KJIT_FRONTEND", "bytecode")  # (the text is registered for the caret line)
    text = """
    def f(a, n):
        return [a[i] + "text" for i in range(n) if i > 0]
    """
    f = njit(from_text(text, "f", filename="<comprehensions>", register=True))
    with pytest.raises(errors.TypingError) as ei:
        f(np.zeros(3), 3)
    e = ei.value
    assert f._frontend == "bytecode"
    assert (e.filename, e.lineno, e.col) == ("<comprehensions>", 3, 13)
    assert str(e).splitlines()[2:] == ['    return [a[i] + "text" for i in range(n) if i > 0]',
                                       '            ^^^^^^^^^^^^^']


def test_without_the_text_errors_still_name_file_line_and_column():
    f = njit(from_text("def f(x):\n    y = x + 1\n    return y.real.imag.nothing\n", "f", filename="<nowhere>"))
    with pytest.raises(errors.TypingError) as ei:
        f(2)
    assert (ei.value.filename, ei.value.lineno) == ("<nowhere>", 3)
    assert str(ei.value).startswith("<nowhere>:3:")


def test_unsupported_bytecode_is_reported_when_the_function_compiles():
    text = """
    def f(a):
        a[1] = 2
        with open("x") as g:
            a[0] = 1
    """
    f = njit(from_text(text, "f", filename="<withs>"))  # decorating works, as with source
    with pytest.raises(errors.UnsupportedError) as ei:
        f(np.zeros(2))
    assert ei.value.msg.startswith("'with' statements are not supported")
    assert (ei.value.filename, ei.value.lineno) == ("<withs>", 4)


def test_try_statements_come_back_from_bytecode():
    # The exception table read back (CPython 3.11 to 3.13): the clauses in
    # order, a tuple of types, `else:`, a try in a loop, two in a row; an
    # `as` name refused as from source.
    text = """
    def f(a, n):
        s = 0
        for i in range(n):
            try:
                s += 10 // a[i]
            except (KeyError, IndexError):
                s -= 100
            except ZeroDivisionError:
                s -= 1
            else:
                s += 1000
        try:
            s = s // n
        except ZeroDivisionError:
            s = -7
        return s
    """
    f = from_text(text, "f", filename="<tries>")
    a = [1, 0, 2, 0, 5, 3]  # (a list: 10 // 0 raises in Python too; a[6] is an IndexError)
    j = njit(f)
    assert [j(a, n) for n in (0, 3, 5, 7)] == [f(a, n) for n in (0, 3, 5, 7)] == [-7, 671, 603, 559]
    assert j._frontend == "bytecode"
    named = from_text("""
    def g(n):
        try:
            n = 10 // n
        except ZeroDivisionError as e:
            n = -7
        return n
    """, "g", filename="<named>")
    with pytest.raises(errors.UnsupportedError, match="'except ... as name' is not supported") as e:
        njit(named)(0)
    assert "<named>:5:" in str(e.value)
    # A try inside another, and one that begins with another: the blocks
    # inside a try are written inside `try: ... except E:` per level (the
    # dispatch form, dispatch.py), so the inner paths that end in the outer
    # handlers come back right.
    inside = from_text("""
    def h(n):
        try:
            n += 1
            try:
                n = 10 // n
            except ZeroDivisionError:
                n = -7
                if n < 0:
                    raise KeyError
        except KeyError:
            n = -9
        return n
    """, "h", filename="<inside>")
    nested = from_text("""
    def g(n):
        try:
            try:
                return 10 // n
            except ValueError:
                return 1
        except ZeroDivisionError:
            return 2
    """, "g", filename="<nested>")
    for f, args in ((inside, (-1, 0, 4)), (nested, (0, 3))):
        j = njit(f)
        assert [j(n) for n in args] == [f(n) for n in args]
        assert j._frontend == "bytecode"
    assert [njit(inside)(n) for n in (-1, 0, 4)] == [-9, 10, 2]


def test_a_loop_of_tries_inside_tries_matches_python():
    text = """
    def g(n):
        s = 0
        for i in range(n):
            try:
                try:
                    if i % 3 == 0:
                        raise ValueError
                    s += 1
                except ValueError:
                    s += 10
                    if i % 2 == 0:
                        raise KeyError
            except KeyError:
                s += 100
                continue
            s += 1000
        return s
    """
    g = from_text(text, "g")
    assert [njit(g)(n) for n in (0, 1, 7)] == [g(n) for n in (0, 1, 7)] == [0, 110, 5234]


def test_a_chained_comparison_in_a_returned_tuple_comes_back(monkeypatch):
    # (issue 33, item 5) the chain's middle value is computed once and kept
    # on the stack while both tuple items after it are computed: no
    # statement order says it, the dispatch form does.
    text = """
    def count_in(a, lo, hi):
        n_in = 0
        for i in range(a.shape[0]):
            if lo <= a[i] < hi:
                n_in += 1
        return n_in, lo < hi <= a.shape[0], not (lo > hi)
    """
    f = from_text(text, "count_in", filename="<chain>")
    j = njit(f)
    for args in ((np.arange(10), 2, 5), (np.arange(4), 2, 5), (np.arange(4), 5, 2)):
        assert j(*args) == f(*args)
    assert j._frontend == "bytecode"
    src, _ = bytecode.function_source(f)
    assert src.count("a.shape[0]") == 2 and "while True:" in src, src  # (the loop's and the chain's: once each)


def test_while_conditions_that_hold_conditional_expressions_come_back():
    text = """
    def h(n):
        i = 0
        s = 0.0
        while i < n and (i if i % 2 else n - i) > 1:
            i += 1
            s += 0.5
        return s

    def k(a, b):
        t = 0
        while (a if a > b else b) > 0 and (a > 3 or b > 3):
            a -= 1
            b -= 2
            t += 1
        return t
    """
    for name, arglists in (("h", [(7,), (0,), (3,)]), ("k", [(5, 9), (1, 1), (8, -2)])):
        f = from_text(text, name)
        assert [njit(f)(*a) for a in arglists] == [f(*a) for a in arglists], name


def test_the_dispatch_form_compiles_what_the_structurer_does(monkeypatch):
    # KJIT_BYTECODE_FORM=dispatch writes every function in the dispatch form
    # (a test mode): the form kjit falls back to compiles and runs the
    # programs above as they run in Python.
    monkeypatch.setenv("KJIT_BYTECODE_FORM", "dispatch")
    a = np.array([3.0, -1.0, 2.5, 7.0])
    cases = {"collatz_steps": [(27, 1000), (1, 5), (7, 3)], "first_negative": [(a,), (np.abs(a),)],
             "clipped_sum": [(a, -2.0, 5.0)], "mixed": [(3, 4), (-1, 2)]}
    for name, arglists in cases.items():
        f = from_text(PROGRAM, name)
        src, _ = bytecode.function_source(f)
        assert "while True:" in src or "kjit_" in src or name == "mixed", src
        for args in arglists:
            assert njit(f)(*args) == f(*args), (name, args)


def test_a_value_the_bytecode_computes_once_is_never_computed_twice():
    # `0 > f(y) <= c` evaluates f(y) once (the bytecode copies its value):
    # rebuilt as `0 > f(y) and f(y) <= c` it would call f twice. The chain
    # comes back whole inside an `and`; where a rebuild would still write a
    # computed value twice it is refused, never compiled.
    calls = []

    def f(v):
        calls.append(v)
        return v
    g = from_text("""
    def g(w, y, c):
        if w < 2 and 0 > f(y) <= c:
            return 1
        return 0
    """, "g", env={"f": f})
    text, _ = bytecode.function_source(g)
    assert "if w < 2 and 0 > f(y) <= c:" in text
    assert text.count("f(y)") == 1
    ns = {"f": f}
    exec(text, ns)  # noqa: S102 - the rebuilt text behaves as the original
    for args in ((1, -3, 0), (1, 3, 0), (5, -3, 0)):
        del calls[:]
        want = (g(*args), list(calls))
        del calls[:]
        assert (ns["g"](*args), list(calls)) == want
    node = ast.parse("def h(x):\n    return (x + 1, 0)\n").body[0]
    value = node.body[0].value
    node.body.insert(0, ast.Assign(targets=[ast.Name(id="y", ctx=ast.Store())], value=value.elts[0]))
    with pytest.raises(bytecode.Unsupported, match="without evaluating a part of it twice"):
        bytecode.decompile._evaluated_once(node)


def test_a_for_loop_that_never_goes_back_comes_back_from_bytecode():
    # Every path of the body breaks or returns: CPython drops the code after
    # the jump and the loop has no back edge (issue 33); it is still a loop.
    text = """
    def first(n):
        k = 0
        for i in range(n):
            k += 1
            break
            for j in range(n):
                k += j
        return k

    def sign_of_first(a):
        for x in a:
            if x > 1:
                return x
            else:
                return -x
        return 0.0

    def inner_breaks(n):
        t = 0
        for i in range(n):
            for j in range(3):
                t += j
                break
            else:
                t += 100
        return t
    """
    cases = {"first": [(5,), (0,)], "sign_of_first": [(np.array([3.0]),), (np.array([0.5]),), (np.zeros(0),)],
             "inner_breaks": [(4,)]}
    for name, arglists in cases.items():
        f = from_text(text, name)
        src, _ = bytecode.function_source(f)
        assert "for " in src, src
        for args in arglists:
            assert njit(f)(*args) == f(*args), (name, args)


def test_a_handler_that_breaks_out_of_a_loop_is_refused_not_a_crash():
    # (found by tools/bytecode_fuzz.py: the exception test stayed an `if`
    # that no `try` took, and writing the text failed with a TypeError)
    g = from_text("""
    def g(a, b, c):
        while a < 1 and (b > (-c) and f(a) == c):
            if (2 + 1) == (-b):
                f(b)
            try:
                c = (3 - b) % 1009
            except ValueError:
                break
        while b < 5 and c <= 3 >= a:
            if ((c - b) > 10 or b >= abs(0)):
                return (b % 3)
    """, "g", env={"f": abs})
    try:
        bytecode.function_source(g)
    except bytecode.Unsupported as e:
        assert "try statement" in str(e)


def test_bytecode_rewritten_by_a_tool_is_refused_by_name():
    # pytest's assertion rewriting (without --assert=plain) gives the
    # functions of test files temporaries named `@py_assert1`: no source
    # holds such a name, and kjit says what happened instead of failing
    # to parse its own rebuilt text.
    tree = ast.parse("def check(x):\n    assert x != 3\n    return x\n")
    tree.body[0].body.insert(0, ast.Assign(targets=[ast.Name(id="@py_assert1", ctx=ast.Store())],
                                           value=ast.Constant(1), lineno=2, col_offset=4))
    ast.fix_missing_locations(tree)
    ns = {}
    exec(compile(tree, "<rewritten>", "exec"), ns)  # noqa: S102 - a function without a file
    with pytest.raises(errors.UnsupportedError, match="not a Python identifier.*--assert=plain") as ei:
        njit(ns["check"])(2)
    assert (ei.value.filename, ei.value.lineno) == ("<rewritten>", 2)


def test_an_edited_file_falls_back_to_the_bytecode(tmp_path, monkeypatch):
    mod = tmp_path / "edited_mod.py"
    mod.write_text("def f(x):\n    return x * 2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import edited_mod
    mod.write_text("# the file changed after import\ndef g(y, z):\n    return y - z\n")
    linecache.checkcache(str(mod))
    f = njit(edited_mod.f)
    assert f._frontend == "bytecode"
    assert f(21) == 42


# ---- one typed IR either way ----------------------------------------------------------


def corpus_while(a, n):
    i = 0
    while i < n and a[i] >= 0:
        i += 1
        if a[i - 1] == 3:
            break
        if a[i - 1] == 4:
            continue
        a[i - 1] = 2
    else:
        i = -1
    return i


def corpus_for(a):
    s = 0.0
    for i in range(a.shape[0]):
        if i == 2:
            continue
        if a[i] < 0:
            break
        s += a[i]
    else:
        s = -s
    return s


def corpus_nested(a):
    t = 0.0
    for i in range(a.shape[0]):
        for j in range(i, a.shape[0]):
            if a[i] > a[j]:
                t += a[i] - a[j]
            elif a[i] == a[j]:
                t += 1
            else:
                t -= 1
    return t


def corpus_expressions(x, y):
    a = x if x > y else y
    b = x > 0 and y > 0
    c = 0 <= x < 10
    d = -x ** 2 + (x + y) * (x - y) // 3 % 7
    e = not (x > y)
    f = x if (x > 0 and y > 0) else -y
    return a, b, c, d, e, f


def corpus_assignments(a):
    x, y = a[0], a[1]
    x, y = y, x
    p = q = x + y
    a[0] += p
    a[1] -= q
    return x, y


def corpus_early_return(a, n):
    for i in range(n):
        if a[i] == 0:
            return i
    return -1


def corpus_if_chain(x):
    if x < 0:
        r = -1
    elif x == 0:
        r = 0
    elif x < 10:
        r = 1
    else:
        r = 2
    return r


def corpus_while_true(n):
    i = 0
    while True:
        i += 1
        if i * i > n:
            break
    return i


def corpus_chained_while(a, lo, hi):
    # A chained comparison in a while condition: CPython lays out the copy
    # at the end of the body unlike the guard before it (a cleanup block
    # for the shared middle operand), so the loop comes back from its
    # guard and the copy (tidy._guarded_loops).
    i = 0
    n = 0
    while lo <= i < hi:
        n += a[i]
        i += 1
    while i > 0 and 0 <= a[i - 1] < 5:
        i -= 1
    return n, i


def corpus_raise(x):
    if x < 0:
        raise ValueError("negative")
    return x


def corpus_comprehensions(n):
    xs = [i * 2 for i in range(n) if i % 3 != 0]
    pairs = [x + y for x in range(3) for y in range(x)]
    squares = {i: i * i for i in range(n) if not i < 2}
    return sum(xs) + sum(pairs) + len(squares) + sum(v for v in xs if v > 2)


def corpus_dict_displays(n):
    d = {1: 2.0, 3: 4.5}
    e = {"a": n, "b": n + 1}
    d[n] = 7.0
    return d[1] + d[n] + e["b"] + len(d)


# On CPython 3.12 and later, `break` followed by `return` compiles to a copy
# of the return inside the loop: these come back as equivalent, not equal.
EXITS_COPIED_BY_312 = {corpus_while, corpus_for}

CORPUS = [
    (corpus_while, (np.array([1, 2, 5, 4, 3, 0, -1]), 6)),
    (corpus_for, (np.array([1.0, 2.0, 5.0, -4.0, 3.0]),)),
    (corpus_nested, (np.array([1.0, 3.0, 2.0, 3.0]),)),
    (corpus_expressions, (3, 2)),
    (corpus_expressions, (1.5, -2.5)),
    (corpus_assignments, (np.array([1.0, 2.0]),)),
    (corpus_early_return, (np.array([3, 0, 1]), 3)),
    (corpus_if_chain, (5,)),
    (corpus_while_true, (50,)),
    (corpus_chained_while, (np.array([1, 2, 9, 3, 4]), 0, 4)),
    (corpus_raise, (2.0,)),
    (corpus_comprehensions, (9,)),
    (corpus_dict_displays, (5,)),
]


@pytest.mark.parametrize("func,args", CORPUS, ids=[f"{f.__name__}-{k}" for k, (f, _) in enumerate(CORPUS)])
def test_the_typed_ir_from_bytecode_equals_the_one_from_source(func, args, monkeypatch):
    monkeypatch.delenv("KJIT_FRONTEND", raising=False)
    src = njit(func)
    monkeypatch.setenv("KJIT_FRONTEND", "bytecode")
    byc = njit(func)
    assert (src._frontend, byc._frontend) == ("source", "bytecode")
    copies = [[a.copy() if isinstance(a, np.ndarray) else a for a in args] for _ in range(2)]
    assert src(*copies[0]) == byc(*copies[1])
    if sys.version_info >= (3, 12) and func in EXITS_COPIED_BY_312:
        pytest.skip("CPython 3.12 copies this loop's exit into its break: the same meaning, another IR "
                    "(docs/language.md)")
    assert typed_ir(byc).replace(f"# {func.__name__}: read from its bytecode\n", "") == typed_ir(src)
