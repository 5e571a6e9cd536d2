"""Differential testing against Numba: random well-typed @njit programs
(scalar arithmetic over the numeric types, comparisons, conditional
expressions, if/else, loops, tuples, math functions; bool literals under
~, not, &, |; arithmetic on NumPy-typed integer constants that wraps and
uint64 comparisons; branches on constants and code no path reaches after
return, break and continue, holding loops and joins) compiled by kjit and by
Numba and run on the same arguments; the results (values to the bit, NaN
as NaN, and the result types) or the exception classes must agree.

    PYTHONPATH=python_bindings /usr/bin/python3 tools/fuzz_diff.py --programs 500 --seed 1
    make fuzz-diff FUZZ_SECONDS=600

What the generator leaves out on purpose, each written in
docs/differences.md: arithmetic on variables that overflows 64 bits
(Numba's code is undefined there; the values are small; NumPy-typed
constants are drawn to overflow, as NumPy wraps them), shifts of variables,
integer powers (Numba
computes some through float64), float-to-integer conversions (kjit
saturates out-of-range values), and variables or branches of different
types (kjit gives a variable one type and unifies an `if`'s arms; Numba
types each assignment and prunes branches whose condition is a constant,
so `x if 7 > 0.5 else 0.5` is an int there: found by this tester, not yet
followed; such results, equal values of other types, are counted as
documented, not as divergences). Prints each divergence with its program
and exits 1 when there is one.
"""
import argparse
import math
import random
import struct
import sys
import time
import warnings

import numpy as np

TYPES = {
    "int64": (np.int64, (-7, -3, -1, 0, 1, 2, 5, 1000, -123456)),
    "int32": (np.int32, (-9, -1, 0, 1, 3, 77, -32769)),
    "int16": (np.int16, (-300, -1, 0, 1, 4, 32767, -32768)),
    "uint8": (np.uint8, (0, 1, 2, 9, 200, 255)),
    "uint32": (np.uint32, (0, 1, 7, 65536)),
    "float64": (np.float64, (-2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.25, 1e300, -1e-300, math.inf, math.nan)),
    "float32": (np.float32, (-1.5, 0.0, 0.25, 2.0, 1e30, -math.inf, math.nan)),
    "bool": (np.bool_, (False, True)),
}
INTS = ("int64", "int32", "int16", "uint8", "uint32")
FLOATS = ("float64", "float32")

# Binary operators and the operand kinds they are drawn for.
ARITH = ("+", "-", "*")
DIVS = ("/", "//", "%")
CMPS = ("<", "<=", "==", "!=", ">", ">=")
MATH = ("math.sin", "math.cos", "math.exp", "math.sqrt", "math.fabs", "math.atan", "math.tanh")


