"""Random structured programs through the bytecode frontend, checked by
running them.

Each program is a plain Python function over integers made of the control
flow the bytecode frontend must rebuild: if/elif/else, while and for loops
with break, continue and else, early returns, and/or/not, chained
comparisons (in conditions and in returned tuples), conditional
expressions, augmented and tuple assignments, and try/except (nested
too). Calls to `f` (which logs its argument) give the program side
effects whose order counts. The program is compiled by the running Python,
kjit/bytecode rebuilds its text from the code object, and the two functions
are run on the same arguments: the same results, exceptions and logs, or a
divergence is printed with both texts.

Needs neither NumPy nor kjit's compiled module: runs on any CPython the
frontend supports (3.11 to 3.13; pyenv's too):

    python3.12 tools/bytecode_fuzz.py --programs 2000 --seed 1

Exits 1 on a divergence, a crash (an exception other than Unsupported)
or a rebuild that takes over 5 s (--slow). Programs the frontend refuses (Unsupported) are
counted apart; "same bytecode" counts rebuilt texts that compile to the
original's instructions.
"""
import argparse
import os
import random
import signal
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bytecode_corpus  # noqa: E402 - it makes the bare kjit package
from kjit.bytecode import Unsupported, function_source  # noqa: E402

CMPS = ("<", "<=", "==", "!=", ">", ">=")


