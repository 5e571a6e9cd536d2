// NumpyUfuncs.cpp - NumPy's elementwise functions (ufuncs): each row types
// one element; the dispatcher (Registry.cpp) turns calls on arrays into the
// ufunc loops, so one typing serves numbers, array expressions and loops.
#include <fmt/format.h>

#include <cmath>

#include "compiler/builtins/BuiltinCall.h"

namespace kjit {

using namespace ir;

namespace {

struct OperatorRow {
  const char *name;
  ast::BinaryOp op;
};
const OperatorRow kBinary[] = {{"add", ast::BinaryOp::Add},
                               {"subtract", ast::BinaryOp::Sub},
                               {"multiply", ast::BinaryOp::Mul},
                               {"bitwise_and", ast::BinaryOp::BitAnd},
                               {"bitwise_or", ast::BinaryOp::BitOr},
                               {"bitwise_xor", ast::BinaryOp::BitXor},
                               {"left_shift", ast::BinaryOp::LShift},
                               {"right_shift", ast::BinaryOp::RShift},
                               {"true_divide", ast::BinaryOp::Div},
                               {"divide", ast::BinaryOp::Div},
                               {"floor_divide", ast::BinaryOp::FloorDiv},
                               {"remainder", ast::BinaryOp::Mod},
                               {"mod", ast::BinaryOp::Mod}};
struct CompareRow {
  const char *name;
  ast::CmpOp op;
};
const CompareRow kCompare[] = {{"equal", ast::CmpOp::Eq},   {"not_equal", ast::CmpOp::Ne},
                               {"less", ast::CmpOp::Lt},    {"less_equal", ast::CmpOp::Le},
                               {"greater", ast::CmpOp::Gt}, {"greater_equal", ast::CmpOp::Ge}};
// NumPy's names of the complex functions cmath has.
const char *const kComplexMath[][2] = {
    {"sin", "sin"},     {"cos", "cos"},       {"tan", "tan"},       {"sinh", "sinh"},
    {"cosh", "cosh"},   {"tanh", "tanh"},     {"arcsin", "asin"},   {"arccos", "acos"},
    {"arctan", "atan"}, {"arcsinh", "asinh"}, {"arccosh", "acosh"}, {"arctanh", "atanh"},
    {"exp", "exp"},     {"log", "log"},       {"log10", "log10"},   {"sqrt", "sqrt"}};

class UfuncCall : public BuiltinCall {
 public:
  explicit UfuncCall(BuiltinCall &c) : BuiltinCall(c) {}

  // Checks `n` number arguments.
  bool numbers(size_t n) {
    if (!arity(name, n, n)) return false;
    for (Expr *x : site.args)
      if (!needNumber(x, name)->type) return false;
    return true;
  }