class Gen:
    def __init__(self, rng):
        self.rng = rng

    def leaf(self, names):
        r = self.rng
        if names and r.random() < 0.75:
            return r.choice(names)
        if r.random() < 0.15:
            # Bool literals under operators CPython folds (~True is -2).
            return r.choice(["(~True)", "(~False)", "(not True)", "(True & False)", "(True | 2)",
                             "(~(not False))", "(-True)", "(True ^ True)"])
        return r.choice(["1", "2", "3", "0.5", "-2", "2.0", "True", "7"])

    def numpy_constant(self):
        """Arithmetic on NumPy-typed integer constants, which wraps as
        NumPy's (np.int64(4294967296) << 61 is 0), or a uint64 comparison."""
        r = self.rng
        big = r.choice(["4294967296", "-4424087604200824248", "9223372036854775807", "3037000500",
                        "-9223372036854775807", "123456789123"])
        ubig = r.choice(["18446744073709551615", "9223372036854775808", "1", "0", "12345678901234567890"])
        k = r.random()
        if k < 0.3:
            return f"(np.int64({big}) {r.choice(('+', '-', '*', '&', '|', '^'))} {r.choice((big, '1000', '-3'))})"
        if k < 0.45:
            return f"({r.choice(('1000', '7', big))} * np.int64({big}))"
        if k < 0.55:
            return f"(np.int64({big}) << {r.randint(0, 63)})"
        if k < 0.8:
            return f"(np.uint64({ubig}) {r.choice(('+', '-', '*', '//', '%', '&', '|'))} np.uint64({ubig}))"
        return f"(np.uint64({ubig}) {r.choice(CMPS)} np.uint64({ubig}))"

    def dead_code(self, names, indent):
        """Statements no path reaches (after a return, break, continue or
        raise): loops and joins that Python never runs."""
        r = self.rng
        pad = " " * indent
        v = r.choice(names)
        forms = [
            [f"for i in range({r.randint(0, 4)}):", f"    {v} = {v} + 1"],
            [f"while {v} > 0:", f"    {v} -= 1"],
            [f"{v} = {v} if {v} > 1 else ({v} + 1 if {v} > 2 else {v})"],
            [f"for i in range(3):", "    for j in range(i):", f"        {v} = {v} * 2"],
            [f"{v} = round(float({v}), 2) + float({v}) ** 3"],
        ]
        return [pad + line for line in r.choice(forms)]

    def expr(self, names, depth):
        r = self.rng
        if depth <= 0 or r.random() < 0.25:
            return self.leaf(names)
        k = r.random()
        a, b = self.expr(names, depth - 1), self.expr(names, depth - 1)
        if k < 0.35:
            return f"({a} {r.choice(ARITH)} {b})"
        if k < 0.45:
            return f"({a} {r.choice(DIVS)} {b})"
        if k < 0.55:
            return f"({a} {r.choice(CMPS)} {b})"
        if k < 0.62:
            # (both arms float: branches of different types unify differently, below)
            return f"(float({a}) if {self.expr(names, depth - 1)} {r.choice(CMPS)} {b} else float({b}))"
        if k < 0.70:
            return f"{r.choice(('min', 'max'))}({a}, {b})"
        if k < 0.78:
            return f"abs({a})"
        if k < 0.84:
            return f"(-{a})"
        if k < 0.92:
            return f"{r.choice(MATH)}(float({a}))"
        if k < 0.95:
            return f"(~{a})" if r.random() < 0.5 else f"({a} {r.choice(('&', '|', '^'))} {b})"
        return f"{r.choice(('float', 'bool'))}({a})"

    def program(self, name):
        """(source, argument values)."""
        r = self.rng
        nargs = r.randint(1, 3)
        types = [r.choice(list(TYPES)) for _ in range(nargs)]
        params = [f"a{k}" for k in range(nargs)]
        args = tuple(TYPES[t][0](r.choice(TYPES[t][1])) for t in types)
        names = list(params)
        lines = [f"def {name}({', '.join(params)}):"]
        for k in range(r.randint(1, 4)):
            v = f"v{k}"
            form = r.random()
            if form < 0.5:
                lines.append(f"    {v} = {self.expr(names, 3)}")
            elif form < 0.55:
                lines.append(f"    {v} = {self.numpy_constant()}")
            elif form < 0.6:
                # A branch known at compile time, holding a loop.
                lines.append(f"    {v} = float({self.expr(names, 1)})")
                lines.append(f"    if {r.choice(('False', '0', 'not True', 'True', self.numpy_constant()))}:")
                lines.append(f"        for i in range({r.randint(0, 3)}):")
                lines.append(f"            {v} = {v} + 1.0")
                lines.append("    else:")
                lines.append(f"        {v} = {v} * 2.0")
            elif form < 0.65:
                # A loop whose body leaves early, with dead code after the jump.
                jump = r.choice(("break", "continue"))
                lines.append(f"    {v} = float({self.expr(names, 1)})")
                lines.append(f"    for i in range({r.randint(0, 4)}):")
                lines.append(f"        {v} = {v} + float(i)")
                lines.append(f"        if i >= {r.randint(0, 2)}:")
                lines.append(f"            {jump}")
                lines.extend(self.dead_code(names + [v], 12))
            elif form < 0.8:
                lines.append(f"    if {self.expr(names, 2)} {r.choice(CMPS)} {self.expr(names, 2)}:")
                lines.append(f"        {v} = float({self.expr(names, 2)})")
                lines.append("    else:")
                lines.append(f"        {v} = float({self.expr(names, 2)})")
            else:
                # (a float accumulator: one type whatever the loop adds, so
                # that kjit's one type per variable and Numba's per
                # assignment agree: docs/differences.md)
                lines.append(f"    {v} = float({self.expr(names, 1)})")
                lines.append(f"    for i in range({r.randint(0, 4)}):")
                lines.append(f"        {v} = {v} {r.choice(ARITH)} float({self.expr(names + ['i'], 1)})")
            names.append(v)
        lines.append(f"    return {', '.join(names[-2:])}")
        if r.random() < 0.3:
            lines.extend(self.dead_code(names, 4))
        return "\n".join(lines) + "\n", args


