// Math.cpp - the math and cmath modules: float functions as intrinsics,
// cmath's from the parts of complex numbers and the functions written in
// the kernel language (CmathSource.cpp).
#include <fmt/format.h>

#include <cmath>

#include "compiler/Session.h"
#include "compiler/builtins/BuiltinCall.h"

namespace kjit {

using namespace ir;

namespace {

// math/numpy functions of one float argument, by the intrinsic they become.
const MathIntrinsic kMathUnary[] = {
    {"sqrt", IntrinsicId::Sqrt},   {"sin", IntrinsicId::Sin},     {"cos", IntrinsicId::Cos},
    {"tan", IntrinsicId::Tan},     {"asin", IntrinsicId::Asin},   {"acos", IntrinsicId::Acos},
    {"atan", IntrinsicId::Atan},   {"sinh", IntrinsicId::Sinh},   {"cosh", IntrinsicId::Cosh},
    {"tanh", IntrinsicId::Tanh},   {"asinh", IntrinsicId::Asinh}, {"acosh", IntrinsicId::Acosh},
    {"atanh", IntrinsicId::Atanh}, {"exp", IntrinsicId::Exp},     {"expm1", IntrinsicId::Expm1},
    {"log", IntrinsicId::Log},     {"log2", IntrinsicId::Log2},   {"log10", IntrinsicId::Log10},
    {"log1p", IntrinsicId::Log1p}, {"fabs", IntrinsicId::Fabs},   {"erf", IntrinsicId::Erf},
    {"erfc", IntrinsicId::Erfc},   {"gamma", IntrinsicId::Gamma}, {"lgamma", IntrinsicId::Lgamma},
};
// NumPy spellings that differ from math's, and NumPy-only ones.
const MathIntrinsic kNumpyUnary[] = {
    {"arcsin", IntrinsicId::Asin},   {"arccos", IntrinsicId::Acos},
    {"arctan", IntrinsicId::Atan},   {"arcsinh", IntrinsicId::Asinh},
    {"arccosh", IntrinsicId::Acosh}, {"arctanh", IntrinsicId::Atanh},
    {"exp2", IntrinsicId::Exp2},     {"cbrt", IntrinsicId::Cbrt},
    {"rint", IntrinsicId::Rint},     {"floor", IntrinsicId::Floor},
    {"ceil", IntrinsicId::Ceil},     {"trunc", IntrinsicId::Trunc},
};
const MathIntrinsic kMathBinary[] = {
    {"atan2", IntrinsicId::Atan2},        {"pow", IntrinsicId::Pow},
    {"hypot", IntrinsicId::Hypot},        {"copysign", IntrinsicId::Copysign},
    {"fmod", IntrinsicId::Fmod},          {"arctan2", IntrinsicId::Atan2},
    {"power", IntrinsicId::Pow},          {"remainder", IntrinsicId::Remainder},
    {"nextafter", IntrinsicId::Nextafter}};

class MathCall : public BuiltinCall {
 public:
  explicit MathCall(BuiltinCall &c) : BuiltinCall(c) {}
  Expr *unary();
  Expr *binary();
  Expr *modf();
  Expr *ldexpFrexp();
  Expr *rounding();
  Expr *classify();
  Expr *angles();
  Expr *cmath();
  // A name the family has no row for: the module's checks, then refused.
  Expr *otherMath() {
    if (!noKeywords(name)) return none();
    return unsupported(fmt::format("{}() is not supported in kernels", name));
  }
  Expr *otherCmath() {
    if (!noKeywords(name)) return none();
    if (site.args.size() != 2 || f != "log")
      if (!arity(name, 1, 1) || !needNumber(site.args[0], name)->type) return none();
    return unsupported(fmt::format("{}() is not supported in kernels yet", name));
  }
};

// math.sqrt(x) ...; math.log(x, base).
Expr *MathCall::unary() {
  auto &a = site.args;
  IntrinsicId id = *mathIntrinsic(MathArity::Unary, f);
  if (f == "log" && a.size() == 2) {
    Expr *num = mathUnary(IntrinsicId::Log, name, a[0]);
    Expr *den = mathUnary(IntrinsicId::Log, name, a[1]);
    if (!num->type || !den->type) return none();
    return ts.binary(ast::BinaryOp::Div, num, den, loc);
  }
  if (!arity(name, 1, 1)) return none();
  return mathUnary(id, name, a[0]);
}

Expr *MathCall::binary() {
  if (!arity(name, 2, 2)) return none();
  return mathBinary(*mathIntrinsic(MathArity::Binary, f), name, site.args[0], site.args[1]);
}

Expr *MathCall::modf() {
  auto &a = site.args;
  // (fraction, integral part), both with x's sign: modf(-3.0) is
  // (-0.0, -3.0), modf(inf) is (0.0, inf).
  if (!arity(name, 1, 1) || !needNumber(a[0], name)->type) return ts.constOf(nullptr, loc);
  if (a[0]->type->isComplex()) return fail(fmt::format("{}() of a complex number", name));
  const Type *t = mathFloat(a[0]->type);
  Expr *x = ts.convert(a[0], t);
  Expr *whole = ts.intrinsic(IntrinsicId::Trunc, {x}, t, loc);
  Expr *frac = ts.select(
      ts.intrinsic(IntrinsicId::IsInf, {x}, tc.boolean(), loc),
      ts.intrinsic(IntrinsicId::Copysign, {ts.convert(ts.constFloat(0.0, loc), t), x}, t, loc),
      ts.intrinsic(IntrinsicId::Copysign,
                   {ts.convert(ts.binary(ast::BinaryOp::Sub, x, whole, loc), t), x}, t, loc),
      loc);
  return ir.tupleMake({frac, whole}, loc);
}

Expr *MathCall::ldexpFrexp() {
  auto &a = site.args;
  // Numba's signatures: ldexp(float, int32) -> float,
  // frexp(float) -> (float, int32); ints compute in float64.
  bool ld = f == "ldexp";
  if (!arity(name, ld ? 2 : 1, ld ? 2 : 1) || !needNumber(a[0], name)->type)
    return ts.constOf(nullptr, loc);
  if (a[0]->type->isComplex()) return unsupported(fmt::format("{}() of a complex number", name));
  const Type *t = mathFloat(a[0]->type);
  Expr *x = ts.convert(a[0], t);
  if (!ld) return ts.intrinsic(IntrinsicId::Frexp, {x}, tc.tuple({t, tc.intTy(32)}), loc);
  if (!a[1]->type->isInt() && !a[1]->type->isBool())
    return ts.error(DiagCategory::Typing, a[1]->loc,
                    fmt::format("{}() needs an integer exponent, not {}", name, a[1]->type->str()));
  return ts.intrinsic(IntrinsicId::Ldexp, {x, ts.convert(a[1], tc.intTy(32))}, t, loc);
}

Expr *MathCall::rounding() {
  auto &a = site.args;
  if (!arity(name, 1, 1) || !needNumber(a[0], name)->type) return ts.constOf(nullptr, loc);
  if (!a[0]->type->isFloat()) return ts.convert(a[0], tc.int64());
  IntrinsicId id = f == "floor"  ? IntrinsicId::Floor
                   : f == "ceil" ? IntrinsicId::Ceil
                                 : IntrinsicId::Trunc;
  return ts.convert(ts.intrinsic(id, {a[0]}, a[0]->type, loc), tc.int64());
}

Expr *MathCall::classify() {
  auto &a = site.args;
  if (!arity(name, 1, 1) || !needNumber(a[0], name)->type) return ts.constOf(nullptr, loc);
  if (!a[0]->type->isFloat()) return ts.convert(ts.constInt(f == "isfinite", loc), tc.boolean());
  IntrinsicId id = f == "isnan"   ? IntrinsicId::IsNan
                   : f == "isinf" ? IntrinsicId::IsInf
                                  : IntrinsicId::IsFinite;
  return ts.intrinsic(id, {a[0]}, tc.boolean(), loc);
}

Expr *MathCall::angles() {
  auto &a = site.args;
  if (!arity(name, 1, 1) || !needNumber(a[0], name)->type) return ts.constOf(nullptr, loc);
  const Type *t = mathFloat(a[0]->type);
  double k = f == "degrees" ? 180.0 / M_PI : M_PI / 180.0;
  return ts.binary(ast::BinaryOp::Mul, ts.convert(a[0], t), ts.convert(ts.constFloat(k, loc), t),
                   loc);
}

// cmath, built from real and imaginary parts with the float intrinsics.
Expr *MathCall::cmath() {
  auto &a = site.args;
  // The functions written in the kernel language (CmathSource.cpp) work on
  // complex128; the result has the argument's precision.
  auto cmathLibrary = [&](const std::string &fn, std::vector<Expr *> args,
                          const Type *ct) -> Expr * {
    Expr *r = ts.callFunction(ts.context().session().cmathFunction(fn), std::move(args), loc);
    return r ? ts.convert(r, ct) : ts.constOf(nullptr, loc);
  };
  auto complexArg = [&](Expr *e) { return e->type->isComplex() ? e->type : tc.complexTy(128); };
  if (f == "rect") {
    if (!arity(name, 2, 2)) return ts.constOf(nullptr, loc);
    Expr *r = ts.convert(needNumber(a[0], name), tc.float64());
    Expr *phi = ts.convert(needNumber(a[1], name), tc.float64());
    return cmathLibrary("rect", {r, phi}, tc.complexTy(128));
  }
  if (f == "log" && a.size() == 2) {
    if (!needNumber(a[0], name)->type || !needNumber(a[1], name)->type)
      return ts.constOf(nullptr, loc);
    const Type *ct = unify(tc, complexArg(a[0]), complexArg(a[1]));
    return cmathLibrary(
        "log_base", {ts.convert(a[0], tc.complexTy(128)), ts.convert(a[1], tc.complexTy(128))}, ct);
  }
  if (!arity(name, 1, 1) || !needNumber(a[0], name)->type) return ts.constOf(nullptr, loc);
  const Type *ct = complexArg(a[0]);
  const Type *ft = ct->complexPart();
  static const char *const written[] = {"exp",   "sqrt", "log10", "cos",  "cosh",
                                        "sin",   "sinh", "tan",   "tanh", "acos",
                                        "acosh", "asin", "asinh", "atan", "atanh"};
  for (const char *w : written)
    if (f == w) return cmathLibrary(f, {ts.convert(a[0], tc.complexTy(128))}, ct);
  Expr *z = ts.convert(a[0], ct);
  Expr *re = ts.intrinsic(IntrinsicId::Real, {z}, ft, loc);
  Expr *im = ts.intrinsic(IntrinsicId::Imag, {z}, ft, loc);
  auto mk = [&](Expr *r, Expr *i) {
    return ts.intrinsic(IntrinsicId::ComplexMake, {r, i}, ct, loc);
  };
  auto un = [&](IntrinsicId id, Expr *x) { return ts.intrinsic(id, {x}, ft, loc); };
  Expr *absz = ts.intrinsic(IntrinsicId::Hypot, {re, im}, ft, loc);
  Expr *phase = ts.intrinsic(IntrinsicId::Atan2, {im, re}, ft, loc);
  if (f == "phase") return phase;
  if (f == "polar") {
    return ir.tupleMake({absz, phase}, loc);
  }
  if (f == "log") return mk(un(IntrinsicId::Log, absz), phase);
  if (f == "isnan" || f == "isinf" || f == "isfinite") {
    IntrinsicId id = f == "isnan"   ? IntrinsicId::IsNan
                     : f == "isinf" ? IntrinsicId::IsInf
                                    : IntrinsicId::IsFinite;
    Expr *pr = ts.intrinsic(id, {re}, tc.boolean(), loc),
         *pi = ts.intrinsic(id, {im}, tc.boolean(), loc);
    return ts.binary(f == "isfinite" ? ast::BinaryOp::BitAnd : ast::BinaryOp::BitOr, pr, pi, loc);
  }
  return unsupported(fmt::format("cmath.{}() is not supported in kernels yet", f));
}

}  // namespace

std::optional<IntrinsicId> mathIntrinsic(MathArity arity, std::string_view name) {
  auto find = [&](const auto &table) -> std::optional<IntrinsicId> {
    for (const MathIntrinsic &m : table)
      if (name == m.name) return m.id;
    return std::nullopt;
  };
  switch (arity) {
  case MathArity::Unary: return find(kMathUnary);
  case MathArity::NumpyUnary:
    if (auto id = find(kNumpyUnary)) return id;
    return find(kMathUnary);
  case MathArity::Binary: return find(kMathBinary);
  }
  return std::nullopt;
}

const BuiltinFamily &mathFamily() {
  using M = MathCall;
  static const BuiltinFamily family = [] {
    BuiltinFamily fam{"math", {}, via<&M::otherMath>};
    for (const MathIntrinsic &m : kMathUnary)
      fam.entries.push_back(row(m.name, via<&M::unary>, positional()));
    for (const char *b : {"atan2", "pow", "hypot", "copysign", "fmod", "remainder", "nextafter"})
      fam.entries.push_back(row(b, via<&M::binary>, positional()));
    // Python 3.11's exp2 and cbrt: NumPy's intrinsics.
    for (const char *u : {"exp2", "cbrt"})
      fam.entries.push_back(row(
          u,
          [](BuiltinCall &c) -> Expr * {
            if (!c.arity(c.name, 1, 1)) return c.none();
            return c.mathUnary(*mathIntrinsic(MathArity::NumpyUnary, c.f), c.name, c.site.args[0]);
          },
          positional()));
    fam.entries.push_back(row("modf", via<&M::modf>, positional()));
    for (const char *n : {"ldexp", "frexp"})
      fam.entries.push_back(row(n, via<&M::ldexpFrexp>, positional()));
    for (const char *n : {"floor", "ceil", "trunc"})
      fam.entries.push_back(row(n, via<&M::rounding>, positional()));
    for (const char *n : {"isnan", "isinf", "isfinite"})
      fam.entries.push_back(row(n, via<&M::classify>, positional()));
    for (const char *n : {"degrees", "radians"})
      fam.entries.push_back(row(n, via<&M::angles>, positional()));
    return fam;
  }();
  return family;
}

const BuiltinFamily &cmathFamily() {
  static const BuiltinFamily family = [] {
    BuiltinFamily fam{"cmath", {}, via<&MathCall::otherCmath>};
    fam.missing = "{}() is not supported in kernels yet";
    for (const char *n : {"sqrt",  "exp",      "log",  "log10", "phase", "polar", "rect", "isnan",
                          "isinf", "isfinite", "cos",  "cosh",  "sin",   "sinh",  "tan",  "tanh",
                          "acos",  "acosh",    "asin", "asinh", "atan",  "atanh"})
      fam.entries.push_back(row(n, via<&MathCall::cmath>, positional()));
    return fam;
  }();
  return family;
}

}  // namespace kjit
