"""Comprehensions in kernels (issue 33): a generator expression or a list
comprehension is refused under its own name, where it is written (file,
line and column), not as "lists"."""
import os

import pytest

from kjit import cuda, errors, float64


def _generator_in_call(a, out):
    out[0] = sum(x for x in a)


def _list_comprehension(a, out):
    out[0] = sum([x for x in a])


def _list_display(a, out):
    t = [1, 2]
    out[0] = t[0]


@pytest.mark.parametrize("fn, message, marker", [
    (_generator_in_call, "a generator expression is not supported in kernels; write a loop", "x for x"),
    (_list_comprehension, "a list comprehension is not supported in kernels; write a loop", "[x for x"),
    (_list_display, "lists are not supported in kernels", "[1, 2]"),
], ids=["generator", "list-comprehension", "list-display"])
def test_comprehensions_in_kernels_are_located_errors(fn, message, marker):
    import inspect
    lines, first = inspect.getsourcelines(fn)
    line = next(first + k for k, text in enumerate(lines) if marker in text)
    col = next(text.index(marker) for text in lines if marker in text) + 1
    with pytest.raises(errors.UnsupportedError) as ei:
        cuda.jit((float64[::1], float64[::1]))(fn)
    text = str(ei.value)
    assert message in text
    # (From the bytecode, a call's generator is placed at the call.)
    where = f"{__file__}:{line}:" if os.environ.get("KJIT_FRONTEND") == "bytecode" else f"{__file__}:{line}:{col}:"
    assert where in text, text