class Gen:
    def __init__(self, rng, depth=3, statements=5, extra=None):
        self.r = rng
        self.extra = extra  # (draws for the return's form: the bodies stay those of earlier versions)
        self.loops = 0
        self.depth = depth
        self.statements = statements

    def atom(self, names):
        r = self.r
        if names and r.random() < 0.7:
            return r.choice(names)
        return str(r.choice((0, 1, 2, 3, -1, 5, 10)))

    def expr(self, names, depth=2):
        r = self.r
        if depth <= 0 or r.random() < 0.3:
            return self.atom(names)
        k = r.random()
        a, b = self.expr(names, depth - 1), self.expr(names, depth - 1)
        if k < 0.4:
            return f"({a} {r.choice(('+', '-', '*'))} {b})"
        if k < 0.5:
            return f"({a} {r.choice(('//', '%'))} {r.choice((2, 3, 7))})"
        if k < 0.62:
            return f"({a} if {self.cond(names, depth - 1)} else {b})"
        if k < 0.72:
            return f"{r.choice(('min', 'max'))}({a}, {b})"
        if k < 0.8:
            return f"f({a})"
        if k < 0.86:
            return f"abs({a})"
        return f"(-{a})"

    def cond(self, names, depth=2):
        r = self.r
        k = r.random()
        if depth <= 0 or k < 0.4:
            return f"{self.expr(names, 1)} {r.choice(CMPS)} {self.expr(names, 1)}"
        if k < 0.5:
            return f"{self.atom(names)} {r.choice(CMPS)} {self.atom(names)} {r.choice(CMPS)} {self.atom(names)}"
        if k < 0.7:
            return f"({self.cond(names, depth - 1)} and {self.cond(names, depth - 1)})"
        if k < 0.88:
            return f"({self.cond(names, depth - 1)} or {self.cond(names, depth - 1)})"
        return f"not {self.cond(names, depth - 1)}"

    def block(self, names, depth, ind, in_loop, n=None):
        r = self.r
        lines = []
        for _ in range(n or r.randint(1, 3)):
            lines += self.stmt(names, depth, ind, in_loop)
        return lines

    def loop_else(self, names, depth, ind, in_loop):
        """A loop's `else:` clause, drawn three times in ten."""
        if self.r.random() >= 0.3:
            return []
        return [f"{' ' * ind}else:"] + self.block(names, depth - 1, ind + 4, in_loop)

    def stmt(self, names, depth, ind, in_loop):
        r = self.r
        p = " " * ind
        k = r.random()
        if depth <= 0 or k < 0.25:
            v = r.choice(names)
            form = r.random()
            # (Values stay small: `% 1009` after a product, so that loops
            # of squarings do not make integers of gigabytes.)
            if form < 0.5:
                return [f"{p}{v} = {self.expr(names)} % 1009"]
            if form < 0.75:
                op = r.choice(('+=', '-=', '*='))
                rhs = f"{self.expr(names, 1)} % 7" if op == "*=" else self.expr(names, 1)
                return [f"{p}{v} {op} {rhs}"]
            if form < 0.9:
                w = r.choice(names)
                if w == v:  # (`x, x = ...` is refused on 3.11, whose compiler stores it in the wrong order)
                    w = names[(names.index(v) + 1) % len(names)]
                return [f"{p}{v}, {w} = {self.expr(names, 1)} % 1009, {self.expr(names, 1)} % 1009"]
            return [f"{p}f({self.expr(names, 1)})"]
        if k < 0.45:
            lines = [f"{p}if {self.cond(names)}:"] + self.block(names, depth - 1, ind + 4, in_loop)
            for _ in range(r.choice((0, 0, 1, 2))):
                lines += [f"{p}elif {self.cond(names)}:"] + self.block(names, depth - 1, ind + 4, in_loop)
            if r.random() < 0.5:
                lines += [f"{p}else:"] + self.block(names, depth - 1, ind + 4, in_loop)
            return lines
        if k < 0.6:
            c = f"w{self.loops}"
            self.loops += 1
            lines = [f"{p}{c} = 0", f"{p}while {c} < {r.randint(1, 5)} and {self.cond(names, 1)}:",
                     f"{p}    {c} += 1"]
            lines += self.block(names, depth - 1, ind + 4, True)
            return lines + self.loop_else(names, depth, ind, in_loop)
        if k < 0.75:
            i = f"i{self.loops}"
            self.loops += 1
            it = r.choice((f"range({r.randint(0, 4)})", f"range({self.atom(names)} % 4)", "(3, 1, 4)",
                           f"({self.atom(names)}, 2)"))
            lines = [f"{p}for {i} in {it}:"] + self.block(names + [i], depth - 1, ind + 4, True)
            return lines + self.loop_else(names, depth, ind, in_loop)
        if k < 0.82 and in_loop:
            if r.random() < 0.3:
                # An unconditional jump: what follows it is never reached (a
                # for loop whose body always leaves has no back edge).
                return [f"{p}{r.choice(('break', 'continue'))}"] + self.dead(names, ind)
            return [f"{p}if {self.cond(names, 1)}:", f"{p}    {r.choice(('break', 'continue'))}"]
        if k < 0.9:
            if r.random() < 0.15:
                return [f"{p}return {self.expr(names, 1)}"] + self.dead(names, ind)
            return [f"{p}if {self.cond(names, 1)}:", f"{p}    return {self.expr(names, 1)}"]
        if k < 0.96:
            lines = [f"{p}try:"] + self.block(names, depth - 1, ind + 4, in_loop)
            lines += [f"{p}    if {self.cond(names, 1)}:", f"{p}        raise ValueError"]
            lines += [f"{p}except ValueError:"] + self.block(names, depth - 1, ind + 4, in_loop)
            return lines
        return [f"{p}{r.choice(names)} = ({self.expr(names)} if {self.cond(names)} else {self.expr(names)}) % 1009"]

    def dead(self, names, ind):
        """Statements after a jump, which CPython drops: a loop and a join."""
        p, v = " " * ind, self.r.choice(names)
        return [f"{p}for d in range(3):", f"{p}    {v} += d", f"{p}{v} = {v} if {v} > 0 else -{v}"]

    def program(self, name):
        params = ["a", "b", "c"]
        names = params + ["x", "y"]
        lines = [f"def {name}(a, b, c):", "    x = a", "    y = 0"]
        lines += self.block(names, self.depth, 4, False, n=self.r.randint(1, self.statements))
        lines.append(self.result(names))
        return "\n".join(lines) + "\n"

    def result(self, names):
        """The return: the variables, or now and then a tuple that holds a
        chained comparison and a `not` after other values (the middle
        operand is kept on the stack while the later items are computed)."""
        e = self.extra
        if e is None or e.random() < 0.6:
            return "    return a, b, c, x, y"
        cmp = lambda: e.choice(CMPS)  # noqa: E731
        chain = f"{e.choice(names)} {cmp()} {e.choice(names)} {cmp()} {e.choice(('f(c)', 'abs(x)', 'y + 1', 'b'))}"
        return f"    return a, b, c, x, {chain}, not ({e.choice(names)} {cmp()} {e.choice(names)}), y"


