// CmathSource.cpp - the cmath functions that are more than a formula, in the
// kernel language itself: Numba's implementations (numba/cpython/cmathimpl.py),
// which follow CPython's special values (infinities, NaNs, signed zeros).
// They are typed and lowered as any kjit function, so every target has them.
// Each works on complex128; the caller converts to and from complex64.
#include "compiler/CmathSource.h"

#include "compiler/ModuleEnv.h"

namespace kjit {
namespace {

// Functions call each other through `cmath.X`, never by their own names, so
// that each is reached through Session::cmathFunction() and its one identity.
const char *const kSource = R"PY(import math
import cmath


def exp(z):
    x = z.real
    y = z.imag
    if math.isfinite(x):
        if math.isfinite(y):
            r = math.exp(x)
            return complex(r * math.cos(y), r * math.sin(y))
        return complex(math.nan, math.nan)
    if math.isnan(x):
        if y != 0.0:
            return complex(x, x)
        return complex(x, y)
    if x > 0.0:
        if math.isfinite(y):
            real = math.cos(y)
            imag = math.sin(y)
            if real != 0.0:
                real *= x
            if imag != 0.0:
                imag *= x
            return complex(real, imag)
        return complex(x, math.nan)
    if math.isfinite(y):
        r = math.exp(x)
        return complex(r * math.cos(y), r * math.sin(y))
    return complex(0.0, 0.0)


def sqrt(z):
    a = z.real
    b = z.imag
    if a == 0.0 and b == 0.0:
        return complex(abs(b), b)
    if math.isinf(b):
        return complex(abs(b), b)
    if math.isnan(a):
        return complex(a, a)
    if math.isinf(a):
        if a < 0.0:
            return complex(abs(b - b), math.copysign(a, b))
        return complex(a, math.copysign(b - b, b))
    # DBL_MAX / (1 + sqrt(2)): beyond it, hypot() would overflow.
    thres = 7.446288774449766e307
    scale = False
    if abs(a) >= thres or abs(b) >= thres:
        a *= 0.25
        b *= 0.25
        scale = True
    if a >= 0.0:
        t = math.sqrt((a + math.hypot(a, b)) * 0.5)
        real = t
        imag = b / (2.0 * t)
    else:
        t = math.sqrt((-a + math.hypot(a, b)) * 0.5)
        real = abs(b) / (2.0 * t)
        imag = math.copysign(t, b)
    if scale:
        return complex(real * 2.0, imag)
    return complex(real, imag)


def rect(r, phi):
    if not math.isfinite(phi):
        if r == 0.0:
            return complex(abs(r), 0.0)
        if math.isinf(r):
            return complex(r, phi)
    real = math.cos(phi)
    imag = math.sin(phi)
    if real == 0.0 and math.isinf(r):
        real /= r
    else:
        real *= r
    if imag == 0.0 and math.isinf(r):
        imag /= r
    else:
        imag *= r
    return complex(real, imag)


def log10(z):
    w = cmath.log(z)
    return complex(w.real / 2.302585092994045684, w.imag / 2.302585092994045684)


def log_base(z, base):
    return cmath.log(z) / cmath.log(base)


def cosh(z):
    x = z.real
    y = z.imag
    # CPython's special values where Numba's formula gives nan+nanj.
    if (math.isnan(x) and y == 0.0) or (x == 0.0 and math.isnan(y)):
        return complex(math.nan, 0.0)
    if math.isinf(x):
        if math.isnan(y):
            real = abs(x)
            imag = y
        elif y == 0.0:
            real = abs(x)
            imag = y
        else:
            real = math.copysign(x, math.cos(y))
            imag = math.copysign(x, math.sin(y))
        if x < 0.0:
            imag = -imag
        return complex(real, imag)
    return complex(math.cos(y) * math.cosh(x), math.sin(y) * math.sinh(x))


def sinh(z):
    x = z.real
    y = z.imag
    if math.isnan(x) and y == 0.0:
        return complex(x, y)
    if x == 0.0 and math.isnan(y):
        return complex(0.0, y)
    if math.isinf(x):
        if math.isnan(y):
            real = abs(x)
            imag = y
        else:
            real = math.cos(y)
            imag = math.sin(y)
            if real != 0.0:
                real *= x
            if imag != 0.0:
                imag *= abs(x)
        return complex(real, imag)
    return complex(math.cos(y) * math.sinh(x), math.sin(y) * math.cosh(x))


def tanh(z):
    x = z.real
    y = z.imag
    if math.isnan(x) and y == 0.0:
        return complex(x, y)
    if math.isinf(x):
        real = math.copysign(1.0, x)
        if math.isinf(y):
            imag = 0.0
        else:
            imag = math.copysign(0.0, math.sin(2.0 * y))
        return complex(real, imag)
    tx = math.tanh(x)
    ty = math.tan(y)
    cx = 1.0 / math.cosh(x)
    txty = tx * ty
    denom = 1.0 + txty * txty
    return complex(tx * (1.0 + ty * ty) / denom, ((ty / denom) * cx) * cx)


def cos(z):
    return cmath.cosh(complex(-z.imag, z.real))


def sin(z):
    r = cmath.sinh(complex(-z.imag, z.real))
    return complex(r.imag, -r.real)


def tan(z):
    r = cmath.tanh(complex(-z.imag, z.real))
    return complex(r.imag, -r.real)


def acos(z):
    # FLT_MAX / 4, as Numba; log(4).
    if abs(z.real) > 8.507059173023462e37 or abs(z.imag) > 8.507059173023462e37:
        real = math.atan2(abs(z.imag), z.real)
        imag = math.copysign(
            math.log(math.hypot(z.real * 0.5, z.imag * 0.5)) + 1.3862943611198906, -z.imag
        )
        return complex(real, imag)
    s1 = cmath.sqrt(complex(1.0 - z.real, -z.imag))
    s2 = cmath.sqrt(complex(1.0 + z.real, z.imag))
    real = 2.0 * math.atan2(s1.real, s2.real)
    imag = math.asinh(s2.real * s1.imag - s2.imag * s1.real)
    return complex(real, imag)


def acosh(z):
    if abs(z.real) > 8.507059173023462e37 or abs(z.imag) > 8.507059173023462e37:
        real = math.log(math.hypot(z.real * 0.5, z.imag * 0.5)) + 1.3862943611198906
        imag = math.atan2(z.imag, z.real)
        return complex(real, imag)
    s1 = cmath.sqrt(complex(z.real - 1.0, z.imag))
    s2 = cmath.sqrt(complex(z.real + 1.0, z.imag))
    real = math.asinh(s1.real * s2.real + s1.imag * s2.imag)
    imag = 2.0 * math.atan2(s1.imag, s2.real)
    return complex(real, imag)


def asinh(z):
    if abs(z.real) > 8.507059173023462e37 or abs(z.imag) > 8.507059173023462e37:
        real = math.copysign(
            math.log(math.hypot(z.real * 0.5, z.imag * 0.5)) + 1.3862943611198906, z.real
        )
        imag = math.atan2(z.imag, abs(z.real))
        return complex(real, imag)
    s1 = cmath.sqrt(complex(1.0 + z.imag, -z.real))
    s2 = cmath.sqrt(complex(1.0 - z.imag, z.real))
    real = math.asinh(s1.real * s2.imag - s2.real * s1.imag)
    imag = math.atan2(z.imag, s1.real * s2.real - s1.imag * s2.imag)
    return complex(real, imag)


def asin(z):
    r = cmath.asinh(complex(-z.imag, z.real))
    return complex(r.imag, -r.real)


def atan(z):
    r = cmath.atanh(complex(-z.imag, z.real))
    if math.isinf(z.real) and math.isnan(z.imag):
        return complex(r.imag, r.real)
    return complex(r.imag, -r.real)


def atanh(z):
    x = z.real
    y = z.imag
    # CPython's special values where Numba's formula differs.
    if math.isnan(x) and not math.isinf(y):
        return complex(x, x)
    if x == 0.0 and math.isnan(y):
        return complex(x, y)
    negate = False
    if x < 0.0:
        negate = True
        x = -x
        y = -y
    ay = abs(y)
    # sqrt(FLT_MAX / 4) and sqrt(FLT_MIN), as Numba.
    if math.isnan(x) or x > 9.223371954088093e18 or ay > 9.223371954088093e18:
        if math.isinf(y):
            real = math.copysign(0.0, x)
        elif math.isinf(x):
            real = 0.0
        else:
            h = math.hypot(x * 0.5, y * 0.5)
            real = x / 4.0 / h / h
        imag = -math.copysign(math.pi / 2, -y)
    elif x == 1.0 and ay < 1.0842021724855044e-19:
        if ay == 0.0:
            real = math.inf
            imag = y
        else:
            real = -math.log(math.sqrt(ay) / math.sqrt(math.hypot(ay, 2.0)))
            imag = math.copysign(math.atan2(2.0, -ay) / 2, y)
    else:
        sqay = ay * ay
        zr1 = 1.0 - x
        real = math.log1p(4.0 * x / (zr1 * zr1 + sqay)) * 0.25
        imag = -math.atan2(-2.0 * y, zr1 * (1.0 + x) - sqay) * 0.5
    if math.isnan(y):
        imag = math.nan
    if negate:
        return complex(-real, -imag)
    return complex(real, imag)
)PY";

}  // namespace

std::shared_ptr<FunctionSource> makeCmathFunction(Session &session, const std::string &name,
                                                  uint64_t ordinal) {
  std::shared_ptr<FunctionSource> fn = functionFromModule(session, "<kjit cmath>", kSource, name);
  if (fn) {
    // An identity of its own, apart from the small numbers kjitc's modules
    // use and the addresses Python's functions have.
    fn->identity = 0x636d617468000000ull + ordinal;
  }
  return fn;
}

}  // namespace kjit