def _bits(v):
    if isinstance(v, tuple):
        return tuple(_bits(x) for x in v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return ("float", "nan") if math.isnan(f) else ("float", struct.pack("<d", f))
    if isinstance(v, (bool, np.bool_)):
        return ("bool", bool(v))
    if isinstance(v, (int, np.integer)):
        return ("int", int(v))
    return (type(v).__name__, repr(v))


def _types_of(sig_text):
    """A result type's name, Numba's literal types as the values they hold
    (Literal[int](-2) is int64, Literal[bool](True) is bool)."""
    import re
    text = sig_text.replace(" ", "")
    text = re.sub(r"Literal\[int\]\([^()]*\)", "int64", text)
    text = re.sub(r"Literal\[bool\]\([^()]*\)", "bool", text)
    # Tuple(int64,int64) is UniTuple(int64x2) by another name
    m = re.fullmatch(r"Tuple\((.*)\)", text)
    if m and "(" not in m.group(1):
        parts = m.group(1).split(",")
        if len(set(parts)) == 1:
            text = f"UniTuple({parts[0]}x{len(parts)})"
    return text


def outcome(jit, fn, args):
    try:
        j = jit(fn)
        r = j(*args)
    except Exception as e:  # noqa: BLE001 - the class is compared
        return ("raises", type(e).__name__)
    if hasattr(j, "nopython_signatures"):
        rt = str(j.nopython_signatures[0].return_type)
    else:
        rt = j.signatures[0].split(" -> ")[1]
    return (_bits(r), _types_of(rt))


def compare(source, args, name):
    """None when kjit and Numba agree, else (kjit outcome, Numba outcome)."""
    import numba

    from kjit import njit
    ns = {"math": math, "np": np}
    exec(compile(source, f"<fuzz {name}>", "exec"), ns)  # noqa: S102 - generated programs
    fn = ns[name]
    want = outcome(numba.njit, fn, args)
    if want[0] == "raises" and want[1] in ("TypingError", "UnsupportedError", "LoweringError", "NumbaError"):
        return None  # Numba cannot compile it: not a comparison (kjit may accept more)
    got = outcome(njit, fn, args)
    if got[0] == "raises" and want[0] == "raises":
        return None if got[1] == want[1] else (got, want)
    if got != want:
        return got, want
    return None


_NOT_VARIABLES = {"float", "bool", "math", "min", "max", "abs", "range", "np"}


def pruned_by_numba(source, d):
    """Whether divergence `d` of `source` is the documented one of Numba's
    branch pruning (docs/differences.md): the values agree, only the result
    types differ, and a condition of the program holds no variable (Numba
    types only the branch such a condition takes; kjit unifies both)."""
    got, want = d
    if got[0] == "raises" or want[0] == "raises" or got[0] != want[0]:
        return False
    import ast
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.If, ast.IfExp, ast.While)):
            names = {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)}
            if not names - _NOT_VARIABLES:
                return True
    return False


def run(programs, seed, seconds=None, out=sys.stdout):
    warnings.simplefilter("ignore")
    rng = random.Random(seed)
    gen = Gen(rng)
    start = time.time()
    diverged, done, documented = [], 0, 0
    for k in range(programs):
        if seconds is not None and time.time() - start > seconds:
            break
        name = f"p{seed}_{k}"
        source, args = gen.program(name)
        d = compare(source, args, name)
        done += 1
        if d is not None and pruned_by_numba(source, d):
            documented += 1
        elif d is not None:
            diverged.append((source, args, d))
            print(f"DIVERGENCE {name} args={args!r}\n{source}  kjit:  {d[0]}\n  Numba: {d[1]}\n", file=out)
    print(f"fuzz-diff: {done} programs (seed {seed}), {len(diverged)} divergences, {documented} documented "
          f"(result types of Numba's branch pruning: docs/differences.md), {time.time() - start:.0f} s", file=out)
    return done, diverged


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--programs", type=int, default=1000000)
    p.add_argument("--seconds", type=float, default=None)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    _, diverged = run(a.programs, a.seed, a.seconds)
    sys.exit(1 if diverged else 0)


if __name__ == "__main__":
    main()
