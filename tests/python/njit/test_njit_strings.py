"""Strings in @njit functions (Numba's unicode_type): string constants as
values, str arguments and results, len, indexing, slicing, iteration, `in`,
+, *, comparisons, str() of integers, ord/chr, the common methods, strings
in lists, dicts and sets. Checked against Numba 0.56 where it compiles the
function quickly, else against Python."""
import os

import pytest

from kjit import errors, njit

numba = pytest.importorskip("numba")

# The bytecode frontend (functions without source text) refuses set displays
# (BUILD_SET) yet.
needs_source = pytest.mark.skipif(os.environ.get("KJIT_FRONTEND") == "bytecode",
                                  reason="set displays are read from source text only")


def basics(x):
    s = "hello world"
    return (len(s), s[0], s[-1], s[1:4], s[::2], s[::-1], "wor" in s, "xyz" not in s,
            s + "!", s * 2, 3 * "ab", s == "hello world", s != "hello", "abc" < "abd",
            "b" > "abc", "a" <= "a")


def methods(x):
    s = "  Hello, World  "
    t = s.strip()
    return (t.upper(), t.lower(), t.split(","), t.split(), "a,b,,c".split(","),
            t.find("o"), t.rfind("o"), t.find("o", 5), t.find("zz"), t.index("W"),
            t.count("l"), t.replace("l", "L"), t.startswith("He"), t.endswith("ld"),
            s.lstrip(), s.rstrip(), "xxaxx".strip("x"), "-".join(["1", "2", "3"]),
            "12".zfill(5), "-3".zfill(4), "ab".center(7), "ab".ljust(4), "ab".rjust(4),
            "Hello".swapcase(), "hello world".capitalize())


def predicates(x):
    return ("abc".isalpha(), "ab1".isalpha(), "123".isdigit(), "12a".isdigit(),
            "ab12".isalnum(), " \t\n".isspace(), "".isspace(), "ABC".isupper(),
            "AbC".isupper(), "abc1".islower())


def conversions(x):
    return str(x), str(-1234567), str(0), "n=" + str(x), ord("a"), chr(98), chr(233)


def iteration(x):
    total = 0
    for ch in "abc":
        total += ord(ch)
    out = []
    for c in x:
        out.append(c.upper())
    return total, out


def argument(s):
    return s.upper(), len(s), s[0], s + "!", s * 2, s[1:]


def containers(x):
    names = ["pear", "apple", "fig"]
    names.sort()
    names.append("kiwi")
    d = {"a": 1, "b": 2}
    d["c"] = 3
    return names, "fig" in names, names.index("pear"), d["b"], "c" in d, len(d)


@pytest.mark.parametrize("fn, args", [
    (conversions, (42,)), (conversions, (-7,)), (iteration, ("xyz",)), (argument, ("héllo",)),
])
def test_same_as_numba(fn, args):
    assert njit(fn)(*args) == numba.njit(fn)(*args)


@pytest.mark.parametrize("fn", [basics, methods, containers])
def test_same_as_python(fn):
    # Numba 0.56 gives Python's results here too, but takes about 100 s to
    # compile these three; Python is the reference.
    assert njit(fn)(1) == fn(1)


def test_predicates():
    # (Numba 0.56 returns these as integers; kjit returns Python's bools.)
    assert njit(predicates)(1) == predicates(1)


def test_word_counts():
    # Numba 0.56 cannot type d.get on {}; Python is the reference.
    def words(text):
        counts = {}
        for w in text.split():
            counts[w] = counts.get(w, 0) + 1
        return counts

    text = "the quick brown fox jumps over the lazy dog the end"
    assert njit(words)(text) == words(text)


def test_string_results_and_prints(capfd):
    @njit
    def greet(name, n):
        s = "hi " + name
        print(s, n)
        return s, [s, name]

    assert greet("Ann", 3) == ("hi Ann", ["hi Ann", "Ann"])
    assert capfd.readouterr().out == "hi Ann 3\n"


@needs_source
def test_set_of_strings():
    @njit
    def f(words):
        s = set()
        for w in words.split():
            s.add(w)
        return s, len({"a", "b", "a"})

    assert f("a b a c b") == ({"a", "b", "c"}, 2)


def test_errors():
    @njit
    def index(s):
        return s[10]

    with pytest.raises(IndexError, match="string index out of range"):
        index("abc")

    @njit
    def find_missing(s):
        return s.index("z")

    with pytest.raises(ValueError, match="substring not found"):
        find_missing("abc")

    @njit
    def str_float(x):
        return str(x)

    with pytest.raises(errors.TypingError, match="str\\(\\) of float64 is not supported"):
        str_float(1.5)

    @njit
    def mixed(s):
        return s + 1

    with pytest.raises(errors.TypingError, match="unsupported operand types for \\+"):
        mixed("a")
