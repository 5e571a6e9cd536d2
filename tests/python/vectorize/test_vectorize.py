"""@vectorize(target='cuda'): what the decorator accepts and refuses. The
results on every device are checked by the vectorize_* programs of
kernel_programs.py (test_kernels_devices.py); the CPU targets (NumPy
ufuncs) are in test_vectorize_cpu.py."""
import re

import numpy as np
import pytest

import kjit
from kjit import float32, vectorize


def test_signatures_as_strings_or_types():
    @vectorize([float32(float32, float32), "float64(float64, float64)"], target="cuda")
    def mul(a, b):
        return a * b

    assert mul.types == ["ff->f", "dd->d"]
    assert mul.signatures == ["float32(float32, float32)", "float64(float64, float64)"]
    assert mul.nin == 2 and mul.nout == 1
    np.testing.assert_array_equal(mul(np.arange(4.0), 3.0), np.arange(4.0) * 3)


def test_type_errors_show_at_the_decorator_with_the_line():
    with pytest.raises(kjit.TypingError) as e:
        @vectorize(["float32(float32)"], target="cuda")
        def bad(a):
            return a + "text"
    assert re.search(r"test_vectorize\.py:\d+:\d+", str(e.value)), str(e.value)


def test_wrong_number_of_arguments():
    with pytest.raises(TypeError, match="signatures take 2 arguments, the function 1"):
        @vectorize(["float32(float32, float32)"], target="cuda")
        def one(a):
            return a

    @vectorize(["float32(float32, float32)"], target="cuda")
    def two(a, b):
        return a - b

    with pytest.raises(TypeError, match="takes 2 arguments"):
        two(np.ones(3, np.float32))


def test_bad_signatures_and_options():
    with pytest.raises(TypeError, match="needs a return type"):
        vectorize(["(float32)"], target="cuda")(lambda a: a)
    with pytest.raises(TypeError, match="not a scalar type"):
        vectorize(["float32[:](float32)"], target="cuda")(lambda a: a)
    with pytest.raises(TypeError, match="unknown @vectorize option"):
        vectorize(["float32(float32)"], target="cuda", colour="red")(lambda a: a)
    with pytest.raises(ValueError, match="unknown target 'tpu'"):
        vectorize(["float32(float32)"], target="tpu")(lambda a: a)


def test_guvectorize_cuda_checks_as_numba():
    # The results on every device: guvectorize_cuda in kernel_programs.py.
    def f(a, b):
        pass

    with pytest.raises(TypeError, match="nopython flag must be True"):
        kjit.guvectorize(["void(float64[:], float64[:])"], "(n)->(n)", target="cuda", nopython=False)(f)
    with pytest.raises(TypeError, match="The following target options are not supported: 'colour'"):
        kjit.guvectorize(["void(float64[:], float64[:])"], "(n)->(n)", target="cuda", colour=1)(f)
    with pytest.raises(TypeError, match="guvectorized functions cannot return values: .* specifies int32 return"):
        kjit.guvectorize([kjit.int32(kjit.int32[:], kjit.int32[:])], "(n)->(n)", target="cuda")(f)

    @kjit.guvectorize([(kjit.float64[:], kjit.float64[:])], "(n)->(n)", target="cuda")
    def copy(a, b):
        for i in range(a.shape[0]):
            b[i] = a[i]

    assert copy.__name__ == "copy" and copy.types == ["d->d"]
    x = np.arange(6.0).reshape(2, 3)
    with pytest.raises(ValueError, match="cannot specify argument 'out' as both positional and keyword"):
        copy(x, x, out=x)
    with pytest.raises(TypeError, match=r"accepts 1 positional argument .* or 2 positional arguments.*Got 3"):
        copy(x, x, x)
    np.testing.assert_array_equal(copy([[1.0, 2.0], [3.0, 4.0]]), [[1.0, 2.0], [3.0, 4.0]])  # sequences
    with pytest.raises(TypeError, match=r"does not support \.astype\(\)"):
        copy(kjit.cuda.to_device(np.arange(3, dtype=np.int64)))


def test_reduce_of_an_empty_array_needs_an_identity():
    @vectorize(["float64(float64, float64)"], target="cuda", identity=0)
    def plus(a, b):
        return a + b

    assert plus.reduce(np.zeros(0)) == 0

    @vectorize(["float64(float64, float64)"], target="cuda")
    def plus_no_identity(a, b):
        return a + b

    with pytest.raises(ValueError, match="no identity"):
        plus_no_identity.reduce(np.zeros(0))


def test_sequences_empty_arrays_and_bad_arguments():
    @vectorize(["float64(float64, float64)"], target="cuda")
    def add(a, b):
        return a + b

    np.testing.assert_array_equal(add([1.0, 2.0], (3.0, 4.0)), [4.0, 6.0])  # as NumPy's ufuncs
    assert add(np.zeros((0, 3)), 1.0).shape == (0, 3)
    out = np.zeros(3)
    assert add(np.ones(3), 1.0, out=out) is out and (out == 2).all()
    with pytest.raises(TypeError, match="argument 1 is a str"):
        add("a", 1.0)
    with pytest.raises(ValueError, match=r"out has shape \(4,\), the result \(3,\)"):
        add(np.ones(3), np.ones(3), out=np.ones(4))


def test_scalars_only_give_a_scalar_every_time():
    @vectorize(["float64(float64, float64)"], target="cuda")
    def add(a, b):
        return a + b

    for _ in range(3):  # the second call must not take a device-array plan
        r = add(1.0, 2.0)
        assert not hasattr(r, "copy_to_host") and r == 3.0


def test_a_lambda():
    inc = vectorize(["float64(float64)"], target="cuda")(lambda x: x + 1.0)
    np.testing.assert_array_equal(inc(np.arange(3.0)), [1.0, 2.0, 3.0])
