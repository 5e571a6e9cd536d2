# RUN: %kjitc --emit=ast %s:scale_rows | FileCheck --strict-whitespace --match-full-lines %s
# RUN: %kjitc --emit=ast %s:add_bias | FileCheck --strict-whitespace --match-full-lines --check-prefix=BIAS %s
# RUN: %kjitc --emit=ast %s:tiled | FileCheck --strict-whitespace --match-full-lines --check-prefix=TILED %s
# RUN: %kjitc --emit=ast %s:noop | FileCheck --strict-whitespace --match-full-lines --check-prefix=NOOP %s
# RUN: %kjitc --emit=ast %s:clamp | FileCheck --strict-whitespace --match-full-lines --check-prefix=CLAMP %s
# Function definitions: parameters, defaults, annotations, the return
# annotation, decorators with and without arguments, docstrings, nested defs.
from kjit import cuda, float32


@cuda.jit("void(float32[:, :], float32[:], int32)", fastmath=True, debug=False)
def scale_rows(m, scale, n: int, eps: float = 1e-6, unroll=4,) -> None:
    """Multiply each row of m by scale[row].

    The docstring is kept apart from the body.
    """
    row, col = cuda.grid(2)
    if row < n:
        m[row, col] *= scale[row] + eps


@cuda.jit
@cuda.inline(always=True)
def add_bias(x: float32[:], bias: "float32" = 0.0) -> float32[:]:
    pass


@cuda.jit(device=True)
def tiled(a, b=-1, c=(1, 2), d=None, e=True):
    '''Single-quoted docstring.'''
    def helper(i, j=0):
        """Nested docstring."""
        return a[i, j]

    @cuda.jit(device=True, inline="always")
    def other(k):
        return helper(k) * 2
    return other(b)


def noop(): ...


def clamp(v, lo, hi): return lo if v < lo else hi if v > hi else v

# CHECK:def scale_rows(m, scale, n: int, eps: float=(float 1e-06), unroll=4) -> None <12:1>
# CHECK-NEXT:  decorator (call (. cuda jit) "void(float32[:, :], float32[:], int32)" (kw fastmath True) (kw debug False))
# CHECK-NEXT:  docstring "Multiply each row of m by scale[row].\n\n    The docstring is kept apart from the body.\n    "
# CHECK-NEXT:  assign <17:5> (tuple row col) = (call (. cuda grid) 2)
# CHECK-NEXT:  if <18:5> (< row n)
# CHECK-NEXT:    augassign <19:9> (index m (tuple row col)) *= (+ (index scale row) eps)
# CHECK-NOT:{{.}}

# BIAS:def add_bias(x: (index float32 (slice _ _ _)), bias: "float32"=(float 0)) -> (index float32 (slice _ _ _)) <24:1>
# BIAS-NEXT:  decorator (. cuda jit)
# BIAS-NEXT:  decorator (call (. cuda inline) (kw always True))
# BIAS-NEXT:  pass <25:5>
# BIAS-NOT:{{.}}

# TILED:def tiled(a, b=(u- 1), c=(tuple 1 2), d=None, e=True) <29:1>
# TILED-NEXT:  decorator (call (. cuda jit) (kw device True))
# TILED-NEXT:  docstring "Single-quoted docstring."
# TILED-NEXT:  def helper(i, j=0) <31:5>
# TILED-NEXT:    docstring "Nested docstring."
# TILED-NEXT:    return <33:9> (index a (tuple i j))
# TILED-NEXT:  def other(k) <36:5>
# TILED-NEXT:    decorator (call (. cuda jit) (kw device True) (kw inline "always"))
# TILED-NEXT:    return <37:9> (* (call helper k) 2)
# TILED-NEXT:  return <38:5> (call other b)
# TILED-NOT:{{.}}

# NOOP:def noop() <41:1>
# NOOP-NEXT:  expr <41:13> ...
# NOOP-NOT:{{.}}

# CLAMP:def clamp(v, lo, hi) <44:1>
# CLAMP-NEXT:  return <44:23> (if (< v lo) lo (if (> v hi) hi v))
# CLAMP-NOT:{{.}}
