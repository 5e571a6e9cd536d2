// BuiltinCall.cpp - what every family of built-ins uses: argument checks,
// math on numbers, NumPy's allocation, reductions and ufunc loops.
#include "compiler/builtins/BuiltinCall.h"

#include <fmt/format.h>

#include <algorithm>

#include "compiler/Session.h"
#include "compiler/UfuncSource.h"

namespace kjit {

using namespace ir;

namespace {
// How messages spell a module's functions.
std::string spelled(const std::string &module, const std::string &f) {
  if (module == "builtins") return f;
  if (module == "numpy") return "np." + f;
  if (module.rfind("numpy.", 0) == 0) return "np." + module.substr(6) + "." + f;
  return module + "." + f;
}
}  // namespace

BuiltinCall::BuiltinCall(TyperServices &ts, CallSite &site, std::string module, std::string f)
    : ts(ts),
      tc(ts.context().types),
      ir(ts.context().ir),
      site(site),
      loc(site.loc),
      module(std::move(module)),
      f(std::move(f)) {
  name = spelled(this->module, this->f);
}

Expr *BuiltinCall::as(const std::string &m, const std::string &fn) {
  return dispatch(ts, site, m, fn);
}

Expr *BuiltinCall::fail(std::string msg) {
  return ts.error(DiagCategory::Typing, loc, std::move(msg));
}
Expr *BuiltinCall::unsupported(std::string msg) {
  return ts.error(DiagCategory::Unsupported, loc, std::move(msg));
}

bool BuiltinCall::arity(const std::string &fname, size_t lo, size_t hi) {
  if (site.args.size() >= lo && site.args.size() <= hi) return true;
  if (lo == hi)
    fail(fmt::format("{}() takes {} argument{} ({} given)", fname, lo, lo == 1 ? "" : "s",
                     site.args.size()));
  else
    fail(fmt::format("{}() takes {} to {} arguments ({} given)", fname, lo, hi, site.args.size()));
  return false;
}
bool BuiltinCall::noKeywords(const std::string &fname) {
  if (site.kwargs.empty()) return true;
  fail(fmt::format("{}() got an unexpected keyword argument '{}'", fname, site.kwargs[0].first));
  return false;
}
Expr *BuiltinCall::keyword(const std::string &kw) {
  for (auto &[k, v] : site.kwargs)
    if (k == kw) return v;
  return nullptr;
}
bool BuiltinCall::onlyKeywords(const std::string &fname,
                               std::initializer_list<const char *> allowed) {
  for (auto &[k, v] : site.kwargs) {
    bool ok = false;
    for (const char *a : allowed) ok |= k == a;
    if (!ok) {
      fail(fmt::format("{}() got an unexpected keyword argument '{}'", fname, k));
      return false;
    }
  }
  return true;
}

// The float type math on `t` computes in: float32 stays, the rest float64.
const Type *BuiltinCall::mathFloat(const Type *t) {
  if (t->isFloat() && t->bits() <= 32) return tc.floatTy(32);
  return tc.float64();
}

Expr *BuiltinCall::needNumber(Expr *e, const std::string &fname) {
  if (e->type->isNumber()) return e;
  if (e->type->isEnumMember() && e->type->isIntEnum()) return ts.convert(e, e->type->dtype());
  return ts.error(DiagCategory::Typing, e->loc,
                  fmt::format("{}() does not accept {}", fname, e->type->str()));
}

// On the GPU, float64 math is slow: say so when float32 data got there by
// promotion.
void BuiltinCall::warnIfPromoted(Expr *x, const std::string &fname) {
  if (!ts.cudaTarget() || !promotedFloat32(x)) return;
  ts.performanceWarning(x->loc,
                        fmt::format("{}() computes in float64 here: a float32 value is promoted "
                                    "to float64 by NumPy's rules (float32 with an int64 or "
                                    "float64 operand); convert that operand with float32() to "
                                    "stay in single precision",
                                    fname));
}

Expr *BuiltinCall::mathUnary(IntrinsicId id, const std::string &fname, Expr *x) {
  if (!needNumber(x, fname)->type) return x;
  warnIfPromoted(x, fname);
  if (x->type->isComplex())
    return unsupported(fmt::format("{}() of a complex number: use cmath", fname));
  const Type *t = mathFloat(x->type);
  return ts.intrinsic(id, {ts.convert(x, t)}, t, loc);
}
Expr *BuiltinCall::mathBinary(IntrinsicId id, const std::string &fname, Expr *x, Expr *y) {
  if (!needNumber(x, fname)->type || !needNumber(y, fname)->type) return x;
  warnIfPromoted(x, fname);
  warnIfPromoted(y, fname);
  const Type *t = promoteNumeric(tc, mathFloat(x->type), mathFloat(y->type));
  return ts.intrinsic(id, {ts.convert(x, t), ts.convert(y, t)}, t, loc);
}

// min/max of scalars, or of one array.
Expr *BuiltinCall::minMax(bool isMax, const std::string &fname) {
  if (site.args.empty()) return fail(fmt::format("{} expected at least 1 argument, got 0", fname));
  if (site.args.size() == 1) {
    Expr *a = site.args[0];
    if (a->type->isArray())
      return ts.intrinsic(isMax ? IntrinsicId::ArrayMax : IntrinsicId::ArrayMin, {a},
                          a->type->dtype(), loc);
    if (a->type->isList() || a->type->isDict())
      return library(isMax ? "_builtin_max" : "_builtin_min", {a});
    if (a->type->isTuple() && !a->type->elements().empty()) {
      std::vector<Expr *> elems;
      for (size_t i = 0; i < a->type->elements().size(); ++i)
        elems.push_back(ir.tupleGet(a, unsigned(i), loc));
      site.args = elems;
      return minMax(isMax, fname);
    }
    return fail(fmt::format("'{}' object is not iterable", a->type->str()));
  }
  const Type *t = site.args[0]->type;
  for (Expr *a : site.args) {
    if (!a->type->isNumber() || a->type->isComplex())
      return fail(
          fmt::format("{}() arguments must be real numbers, not {}", fname, a->type->str()));
    t = promoteNumeric(tc, t, a->type);
  }
  Expr *acc = ts.convert(site.args[0], t);
  for (size_t i = 1; i < site.args.size(); ++i)
    acc = ts.intrinsic(isMax ? IntrinsicId::Max : IntrinsicId::Min,
                       {acc, ts.convert(site.args[i], t)}, t, loc);
  return acc;
}

// The shape argument of np.empty & co: an int or a tuple of ints.
bool BuiltinCall::shapeDims(Expr *shape, std::vector<Expr *> &dims) {
  if (shape->type->isInt() || shape->type->isBool()) {
    dims.push_back(ts.convert(shape, tc.int64()));
    return true;
  }
  if (shape->type->isTuple()) {
    for (size_t i = 0; i < shape->type->elements().size(); ++i) {
      const Type *et = shape->type->elements()[i];
      if (!et->isInt()) {
        ts.error(DiagCategory::Typing, shape->loc,
                 fmt::format("array dimensions must be integers, not {}", et->str()));
        return false;
      }
      dims.push_back(ts.convert(ir.tupleGet(shape, unsigned(i), shape->loc), tc.int64()));
    }
    return true;
  }
  ts.error(DiagCategory::Typing, shape->loc,
           fmt::format("the shape must be an integer or a tuple of integers, not {}",
                       shape->type->str()));
  return false;
}

const Type *BuiltinCall::dtypeArg(Expr *d, const Type *dflt) {
  if (!d) return dflt;
  if (d->type->kind() == TypeKind::Dtype) return d->type->dtype();
  if (d->type->kind() == TypeKind::Function) {
    // float, int, bool, complex as dtypes.
    const std::string &s = d->type->symbol();
    if (s == "builtins.float") return tc.float64();
    if (s == "builtins.int") return tc.int64();
    if (s == "builtins.bool") return tc.boolean();
    if (s == "builtins.complex") return tc.complexTy(128);
  }
  ts.error(
      DiagCategory::Typing, d->loc,
      fmt::format("dtype must be a NumPy or kjit type such as np.float32, not {}", d->type->str()));
  return nullptr;
}

Expr *BuiltinCall::allocate(const std::string &fname, Expr *shape, Expr *dtypeExpr,
                            const Type *dflt, int fill, Expr *fillValue) {
  std::vector<Expr *> dims;
  if (!shapeDims(shape, dims)) return ts.constOf(nullptr, loc);
  const Type *dt = dtypeArg(dtypeExpr, dflt);
  if (!dt) return ts.constOf(nullptr, loc);
  const Type *at = tc.array(dt, unsigned(dims.size()), Layout::C);
  if (dt->isRecord() && (fillValue || fill > 0))
    return unsupported(
        fmt::format("{}() of a record dtype is not supported; np.empty and "
                    "np.zeros are",
                    fname));
  Expr *arr = ts.intrinsic(IntrinsicId::ArrayAlloc, dims, at, loc);
  if (dt->isRecord() && fill == 0)  // every byte zero: the fill value is a null record
    return ts.intrinsic(IntrinsicId::ArrayFill, {arr, ts.constOf(dt, loc)}, at, loc);
  if (fillValue)
    return ts.intrinsic(IntrinsicId::ArrayFill, {arr, ts.convert(fillValue, dt)}, at, loc);
  if (fill < 0) return arr;
  return ts.intrinsic(IntrinsicId::ArrayFill, {arr, ts.convert(ts.constInt(fill, loc), dt)}, at,
                      loc);
}

Expr *BuiltinCall::likeShape(Expr *a) {
  std::vector<Expr *> elems;
  for (unsigned d = 0; d < a->type->ndim(); ++d)
    elems.push_back(
        ts.intrinsic(IntrinsicId::ArrayShape, {a, ts.constInt(d, loc)}, tc.int64(), loc));
  return ir.tupleMake(std::move(elems), loc);
}

// The reductions whose value for a lone number is that number.
bool reducesScalar(const std::string &which) {
  for (const char *r : {"sum", "prod", "min", "max", "amin", "amax", "mean", "nansum", "nanprod",
                        "nanmin", "nanmax", "nanmean"})
    if (which == r) return true;
  return false;
}

// a.sum(axis=1), np.mean(a, 0) ...: the library's loops over the other
// axes (_reduce2, _reduce3); on the CPU.
Expr *BuiltinCall::reductionAlong(const std::string &which, Expr *a, Expr *axis) {
  if (axis->type->isNone()) return reduction(which, a);
  if (!a->type->isArray()) return fail(fmt::format("{}() needs an array", which));
  if (!axis->type->isInt())
    return ts.error(DiagCategory::Typing, axis->loc,
                    fmt::format("axis must be an integer, not {}", axis->type->str()));
  if (ts.cudaTarget())
    return unsupported(
        fmt::format("{}() along an axis allocates memory, which kernels cannot do", which));
  std::string op = which == "amin" ? "min" : which == "amax" ? "max" : which;
  unsigned nd = a->type->ndim();
  if (nd > 3)
    return unsupported(
        fmt::format("{}() along an axis of a {}-d array is not supported yet "
                    "(1 to 3 dimensions are)",
                    which, nd));
  static const char *const ops[] = {"sum", "prod", "min", "max",    "mean",  "var",
                                    "std", "all",  "any", "argmin", "argmax"};
  bool known = false;
  for (const char *o : ops) known |= op == o;
  if (!known) return unsupported(fmt::format("{}() along an axis is not supported yet", which));
  // A 1-d array: the only axis (0 or -1) is the whole array.
  return library(nd == 1   ? "_reduce1d"
                 : nd == 2 ? "_reduce2"
                           : "_reduce3",
                 {a, axis, ts.constOf(tc.stringLit(op), loc)});
}

Expr *BuiltinCall::reduction(const std::string &which, Expr *a) {
  if (!a->type->isArray()) {
    // np.sum(3.0) is 3.0
    if (a->type->isNumber() && reducesScalar(which)) return a;
    return fail(fmt::format("{}() needs an array, not {}", which, a->type->str()));
  }
  const Type *dt = a->type->dtype();
  if (dt->isRecord())
    return fail(fmt::format("{}() needs an array of numbers, not {}", which, a->type->str()));
  if (which == "sum" || which == "prod") {
    const Type *acc = dt;
    if (dt->isBool() || dt->isInt()) acc = tc.intTy(64, dt->isInt() ? dt->isSigned() : true);
    return ts.intrinsic(which == "sum" ? IntrinsicId::ArraySum : IntrinsicId::ArrayProd, {a}, acc,
                        loc);
  }
  if (which == "min" || which == "amin") return ts.intrinsic(IntrinsicId::ArrayMin, {a}, dt, loc);
  if (which == "max" || which == "amax") return ts.intrinsic(IntrinsicId::ArrayMax, {a}, dt, loc);
  if (which == "mean") {
    const Type *ft = dt->isFloat() || dt->isComplex() ? dt : tc.float64();
    Expr *sum = ts.intrinsic(IntrinsicId::ArraySum, {a}, ft, loc);
    Expr *n = ts.constInt(1, loc);
    for (unsigned d = 0; d < a->type->ndim(); ++d)
      n = ts.binary(
          ast::BinaryOp::Mul, n,
          ts.intrinsic(IntrinsicId::ArrayShape, {a, ts.constInt(d, loc)}, tc.int64(), loc), loc);
    return ts.convert(
        ts.binary(ast::BinaryOp::Div, sum, ts.convert(n, ft->isComplex() ? tc.float64() : ft), loc),
        ft);
  }
  if (which == "all" || which == "any")
    return ts.intrinsic(which == "all" ? IntrinsicId::ArrayAll : IntrinsicId::ArrayAny, {a},
                        tc.boolean(), loc);
  if (which == "count_nonzero")
    return ts.intrinsic(IntrinsicId::ArrayCountNonzero, {a}, tc.int64(), loc);
  bool inexact = dt->isFloat() || dt->isComplex();
  if (which == "nansum" || which == "nanprod") {
    if (!inexact) return reduction(which.substr(3), a);  // no NaNs to leave out
    return ts.intrinsic(which == "nansum" ? IntrinsicId::ArrayNanSum : IntrinsicId::ArrayNanProd,
                        {a}, dt, loc);
  }
  if (which == "nanmin" || which == "nanmax") {
    if (dt->isComplex())
      return unsupported(
          fmt::format("np.{}() of a complex array is not supported in kernels yet", which));
    if (!inexact) return reduction(which.substr(3), a);
    return ts.intrinsic(which == "nanmin" ? IntrinsicId::ArrayNanMin : IntrinsicId::ArrayNanMax,
                        {a}, dt, loc);
  }
  if (which == "nanmean")
    return ts.intrinsic(IntrinsicId::ArrayNanMean, {a}, inexact ? dt : tc.float64(), loc);
  if (which == "var" || which == "std") {
    const Type *ft = dt->isFloat() ? dt : dt->isComplex() ? dt->complexPart() : tc.float64();
    Expr *var = ts.intrinsic(IntrinsicId::ArrayVar, {a}, ft, loc);
    return which == "var" ? var : ts.intrinsic(IntrinsicId::Sqrt, {var}, ft, loc);
  }
  return unsupported(fmt::format("{}() is not supported in kernels", which));
}

// z.conjugate(): the imaginary part negated (-(+0.0) is -0.0); real
// numbers are their own conjugate.
Expr *BuiltinCall::conjugateOf(Expr *x) {
  if (!x->type->isComplex()) return x;
  const Type *p = x->type->complexPart();
  Expr *re = ts.intrinsic(IntrinsicId::Real, {x}, p, loc);
  Expr *im = ts.intrinsic(IntrinsicId::Imag, {x}, p, loc);
  Expr *negIm = ts.unaryOp(ast::UnaryOp::Neg, im, loc);
  return ts.intrinsic(IntrinsicId::ComplexMake, {re, ts.convert(negIm, p)}, x->type, loc);
}

// NumPy's order of complex numbers: by real part, then imaginary part.
Expr *BuiltinCall::complexCompare(ast::CmpOp op, Expr *x, Expr *y) {
  const Type *ct = promoteNumeric(tc, x->type, y->type);
  const Type *p = ct->complexPart();
  x = ts.convert(x, ct);
  y = ts.convert(y, ct);
  Expr *xr = ts.intrinsic(IntrinsicId::Real, {x}, p, loc);
  Expr *xi = ts.intrinsic(IntrinsicId::Imag, {x}, p, loc);
  Expr *yr = ts.intrinsic(IntrinsicId::Real, {y}, p, loc);
  Expr *yi = ts.intrinsic(IntrinsicId::Imag, {y}, p, loc);
  if (op == ast::CmpOp::Eq || op == ast::CmpOp::Ne) return ts.compare(op, x, y, loc);
  ast::CmpOp strict = op == ast::CmpOp::Le   ? ast::CmpOp::Lt
                      : op == ast::CmpOp::Ge ? ast::CmpOp::Gt
                                             : op;
  return ts.binary(ast::BinaryOp::BitOr, ts.compare(strict, xr, yr, loc),
                   ts.binary(ast::BinaryOp::BitAnd, ts.compare(ast::CmpOp::Eq, xr, yr, loc),
                             ts.compare(op, xi, yi, loc), loc),
                   loc);
}

Expr *BuiltinCall::isNanValue(Expr *x) {
  if (x->type->isFloat()) return ts.intrinsic(IntrinsicId::IsNan, {x}, tc.boolean(), loc);
  const Type *p = x->type->complexPart();
  return ts.binary(ast::BinaryOp::BitOr,
                   ts.intrinsic(IntrinsicId::IsNan, {ts.intrinsic(IntrinsicId::Real, {x}, p, loc)},
                                tc.boolean(), loc),
                   ts.intrinsic(IntrinsicId::IsNan, {ts.intrinsic(IntrinsicId::Imag, {x}, p, loc)},
                                tc.boolean(), loc),
                   loc);
}

// a.astype(dt): a new array of a's elements converted to dt.
Expr *BuiltinCall::astype(Expr *x, const Type *dt) {
  if (ts.cudaTarget()) return unsupported("astype() allocates memory, which kernels cannot do");
  if (!dt->isNumber())
    return unsupported(fmt::format("astype() to {} is not supported", dt->str()));
  std::string text = npName(dt) + "({0})";
  return arrayOperation(
      ts, UfuncKind::Predicate, text, {x},
      [&](std::vector<Expr *> e) { return dt->isBool() ? ts.truth(e[0]) : ts.convert(e[0], dt); },
      loc);
}

// The inputs and the output (`out=` or one argument past the inputs, or
// null) of the ufunc; false after an error.
bool BuiltinCall::ufuncOperands(unsigned nin, std::vector<Expr *> &in, Expr *&out) {
  if (!onlyKeywords(name, {"out"})) return false;
  in = site.args;
  out = keyword("out");
  if (!out && in.size() == nin + 1) {
    out = in.back();
    in.pop_back();
  }
  if (in.size() != nin) {
    fail(fmt::format("{}() takes {} input{} and an optional output array ({} given)", name, nin,
                     nin == 1 ? "" : "s", site.args.size()));
    return false;
  }
  return true;
}

// np.sqrt(a), np.add(a, 2.0), np.sin(a, out=b) on the CPU: an array
// expression (ArrayExprs.h), fused with its operands'.
Expr *BuiltinCall::ufuncArrayExpr(const BuiltinEntry &e) {
  unsigned nin = e.nin;
  std::vector<Expr *> in;
  Expr *out = nullptr;
  if (!ufuncOperands(nin, in, out)) return ts.constOf(nullptr, loc);
  std::string text = name + "(";
  for (unsigned k = 0; k < nin; ++k) text += fmt::format("{}{{{}}}", k ? ", " : "", k);
  text += ")";
  return arrayOperation(
      ts, e.kind, text, in,
      [&](std::vector<Expr *> elems) {
        CallSite one = site;
        one.args = std::move(elems);
        one.kwargs.clear();
        return dispatch(ts, one, module, f);
      },
      loc, out);
}

// np.sin(a, out), np.add(a, b, out=c), and on the CPU np.sin(a): a loop
// (UfuncSource.cpp) that broadcasts the operands and applies the scalar
// ufunc to each element.
Expr *BuiltinCall::ufuncOnArrays(const BuiltinEntry &e) {
  std::vector<Expr *> in;
  Expr *out = nullptr;
  if (!ufuncOperands(e.nin, in, out)) return ts.constOf(nullptr, loc);
  if (out && !out->type->isArray())
    return ts.error(
        DiagCategory::Typing, out->loc,
        fmt::format("{}(): the output must be an array, not {}", name, out->type->str()));
  if (out && out->type->readonly())
    return ts.error(DiagCategory::Typing, out->loc,
                    fmt::format("{}(): the output array is read-only", name));
  UfuncLoopSpec spec;
  spec.ufunc = f;
  unsigned nd = 0;
  std::vector<Expr *> elements;  // stand-ins for one element of each operand
  for (Expr *x : in) {
    if (x->type->isArray()) {
      if (x->type->ndim() == 0)
        return ts.error(DiagCategory::Unsupported, x->loc,
                        fmt::format("{}() of a 0-d array is not supported yet", name));
      spec.inputs.push_back(x->type->ndim());
      nd = std::max(nd, x->type->ndim());
      elements.push_back(ts.constOf(x->type->dtype(), x->loc));
    } else {
      spec.inputs.push_back(0);
      elements.push_back(ts.constOf(x->type, x->loc));
    }
  }
  // Type one element first, so that an operand the ufunc does not take is
  // reported here, at the user's call.
  CallSite one = site;
  one.args = elements;
  one.kwargs.clear();
  Expr *probe = dispatch(ts, one, module, f);
  if (!probe || !probe->type) return ts.constOf(nullptr, loc);
  if (out) {
    if (out->type->ndim() == 0)
      return ts.error(DiagCategory::Unsupported, out->loc,
                      fmt::format("{}() into a 0-d array is not supported yet", name));
    if (out->type->ndim() < nd)
      return ts.error(DiagCategory::Typing, out->loc,
                      fmt::format("{}(): the output array has {} dimension{}, fewer than "
                                  "the operands' {}",
                                  name, out->type->ndim(), out->type->ndim() == 1 ? "" : "s", nd));
    spec.ndim = out->type->ndim();
  } else {
    if (ts.cudaTarget())
      return unsupported(
          fmt::format("{0}() on arrays in kernels needs an output array, {0}(..., out): kernels "
                      "cannot allocate memory",
                      name));
    if (!probe->type->isNumber())
      return fail(fmt::format("{}() gives {}, which no array holds", name, probe->type->str()));
    spec.ndim = nd;
    spec.allocateDtype = probe->type->isBool() ? "bool_" : probe->type->str();
  }
  std::vector<Expr *> args = in;
  if (out) args.push_back(out);
  Expr *r = ts.callFunction(ts.context().session().ufuncLoopFunction(spec), std::move(args), loc);
  return r ? r : ts.constOf(nullptr, loc);
}

// A call of the library's function `fn` (compiler/lib/).
Expr *BuiltinCall::library(const std::string &fn, std::vector<Expr *> args) {
  Expr *r = ts.callFunction(ts.context().session().libraryFunction(fn), std::move(args), loc);
  return r ? r : ts.constOf(nullptr, loc);
}
std::optional<int64_t> BuiltinCall::constInt(Expr *e) {
  auto *c = dyn_cast<Const>(ts.literalLocal(e));
  if (c && c->type && (c->type->isInt() || c->type->isBool())) return c->i;
  return std::nullopt;
}

Expr *BuiltinCall::boolConst(bool v) {
  ir::Const *k = ts.constOf(tc.boolean(), loc);
  k->i = v;
  return k;
}

}  // namespace kjit