  Expr *operatorBinary();
  Expr *compare();
  Expr *logical();
  Expr *logicalNot();
  Expr *invert();
  Expr *positive();
  Expr *conj();
  Expr *minMax();
  Expr *floatUnary();
  Expr *floatBinary();
  Expr *abs() { return as("builtins", "abs"); }
  Expr *mathClassify() { return as("math", f); }
  Expr *angle() { return as("math", f == "deg2rad" ? "radians" : f == "rad2deg" ? "degrees" : f); }
  Expr *square();
  Expr *negative();
  Expr *sign();
  Expr *notYet() { return unsupported(fmt::format("{}() is not supported in kernels yet", name)); }
};

Expr *UfuncCall::operatorBinary() {
  auto &a = site.args;
  if (!numbers(2)) return none();
  ast::BinaryOp op = ast::BinaryOp::Add;
  for (const OperatorRow &r : kBinary)
    if (f == r.name) op = r.op;
  if (op == ast::BinaryOp::BitAnd || op == ast::BinaryOp::BitOr || op == ast::BinaryOp::BitXor ||
      op == ast::BinaryOp::LShift || op == ast::BinaryOp::RShift)
    for (Expr *x : a)
      if (!x->type->isInt() && !x->type->isBool())
        return ts.error(
            DiagCategory::Typing, x->loc,
            fmt::format("{}() takes integers or booleans, not {}", name, x->type->str()));
  Expr *x = a[0]->type->isEnumMember() ? ts.convert(a[0], a[0]->type->dtype()) : a[0];
  Expr *y = a[1]->type->isEnumMember() ? ts.convert(a[1], a[1]->type->dtype()) : a[1];
  return ts.binary(op, x, y, loc);
}

Expr *UfuncCall::compare() {
  auto &a = site.args;
  if (!numbers(2)) return none();
  ast::CmpOp op = ast::CmpOp::Eq;
  for (const CompareRow &r : kCompare)
    if (f == r.name) op = r.op;
  Expr *x = needNumber(a[0], name), *y = needNumber(a[1], name);
  if (x->type->isComplex() || y->type->isComplex()) return complexCompare(op, x, y);
  return ts.compare(op, x, y, loc);
}

Expr *UfuncCall::logical() {
  if (!numbers(2)) return none();
  Expr *x = ts.truth(site.args[0]), *y = ts.truth(site.args[1]);
  if (f == "logical_xor") return ts.compare(ast::CmpOp::Ne, x, y, loc);
  return ts.binary(f == "logical_and" ? ast::BinaryOp::BitAnd : ast::BinaryOp::BitOr, x, y, loc);
}

Expr *UfuncCall::logicalNot() {
  if (!numbers(1)) return none();
  return ts.unaryOp(ast::UnaryOp::Not, ts.truth(site.args[0]), loc);
}

Expr *UfuncCall::invert() {
  if (!numbers(1)) return none();
  Expr *x = needNumber(site.args[0], name);
  if (x->type->isBool()) return ts.unaryOp(ast::UnaryOp::Not, x, loc);
  if (!x->type->isInt())
    return fail(fmt::format("{}() takes integers or booleans, not {}", name, x->type->str()));
  return ts.unaryOp(ast::UnaryOp::Invert, x, loc);
}

Expr *UfuncCall::positive() {
  if (!numbers(1)) return none();
  return needNumber(site.args[0], name);
}

Expr *UfuncCall::conj() {
  if (!numbers(1)) return none();
  return conjugateOf(needNumber(site.args[0], name));
}

// np.maximum/np.minimum propagate a NaN from either operand; np.fmax/np.fmin
// return the other operand. Complex numbers order as NumPy's.
Expr *UfuncCall::minMax() {
  if (!arity(name, 2, 2)) return none();
  Expr *x = needNumber(site.args[0], name), *y = needNumber(site.args[1], name);
  if (!x->type || !y->type) return none();
  bool isMax = f == "maximum" || f == "fmax", propagate = f == "maximum" || f == "minimum";
  const Type *t = promoteNumeric(tc, x->type, y->type);
  x = ts.convert(x, t);
  y = ts.convert(y, t);
  if (t->isComplex()) {
    Expr *xn = isNanValue(x), *yn = isNanValue(y);
    Expr *better = complexCompare(isMax ? ast::CmpOp::Ge : ast::CmpOp::Le, x, y);
    Expr *first = propagate ? xn : yn, *second = propagate ? yn : xn;
    Expr *pickX = ts.binary(
        ast::BinaryOp::BitOr, first,
        ts.binary(ast::BinaryOp::BitAnd, ts.unaryOp(ast::UnaryOp::Not, second, loc), better, loc),
        loc);
    return ts.select(pickX, x, y, loc);
  }
  // Min/Max keep x unless y is strictly better: a NaN x stays.
  Expr *m = ts.intrinsic(isMax ? IntrinsicId::Max : IntrinsicId::Min, {x, y}, t, loc);
  if (!t->isFloat()) return m;
  if (propagate) return ts.select(isNanValue(y), y, m, loc);
  return ts.select(isNanValue(x), y, m, loc);
}

// np.sin(x) ...: the float intrinsic; of a complex number, cmath's function.
Expr *UfuncCall::floatUnary() {
  auto &a = site.args;
  if (a.size() == 1 && a[0]->type->isComplex()) {
    for (const auto &m : kComplexMath)
      if (f == m[0]) return as("cmath", m[1]);
    if (f == "log2") {
      // log(z) / log(2), part by part (a complex product would make
      // NaNs of the infinities log(0) has).
      Expr *l = as("cmath", "log");
      if (!l->type) return l;
      const Type *p = l->type->complexPart();
      Expr *k = ts.convert(ts.constFloat(1.0 / M_LN2, loc), p);
      auto part = [&](IntrinsicId id) {
        return ts.convert(ts.binary(ast::BinaryOp::Mul, ts.intrinsic(id, {l}, p, loc), k, loc), p);
      };
      return ts.intrinsic(IntrinsicId::ComplexMake,
                          {part(IntrinsicId::Real), part(IntrinsicId::Imag)}, l->type, loc);
    }
  }
  if (!arity(name, 1, 1)) return none();
  return mathUnary(*mathIntrinsic(MathArity::NumpyUnary, f), name, a[0]);
}

Expr *UfuncCall::floatBinary() {
  if (!arity(name, 2, 2)) return none();
  return mathBinary(*mathIntrinsic(MathArity::Binary, f), name, site.args[0], site.args[1]);
}

Expr *UfuncCall::square() {
  if (!arity(name, 1, 1)) return none();
  return ts.binary(ast::BinaryOp::Mul, site.args[0], site.args[0], loc);
}

Expr *UfuncCall::negative() {
  if (!arity(name, 1, 1)) return none();
  Expr *x = site.args[0];
  if (x->type->isFloat() || x->type->isComplex())
    return ts.unaryOp(ast::UnaryOp::Neg, x, loc);  // -0.0 for 0.0
  return ts.binary(ast::BinaryOp::Sub, ts.convert(ts.constInt(0, loc), x->type), x, loc);
}

// np.sign(x): -1, 0 or 1 in x's type; NaN stays NaN, -0.0 gives 0.0 (as
// NumPy's). Of a complex number, as NumPy 1.x and Numba: the sign of the
// real part, or of the imaginary part when the real part is 0, as a
// complex number; NaN when a part is NaN.
Expr *UfuncCall::sign() {
  if (!arity(name, 1, 1)) return none();
  Expr *x = needNumber(site.args[0], name);
  if (!x->type) return none();
  const Type *t = x->type;
  if (t->isBool())
    return fail(fmt::format("{}() does not accept bool (NumPy has no such loop)", name));
  auto signOf = [&](Expr *v) -> Expr * {
    const Type *vt = v->type;
    Expr *zero = ts.convert(ts.constInt(0, loc), vt);
    Expr *one = ts.convert(ts.constInt(1, loc), vt);
    Expr *r = zero;
    if (!vt->isInt() || vt->isSigned())  // (no negative unsigned integers)
      r = ts.select(ts.compare(ast::CmpOp::Lt, v, zero, loc), ts.convert(ts.constInt(-1, loc), vt),
                    zero, loc);
    r = ts.select(ts.compare(ast::CmpOp::Gt, v, zero, loc), one, r, loc);
    if (vt->isFloat()) r = ts.select(isNanValue(v), v, r, loc);
    return r;
  };
  if (!t->isComplex()) return signOf(x);
  // NumPy 1.x's order of complex numbers (CGT, CLT): by the real part when
  // the imaginary part is a number, else NaN.
  const Type *p = t->complexPart();
  Expr *re = ts.intrinsic(IntrinsicId::Real, {x}, p, loc);
  Expr *im = ts.intrinsic(IntrinsicId::Imag, {x}, p, loc);
  Expr *zero = ts.convert(ts.constInt(0, loc), p);
  auto cmp = [&](ast::CmpOp op, Expr *l, Expr *r) { return ts.compare(op, l, r, loc); };
  auto both = [&](Expr *l, Expr *r) { return ts.binary(ast::BinaryOp::BitAnd, l, r, loc); };
  auto either = [&](Expr *l, Expr *r) { return ts.binary(ast::BinaryOp::BitOr, l, r, loc); };
  Expr *ordered = ts.unaryOp(ast::UnaryOp::Not, isNanValue(im), loc);
  Expr *reZero = cmp(ast::CmpOp::Eq, re, zero);
  Expr *gt = either(both(cmp(ast::CmpOp::Gt, re, zero), ordered),
                    both(reZero, cmp(ast::CmpOp::Gt, im, zero)));
  Expr *lt = either(both(cmp(ast::CmpOp::Lt, re, zero), ordered),
                    both(reZero, cmp(ast::CmpOp::Lt, im, zero)));
  Expr *eq = both(reZero, cmp(ast::CmpOp::Eq, im, zero));
  Expr *nan = ts.convert(ts.constFloat(NAN, loc), p);
  Expr *s = ts.select(
      gt, ts.convert(ts.constInt(1, loc), p),
      ts.select(lt, ts.convert(ts.constInt(-1, loc), p), ts.select(eq, zero, nan, loc), loc), loc);
  return ts.intrinsic(IntrinsicId::ComplexMake, {s, zero}, t, loc);
}

}  // namespace

void addNumpyUfuncRows(std::vector<BuiltinEntry> &rows) {
  using U = UfuncCall;
  using K = UfuncKind;
  for (const OperatorRow &r : kBinary) {
    bool floats = r.op == ast::BinaryOp::Div;
    rows.push_back(
        row(r.name, via<&U::operatorBinary>, ufunc(2, floats ? K::FloatMath : K::Arithmetic)));
  }
  for (const CompareRow &r : kCompare)
    rows.push_back(row(r.name, via<&U::compare>, ufunc(2, K::Compare)));
  for (const char *n : {"logical_and", "logical_or", "logical_xor"})
    rows.push_back(row(n, via<&U::logical>, ufunc(2, K::Predicate)));
  rows.push_back(row("logical_not", via<&U::logicalNot>, ufunc(1, K::Predicate)));
  for (const char *n : {"invert", "bitwise_not"}) rows.push_back(row(n, via<&U::invert>, ufunc(1)));
  rows.push_back(row("positive", via<&U::positive>, ufunc(1)));
  for (const char *n : {"conj", "conjugate"}) rows.push_back(row(n, via<&U::conj>, ufunc(1)));
  for (const char *n : {"minimum", "maximum", "fmin", "fmax"})
    rows.push_back(row(n, via<&U::minMax>, ufunc(2)));
  // The float functions (math's, less those NumPy lacks, and NumPy's own).
  for (const char *n :
       {"sqrt",    "sin",     "cos",   "tan",   "sinh", "cosh",   "tanh",   "exp",    "expm1",
        "log",     "log2",    "log10", "log1p", "fabs", "arcsin", "arccos", "arctan", "arcsinh",
        "arccosh", "arctanh", "exp2",  "cbrt",  "rint", "floor",  "ceil",   "trunc"})
    rows.push_back(row(n, via<&U::floatUnary>, ufunc(1, K::FloatMath)));
  for (const char *n : {"arctan2", "atan2", "hypot", "copysign", "nextafter"})
    rows.push_back(row(n, via<&U::floatBinary>, ufunc(2, K::FloatMath)));
  for (const char *n : {"fmod", "power", "pow"})
    rows.push_back(row(n, via<&U::floatBinary>, ufunc(2)));
  for (const char *n : {"abs", "absolute"})
    rows.push_back(row(n, via<&U::abs>, ufunc(1, K::Absolute)));
  for (const char *n : {"isnan", "isinf", "isfinite"})
    rows.push_back(row(n, via<&U::mathClassify>, ufunc(1, K::Predicate)));
  for (const char *n : {"deg2rad", "rad2deg"})
    rows.push_back(row(n, via<&U::angle>, ufunc(1, K::FloatMath)));
  for (const char *n : {"degrees", "radians"})
    rows.push_back(row(n, via<&U::angle>, ufunc(1, K::FloatMath)));
  rows.push_back(row("square", via<&U::square>, ufunc(1)));
  rows.push_back(row("negative", via<&U::negative>, ufunc(1)));
  rows.push_back(row("sign", via<&U::sign>, ufunc(1)));
  // Names kernels know but cannot compute yet.
  for (const char *n : {"round", "around", "real", "imag"})
    rows.push_back(row(n, via<&U::notYet>, scalar()));
}

}  // namespace kjit
