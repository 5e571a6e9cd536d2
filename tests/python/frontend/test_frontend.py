"""The frontend from Python: parsing, and errors that point at the user's line."""
import inspect
import textwrap

import pytest

import kjit
from kjit import errors, frontend


def test_parse_module_lists_functions():
    src = textwrap.dedent(
        """
        import math
        from kjit import cuda

        @cuda.jit
        def add(x, y, out):
            i = cuda.grid(1)
            if i < x.size:
                out[i] = x[i] + y[i]

        def helper(a, b=2):
            return a ** b
        """
    )
    m = frontend.parse(src, "mod.py")
    assert m.functions == ["add", "helper"]
    dump = m.dump("helper")
    assert dump.splitlines() == [
        "def helper(a, b=2) <11:1>",
        "  return <12:5> (** a b)",
    ]


def test_function_text_keeps_real_line_numbers():
    # What the decorator will do: the text of one function, with the line
    # of the file it starts on.
    def kernel(a):
        return a + 1

    lines, first = inspect.getsourcelines(kernel)
    m = frontend.parse("".join(lines), __file__, first)
    assert m.functions == ["kernel"]
    assert m.dump("kernel").splitlines()[1] == f"  return <{first + 1}:9> (+ a 1)"


def test_unsupported_construct_raises_with_location():
    src = "def k(x):\n    y = (yield x)\n    return y\n"
    with pytest.raises(errors.UnsupportedError) as info:
        frontend.parse(src, "k.py", 12)
    e = info.value
    assert isinstance(e, kjit.KjitError)
    assert (e.filename, e.lineno, e.col) == ("k.py", 13, 9)
    assert e.msg == "generators ('yield') are not supported in kernels"
    text = str(e)
    assert text.startswith("k.py:13:9: error: generators ('yield') are not supported")
    assert '  File "k.py", line 13\n    y = (yield x)\n        ^^^^^^^^^' in text


def test_syntax_error_is_a_compile_error():
    with pytest.raises(errors.CompileError) as info:
        frontend.parse("def k(x):\n    return x +\n", "k.py")
    e = info.value
    assert not isinstance(e, errors.UnsupportedError)
    assert (e.lineno, e.col) == (2, 15)
    assert "expected an expression, found end of line" in e.msg


def test_all_errors_are_reported_together():
    src = "def k(x):\n    global g\n    with x:\n        pass\n    return {*x}\n"
    with pytest.raises(errors.UnsupportedError) as info:
        frontend.parse(src, "k.py")
    lines = [(d["lineno"], d["message"]) for d in info.value.diagnostics]
    assert [l for l, _ in lines] == [2, 3, 5]
    assert "starred expressions" in lines[2][1]


def test_only_the_requested_function_is_checked():
    src = "def bad():\n    return (yield y)\n\ndef good():\n    return 1\n"
    m = frontend.parse(src, "m.py", function="good")
    assert m.functions == ["good"]
    with pytest.raises(errors.UnsupportedError):
        frontend.parse(src, "m.py")


def test_process_goes_on_after_errors():
    for _ in range(3):
        with pytest.raises(errors.CompileError):
            frontend.parse("def k(:\n", "k.py")
    assert frontend.parse("def k():\n    pass\n").functions == ["k"]


def test_dump_unknown_function_is_a_key_error():
    m = frontend.parse("def k():\n    pass\n")
    with pytest.raises(KeyError):
        m.dump("nope")


@pytest.mark.parametrize(
    "expr, tree",
    [
        ("-x ** 2", "(u- (** x 2))"),
        ("2 ** 3 ** 2", "(** 2 (** 3 2))"),
        ("a < b < c", "(cmp a < b < c)"),
        ("not a or b", "(or (not a) b)"),
        ("x[1:, ::2]", "(index x (tuple (slice 1 _ _) (slice _ _ 2)))"),
    ],
)
def test_expression_trees(expr, tree):
    m = frontend.parse(f"def f(x, a, b, c):\n    return {expr}\n")
    assert m.dump("f").splitlines()[1] == f"  return <2:5> {tree}"


def test_identifiers_are_one_name_after_nfkc_normalisation(run_on_device):
    # Python reads identifiers NFKC-normalised (PEP 3131): `ﬁle` (a ligature)
    # and `file` are one variable, `ｌｅｎ` (full width) is `len`. kjit read
    # them as different names: a silent wrong result. Strings keep their text.
    r = run_on_device("""
        from kjit import njit

        def f(x):
            ﬁle = 2
            file = file * 10 + x
            s = "ﬁle stays"
            return ﬁle, ｌｅｎ(s), s

        assert njit(f)(3) == f(3) == (23, 9, "ﬁle stays"), (njit(f)(3), f(3))
        print("ok")
    """)
    assert r.stdout.strip() == "ok"
