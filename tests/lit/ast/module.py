# RUN: %kjitc --emit=ast %s | FileCheck --strict-whitespace --match-full-lines %s
"""A whole module: imports, constants of literals and top-level defs are
printed in order; classes, other module-level statements, `if __name__ == "__main__":` blocks, try/except and
decorated classes are host code and are skipped without a word, even where
they hold constructs that kernels reject.
"""
from __future__ import annotations
import math
import numpy as np, numpy.linalg as la
from kjit import cuda, float32 as f32
from . import helpers
from ..pkg.sub import (alpha, beta as b,)
import os.path; print("side effect")
from numpy import *

THREADS = 128
TABLE = {"a": [i * i for i in range(10)]}
lookup = lambda k: TABLE[k]

try:
    import cupy
except ImportError:
    cupy = None
finally:
    pass


class Config:
    block = (THREADS, 1, 1)

    def describe(self):
        return f"{self.block}"


@dataclass(frozen=True)
class Options:
    fast: bool = True


@cuda.jit
def kernel(x, out):
    i = cuda.grid(1)
    out[i] = math.sqrt(x[i])


for n in range(3):
    with open("log") as f:
        pass


def host_helper(n):
    return n * 2


if __name__ == "__main__":
    data = {k: v for k, v in zip("ab", "cd")}
    def not_top_level():
        return 0
    kernel[1, THREADS](data, data)
elif True:
    pass
else:
    pass

while False:
    global THREADS

# CHECK:from __future__ import annotations <7:1>
# CHECK-NEXT:import math <8:1>
# CHECK-NEXT:import numpy as np, numpy.linalg as la <9:1>
# CHECK-NEXT:from kjit import cuda, float32 as f32 <10:1>
# CHECK-NEXT:from . import helpers <11:1>
# CHECK-NEXT:from ..pkg.sub import alpha, beta as b <12:1>
# CHECK-NEXT:import os.path <13:1>
# CHECK-NEXT:from numpy import * <14:1>
# CHECK-NEXT:assign <16:1> THREADS = 128
# CHECK-NEXT:def kernel(x, out) <41:1>
# CHECK-NEXT:  decorator (. cuda jit)
# CHECK-NEXT:  assign <42:5> i = (call (. cuda grid) 1)
# CHECK-NEXT:  assign <43:5> (index out i) = (call (. math sqrt) (index x i))
# CHECK-NEXT:def host_helper(n) <51:1>
# CHECK-NEXT:  return <52:5> (* n 2)
# CHECK-NOT:{{.}}
