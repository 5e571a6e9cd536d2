"""@jitclass (Numba's numba.experimental.jitclass): fields from a spec or
annotations, __init__, methods, properties (getters and setters), static
methods; instances made in Python and in compiled code, passed both ways,
references in compiled code; located errors. The expected values are
Numba 0.56's for the same programs (run with `from numba ...`)."""
import os

import numpy as np
import pytest

from kjit import cuda, errors, float32, float64, int32, int64, njit
from kjit.experimental import jitclass

spec = [("value", int32), ("array", float32[:])]


@jitclass(spec)
class Bag(object):
    def __init__(self, value):
        self.value = value
        self.array = np.zeros(value, dtype=np.float32)

    @property
    def size(self):
        return self.array.size

    def increment(self, val):
        for i in range(self.size):
            self.array[i] += val
        return self.array

    @staticmethod
    def add(x, y):
        return x + y


@jitclass([("x", float64), ("y", float64)])
class Point:
    def __init__(self, x, y=0.0):
        self.x = x
        self.y = y

    def norm(self):
        return np.sqrt(self.x * self.x + self.y * self.y)

    def scale(self, k):
        self.x *= k
        self.y *= k
        return self

    @property
    def r2(self):
        return self.x ** 2 + self.y ** 2

    @r2.setter
    def r2(self, v):
        k = np.sqrt(v / self.r2)
        self.x *= k
        self.y *= k


@jitclass([("a", Point.class_type.instance_type), ("b", Point.class_type.instance_type),
           ("n", int64)])
class Segment:
    def __init__(self, a, b):
        self.a = a
        self.b = b
        self.n = 0

    def length(self):
        self.n += 1
        dx = self.a.x - self.b.x
        dy = self.a.y - self.b.y
        return np.sqrt(dx * dx + dy * dy)


@jitclass
class Acc:
    total: float64
    count: int64

    def __init__(self):
        self.total = 0.0

    def add(self, v):
        self.total += v
        self.count += 1

    def mean(self):
        return self.total / self.count


def test_numbas_bag_example_from_python():
    mybag = Bag(21)
    assert isinstance(mybag, Bag)
    assert mybag.value == 21 and mybag.size == 21
    assert mybag.array.dtype == np.float32
    np.testing.assert_array_equal(mybag.increment(3), np.full(21, 3, np.float32))
    np.testing.assert_array_equal(mybag.increment(6), np.full(21, 9, np.float32))
    np.testing.assert_array_equal(mybag.array, np.full(21, 9, np.float32))
    assert Bag.add(1, 2) == 3 and mybag.add(3, 4) == 7


def test_instances_made_and_changed_in_compiled_code():
    @njit
    def create(n):
        b = Bag(n)
        b.increment(1.5)
        b.value = b.value * 2
        return b

    @njit
    def bump(b):
        b.value += 1
        return b.size

    b = create(4)
    assert b.value == 8
    np.testing.assert_array_equal(b.array, np.full(4, 1.5, np.float32))
    assert bump(b) == 4 and b.value == 9  # the change is seen by the caller
    b.value = 7  # set from Python, read by compiled code
    assert bump(b) == 4 and b.value == 8


def test_references_properties_and_chained_methods():
    @njit
    def aliasing():
        p = Point(3.0, 4.0)
        q = p
        q.x = 6.0
        return p.x, p.norm()

    @njit
    def prop(p):
        p.r2 = 100.0
        return p.x, p.y

    @njit
    def chain():
        return Point(1.0, 2.0).scale(3.0).norm()

    assert aliasing() == (6.0, np.sqrt(52.0))
    p = Point(3.0, 4.0)
    assert prop(p) == (6.0, 8.0) and (p.x, p.y) == (6.0, 8.0) and p.r2 == 100.0
    assert chain() == pytest.approx(np.sqrt(45.0), rel=1e-15)
    assert Point(2.0).y == 0.0  # __init__'s default


def test_instances_holding_instances_and_lists_of_them():
    @njit
    def segments(n):
        out = []
        for i in range(n):
            out.append(Segment(Point(0.0, float(i)), Point(float(i), 0.0)))
        tot = 0.0
        for s in out:
            tot += s.length()
        return tot, out[1].n, out

    tot, n, segs = segments(4)
    assert tot == pytest.approx(sum(np.sqrt(2.0) * i for i in range(4))) and n == 1
    assert [type(s) for s in segs] == [Segment] * 4 and segs[3].b.x == 3.0
    s = Segment(Point(1.0, 1.0), Point(4.0, 5.0))
    assert (s.length(), s.n, s.a.x) == (5.0, 1, 1.0)
    s.a.x = 4.0  # the inner instance, through the outer one
    assert (s.length(), s.n) == (4.0, 2)