ARGS = [(0, 0, 0), (1, 2, 3), (-3, 5, 2), (7, -1, 0), (2, 2, -4), (10, 3, 1)]


def behaviour(func, log):
    out = []
    for args in ARGS:
        del log[:]
        try:
            res = func(*args)
        except Exception as e:  # noqa: BLE001 - the exception is part of the behaviour
            res = ("raised", type(e).__name__)
        out.append((res, tuple(log)))
    return out


SLOW_S = 5  # a rebuild over this many seconds is a failure (a hang, or paths walked without end)


def one(src, name):
    """'same', 'equivalent', 'refused', 'DIVERGES', 'CRASH' or 'SLOW', and the rebuilt text."""
    log = []

    def f(v):
        log.append(v)
        return v
    env = {"f": f}
    exec(compile(src, "<fuzz>", "exec"), env)  # noqa: S102 - generated programs
    orig = env[name]

    def too_slow(*_):
        raise TimeoutError(f"the rebuild took over {SLOW_S} s")
    old = signal.signal(signal.SIGALRM, too_slow)
    signal.alarm(SLOW_S)
    try:
        try:
            text, _ = function_source(orig)
        finally:
            # (The alarm may go off in here, as the rebuild ends: it is
            # still a rebuild that took too long, not a crash of the tool.)
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
    except TimeoutError as e:
        return "SLOW", str(e)
    except Unsupported as e:
        return "refused", str(e)
    except Exception as e:  # noqa: BLE001 - the frontend must refuse, never fail
        return "CRASH", f"{type(e).__name__}: {str(e)[:200]}"
    env2 = {"f": f}
    try:
        exec(compile(text, "<rebuilt>", "exec"), env2)  # noqa: S102
    except SyntaxError as e:
        return "DIVERGES", f"{text}\n(does not compile: {e})"
    if behaviour(orig, log) != behaviour(env2[name], log):
        return "DIVERGES", text
    same = bytecode_corpus._shape(env2[name].__code__) == bytecode_corpus._shape(orig.__code__)
    return ("same" if same else "equivalent"), text


def run(programs, seed, out=sys.stdout, verbose=False, depth=3, statements=5, show=None, limit=3):
    rng = random.Random(seed)
    extra = random.Random(seed + 1000003)
    counts = {"same": 0, "equivalent": 0, "refused": 0, "DIVERGES": 0, "CRASH": 0, "SLOW": 0}
    reasons = {}
    for k in range(programs):
        src = Gen(rng, depth, statements, extra).program(f"p{k}")
        verdict, text = one(src, f"p{k}")
        counts[verdict] += 1
        if verdict == "refused":
            key = text.split(" (")[0][:80]
            reasons[key] = reasons.get(key, 0) + 1
            if show and show in text and limit > 0:
                limit -= 1
                print(f"--- refused: program {k} (seed {seed}): {text}\n{src}", file=out, flush=True)
        if verdict in ("DIVERGES", "CRASH", "SLOW") or (verbose and verdict == "equivalent"):
            print(f"--- {verdict}: program {k} (seed {seed})\n{src}--- rebuilt\n{text}", file=out, flush=True)
    ver = f"{sys.version_info[0]}.{sys.version_info[1]}"
    print(f"CPython {ver}, seed {seed}: {programs} programs: " + ", ".join(f"{v} {k}" for k, v in counts.items()),
          file=out)
    for why, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print(f"  refused {n:4d}: {why}", file=out)
    return counts


def main():
    global SLOW_S
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--depth", type=int, default=3, help="how deep statements nest")
    ap.add_argument("--statements", type=int, default=5, help="at most this many in the function's body")
    ap.add_argument("-v", action="store_true", help="print the equivalent rebuilds too")
    ap.add_argument("--slow", type=int, default=SLOW_S, help="seconds a rebuild may take (default %(default)s)")
    ap.add_argument("--show", metavar="TEXT", help="print the first refused programs whose reason holds TEXT")
    ap.add_argument("--limit", type=int, default=3, help="how many programs --show prints")
    args = ap.parse_args()
    SLOW_S = args.slow
    counts = run(args.programs, args.seed, verbose=args.v, depth=args.depth, statements=args.statements,
                 show=args.show, limit=args.limit)
    return 1 if counts["DIVERGES"] or counts["CRASH"] or counts["SLOW"] else 0


if __name__ == "__main__":
    sys.exit(main())