def test_annotations_give_the_spec_and_fields_start_at_zero():
    @njit
    def run(xs):
        a = Acc()
        for v in xs:
            a.add(v)
        return a.mean(), a

    m, a = run(np.arange(5.0))
    assert m == 2.0 and (a.total, a.count) == (10.0, 5)
    assert Acc.spec == [("total", float64), ("count", int64)]


def test_cached_functions_keep_instances(tmp_path):
    # A second process loads the function from the disk cache and still
    # takes and makes instances.
    src = tmp_path / "prog.py"
    src.write_text(
        "from kjit import float64, njit\n"
        "from kjit.experimental import jitclass\n"
        "@jitclass([('v', float64)])\n"
        "class Box:\n"
        "    def __init__(self, v):\n"
        "        self.v = v\n"
        "    def twice(self):\n"
        "        return 2 * self.v\n"
        "@njit(cache=True)\n"
        "def f(b):\n"
        "    b.v += 1.0\n"
        "    return b.twice(), Box(5.0)\n"
        "b = Box(1.0)\n"
        "r, nb = f(b)\n"
        "print(r, b.v, nb.v)\n")
    import subprocess
    import sys
    env = dict(os.environ, KJIT_CACHE_DIR=str(tmp_path / "cache"))
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(os.path.dirname(errors.__file__))] +
                                        [p for p in [env.get("PYTHONPATH")] if p])
    for _ in range(2):
        out = subprocess.run([sys.executable, str(src)], capture_output=True, text=True, env=env,
                             timeout=120)
        assert out.returncode == 0, out.stderr
        assert out.stdout.split() == ["4.0", "2.0", "5.0"]
    assert len(os.listdir(tmp_path / "cache")) >= 1


def test_errors_name_the_line():
    a = Acc()

    def unknown(a):
        return a.nope

    def no_field(a):
        a.nope = 1

    def bad_store(a):
        a.total = "x"

    with pytest.raises(errors.TypingError, match="Unknown attribute 'nope' of type instance.jitclass.Acc"):
        njit(unknown)(a)
    with pytest.raises(errors.TypingError, match="@jitclass Acc has no field 'nope'"):
        njit(no_field)(a)
    with pytest.raises(errors.TypingError) as ei:
        njit(bad_store)(a)
    assert "cannot store Literal[str](x) in field 'total' (float64)" in ei.value.msg
    assert ei.value.lineno == bad_store.__code__.co_firstlineno + 1
    with pytest.raises(TypeError, match=r"takes 0 positional arguments but 1 were given"):
        Acc(1)


def test_kernels_refuse_jitclasses():
    @cuda.jit
    def k(out):
        p = Point(1.0, 2.0)
        out[0] = p.x
    with pytest.raises(errors.UnsupportedError, match="@jitclass Point is not supported in kernels"):
        k[1, 1](np.zeros(1))


def test_bad_specs_are_type_errors():
    with pytest.raises(TypeError, match="field 'x' has the type 3"):
        @jitclass([("x", 3)])
        class Bad:
            pass
    with pytest.raises(TypeError, match="class methods are not supported"):
        @jitclass([("x", int64)])
        class Bad2:
            @classmethod
            def make(cls):
                return 1


def test_fields_of_strs_lists_and_tuples():
    from kjit import types

    @jitclass([("name", types.unicode_type), ("items", types.ListType(int64)),
               ("span", types.UniTuple(float64, 2))])
    class Tagged:
        def __init__(self, name):
            self.name = name
            self.items = [1]
            self.span = (0.0, 1.0)

        def push(self, v):
            self.items.append(v)
            self.span = (self.span[0], self.span[1] + v)
            return len(self.items)

    @njit
    def use(t):
        t.push(5)
        return t.name + "!", t.push(7)

    t = Tagged("abc")
    assert use(t) == ("abc!", 3)
    assert (t.name, t.items, t.span) == ("abc", [1, 5, 7], (0.0, 13.0))
