#include "compiler/Builtins.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "compiler/ArrayExprs.h"
#include "compiler/CmathSource.h"
#include "compiler/NumpyLib.h"
#include "compiler/UfuncSource.h"

namespace kjit {

using namespace ir;

namespace {

GlobalValue fnValue(const std::string &qualified) {
  GlobalValue g;
  g.kind = GlobalValue::Kind::Function;
  g.name = qualified;
  return g;
}

GlobalValue floatValue(double v) {
  GlobalValue g;
  g.kind = GlobalValue::Kind::Float;
  g.f = v;
  return g;
}

const char *const kBuiltinFunctions[] = {
    "range", "len",     "abs",   "min",        "max", "int",    "float",
    "bool",  "complex", "round", "divmod",     "pow", "print",  "enumerate",
    "zip",   "tuple",   "type",  "isinstance", "sum", "sorted", "list",
    "any",   "all",     "set",   "dict",       "str", "ord",    "chr"};

const char *const kExceptions[] = {"Exception",         "ValueError",          "IndexError",
                                   "KeyError",          "TypeError",           "RuntimeError",
                                   "AssertionError",    "ZeroDivisionError",   "ArithmeticError",
                                   "OverflowError",     "NotImplementedError", "LookupError",
                                   "FloatingPointError"};

// math/numpy functions of one float argument, by the intrinsic they become.
struct UnaryMath {
  const char *name;
  IntrinsicId id;
};
const UnaryMath kMathUnary[] = {
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
const UnaryMath kNumpyUnary[] = {
    {"arcsin", IntrinsicId::Asin},   {"arccos", IntrinsicId::Acos},
    {"arctan", IntrinsicId::Atan},   {"arcsinh", IntrinsicId::Asinh},
    {"arccosh", IntrinsicId::Acosh}, {"arctanh", IntrinsicId::Atanh},
    {"exp2", IntrinsicId::Exp2},     {"cbrt", IntrinsicId::Cbrt},
    {"rint", IntrinsicId::Rint},     {"floor", IntrinsicId::Floor},
    {"ceil", IntrinsicId::Ceil},     {"trunc", IntrinsicId::Trunc},
};
struct BinaryMath {
  const char *name;
  IntrinsicId id;
};
const BinaryMath kMathBinary[] = {
    {"atan2", IntrinsicId::Atan2},        {"pow", IntrinsicId::Pow},
    {"hypot", IntrinsicId::Hypot},        {"copysign", IntrinsicId::Copysign},
    {"fmod", IntrinsicId::Fmod},          {"arctan2", IntrinsicId::Atan2},
    {"power", IntrinsicId::Pow},          {"remainder", IntrinsicId::Remainder},
    {"nextafter", IntrinsicId::Nextafter}};

// The operator module: functions of two operands as the operators (the
// in-place spellings too: on numbers they are the same), comparisons, and
// functions of one operand.
struct OperatorFn {
  const char *name;
  ast::BinaryOp op;
};
const OperatorFn kOperatorBinary[] = {
    {"add", ast::BinaryOp::Add},           {"sub", ast::BinaryOp::Sub},
    {"mul", ast::BinaryOp::Mul},           {"truediv", ast::BinaryOp::Div},
    {"floordiv", ast::BinaryOp::FloorDiv}, {"mod", ast::BinaryOp::Mod},
    {"pow", ast::BinaryOp::Pow},           {"lshift", ast::BinaryOp::LShift},
    {"rshift", ast::BinaryOp::RShift},     {"and_", ast::BinaryOp::BitAnd},
    {"or_", ast::BinaryOp::BitOr},         {"xor", ast::BinaryOp::BitXor}};
struct OperatorCmp {
  const char *name;
  ast::CmpOp op;
};
const OperatorCmp kOperatorCompare[] = {{"lt", ast::CmpOp::Lt},  {"le", ast::CmpOp::Le},
                                        {"gt", ast::CmpOp::Gt},  {"ge", ast::CmpOp::Ge},
                                        {"eq", ast::CmpOp::Eq},  {"ne", ast::CmpOp::Ne},
                                        {"is_", ast::CmpOp::Is}, {"is_not", ast::CmpOp::IsNot}};
struct OperatorUnary {
  const char *name;
  ast::UnaryOp op;
};
const OperatorUnary kOperatorUnary[] = {{"neg", ast::UnaryOp::Neg},
                                        {"pos", ast::UnaryOp::Pos},
                                        {"invert", ast::UnaryOp::Invert},
                                        {"inv", ast::UnaryOp::Invert},
                                        {"not_", ast::UnaryOp::Not}};

template <class Table>
const auto *findIn(const Table &t, const std::string &name) {
  for (const auto &e : t)
    if (name == e.name) return &e;
  return static_cast<decltype(&t[0])>(nullptr);
}

}  // namespace

const Expr *promotedFloat32(const Expr *e) {
  if (!e || !e->type || !e->type->isFloat() || e->type->bits() != 64) return nullptr;
  if (auto *c = dyn_cast<Cast>(e)) {
    const Type *from = c->value->type;
    return from && from->isFloat() && from->bits() == 32 ? c->value : nullptr;
  }
  if (auto *b = dyn_cast<Binary>(e)) {
    if (const Expr *x = promotedFloat32(b->lhs)) return x;
    return promotedFloat32(b->rhs);
  }
  if (auto *u = dyn_cast<Unary>(e)) return promotedFloat32(u->operand);
  return nullptr;
}

std::optional<GlobalValue> builtinGlobal(const std::string &name) {
  for (const char *b : kBuiltinFunctions)
    if (name == b) return fnValue("builtins." + name);
  for (const char *e : kExceptions) {
    if (name == e) {
      GlobalValue g;
      g.kind = GlobalValue::Kind::ExceptionClass;
      g.name = name;
      return g;
    }
  }
  return std::nullopt;
}

namespace {
GlobalValue moduleValue(const std::string &name) {
  GlobalValue g;
  g.kind = GlobalValue::Kind::Module;
  g.name = name;
  return g;
}

// `module.attr` as the library's function `prefix + attr`
// (compiler/lib/numpy_lib.py), or nullopt: a name with a leading underscore
// is the library's own helper, not the module's.
std::optional<GlobalValue> libraryValue(const std::string &module, const std::string &prefix,
                                        const std::string &attr) {
  if (attr.empty() || attr[0] == '_') return std::nullopt;
  std::shared_ptr<FunctionSource> fn = numpyLibFunction(prefix + attr);
  if (!fn) return std::nullopt;
  GlobalValue g;
  g.kind = GlobalValue::Kind::JitFunction;
  g.name = module + "." + attr;
  g.fn = std::move(fn);
  return g;
}
}  // namespace

std::optional<GlobalValue> moduleAttribute(const std::string &module, const std::string &attr) {
  if (module == "math" || module == "cmath" || module == "numpy") {
    if (attr == "pi") return floatValue(M_PI);
    if (attr == "e") return floatValue(M_E);
    if (attr == "tau" && module != "numpy") return floatValue(2 * M_PI);
    if (attr == "inf") return floatValue(INFINITY);
    if (attr == "nan") return floatValue(NAN);
  }
  if (module == "operator") {
    std::string base = attr.size() > 1 && attr[0] == 'i' && findIn(kOperatorBinary, attr.substr(1))
                           ? attr.substr(1)
                           : attr;
    if (findIn(kOperatorBinary, base) || findIn(kOperatorCompare, attr) ||
        findIn(kOperatorUnary, attr) || attr == "abs" || attr == "truth")
      return fnValue("operator." + attr);
    return std::nullopt;
  }
  if (module == "math") {
    static const char *const fns[] = {"floor",    "ceil",    "trunc",   "isnan",     "isinf",
                                      "isfinite", "degrees", "radians", "copysign",  "fmod",
                                      "atan2",    "pow",     "hypot",   "remainder", "ldexp",
                                      "frexp",    "exp2",    "cbrt",    "nextafter", "modf"};
    if (findIn(kMathUnary, attr)) return fnValue("math." + attr);
    for (const char *f : fns)
      if (attr == f) return fnValue("math." + attr);
    return std::nullopt;
  }
  if (module == "cmath") {
    static const char *const fns[] = {"sqrt", "exp",   "log",   "log10",    "phase", "polar",
                                      "rect", "isnan", "isinf", "isfinite", "cos",   "cosh",
                                      "sin",  "sinh",  "tan",   "tanh",     "acos",  "acosh",
                                      "asin", "asinh", "atan",  "atanh"};
    for (const char *f : fns)
      if (attr == f) return fnValue("cmath." + attr);
    return std::nullopt;
  }
  if (module == "numpy") {
    if (std::string name = canonicalScalarName(attr); !name.empty() && attr != "bool") {
      GlobalValue g;
      g.kind = GlobalValue::Kind::Dtype;
      g.name = name;
      return g;
    }
    static const char *const fns[] = {"empty",         "zeros",
                                      "ones",          "empty_like",
                                      "zeros_like",    "ones_like",
                                      "full",          "arange",
                                      "sum",           "prod",
                                      "min",           "max",
                                      "amin",          "amax",
                                      "mean",          "abs",
                                      "absolute",      "fabs",
                                      "isnan",         "isinf",
                                      "isfinite",      "minimum",
                                      "maximum",       "fmin",
                                      "fmax",          "sign",
                                      "square",        "negative",
                                      "hypot",         "copysign",
                                      "fmod",          "arctan2",
                                      "power",         "round",
                                      "around",        "deg2rad",
                                      "rad2deg",       "degrees",
                                      "radians",       "copy",
                                      "real",          "imag",
                                      "conj",          "all",
                                      "any",           "count_nonzero",
                                      "nansum",        "nanprod",
                                      "nanmin",        "nanmax",
                                      "nanmean",       "var",
                                      "std",           "positive",
                                      "invert",        "bitwise_not",
                                      "bitwise_and",   "bitwise_or",
                                      "bitwise_xor",   "left_shift",
                                      "right_shift",   "equal",
                                      "not_equal",     "less",
                                      "less_equal",    "greater",
                                      "greater_equal", "logical_and",
                                      "logical_or",    "logical_xor",
                                      "logical_not",   "add",
                                      "subtract",      "multiply",
                                      "conjugate",     "nextafter",
                                      "true_divide",   "divide",
                                      "floor_divide",  "remainder",
                                      "mod",           "where",
                                      "array",         "asarray",
                                      "ravel",         "ascontiguousarray"};
    if (findIn(kMathUnary, attr) || findIn(kNumpyUnary, attr)) return fnValue("numpy." + attr);
    for (const char *f : fns)
      if (attr == f) return fnValue("numpy." + attr);
    if (attr == "newaxis") return GlobalValue{};  // None
    if (isListPrimitive(attr)) return fnValue("numpy." + attr);
    if (attr == "linalg" || attr == "random") return moduleValue("numpy." + attr);
    // The functions kjit writes in its own language (compiler/lib/numpy_lib.py).
    return libraryValue(module, "", attr);
  }
  if (module == "numpy.linalg") {
    // LAPACK's entries (_lapack, _gemm) and the error class are builtins;
    // the rest is the library's linalg_<name>.
    if (attr == "_lapack" || attr == "_gemm") return fnValue("numpy.linalg." + attr);
    if (attr == "LinAlgError") {
      GlobalValue g;
      g.kind = GlobalValue::Kind::ExceptionClass;
      g.name = "numpy.linalg.LinAlgError";
      return g;
    }
    return libraryValue(module, "linalg_", attr);
  }
  if (module == "numpy.random") {
    // seed and the generator's primitives (_bits, _double, _gauss) are
    // builtins; the rest is the library's random_<name>.
    if (attr == "seed" || attr == "_bits" || attr == "_double" || attr == "_gauss")
      return fnValue("numpy.random." + attr);
    return libraryValue(module, "random_", attr);
  }
  if (module == "kjit.cuda") {
    static const char *const namespaces[] = {"threadIdx", "blockIdx", "blockDim", "gridDim",
                                             "shared",    "local",    "const",    "atomic",
                                             "fp16",      "cg"};
    for (const char *n : namespaces) {
      if (attr == n) {
        GlobalValue g;
        g.kind = GlobalValue::Kind::Module;
        g.name = "kjit.cuda." + attr;
        return g;
      }
    }
    return fnValue("kjit.cuda." + attr);  // checked when called
  }
  if (module.rfind("kjit.cuda.", 0) == 0) return fnValue(module + "." + attr);
  if (module == "kjit.types") {  // numba.types: scalar types, unicode_type
    std::string name = attr == "unicode_type" ? attr : canonicalScalarName(attr);
    if (name.empty()) return std::nullopt;
    GlobalValue g;
    g.kind = GlobalValue::Kind::Dtype;
    g.name = name;
    return g;
  }
  if (module == "kjit" || module == "numba") {
    if (attr == "prange" || attr == "literal_unroll") return fnValue(module + "." + attr);
    if (std::string name = canonicalScalarName(attr); !name.empty()) {
      GlobalValue g;
      g.kind = GlobalValue::Kind::Dtype;
      g.name = name;
      return g;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------

namespace {

class CallTyper {
 public:
  CallTyper(TyperServices &ts, CallSite &site)
      : ts(ts), tc(ts.context().types), ir(ts.context().ir), site(site), loc(site.loc) {}
  TyperServices &ts;
  TypeContext &tc;
  ir::Builder &ir;
  CallSite &site;
  SourceLoc loc;

  Expr *fail(std::string msg) { return ts.error(DiagCategory::Typing, loc, std::move(msg)); }
  Expr *unsupported(std::string msg) {
    return ts.error(DiagCategory::Unsupported, loc, std::move(msg));
  }

  bool arity(const std::string &fname, size_t lo, size_t hi) {
    if (site.args.size() >= lo && site.args.size() <= hi) return true;
    if (lo == hi)
      fail(fmt::format("{}() takes {} argument{} ({} given)", fname, lo, lo == 1 ? "" : "s",
                       site.args.size()));
    else
      fail(
          fmt::format("{}() takes {} to {} arguments ({} given)", fname, lo, hi, site.args.size()));
    return false;
  }
  bool noKeywords(const std::string &fname) {
    if (site.kwargs.empty()) return true;
    fail(fmt::format("{}() got an unexpected keyword argument '{}'", fname, site.kwargs[0].first));
    return false;
  }
  Expr *keyword(const std::string &name) {
    for (auto &[k, v] : site.kwargs)
      if (k == name) return v;
    return nullptr;
  }
  bool onlyKeywords(const std::string &fname, std::initializer_list<const char *> allowed) {
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
  const Type *mathFloat(const Type *t) {
    if (t->isFloat() && t->bits() <= 32) return tc.floatTy(32);
    return tc.float64();
  }

  Expr *needNumber(Expr *e, const std::string &fname) {
    if (e->type->isNumber()) return e;
    if (e->type->isEnumMember() && e->type->isIntEnum()) return ts.convert(e, e->type->dtype());
    return ts.error(DiagCategory::Typing, e->loc,
                    fmt::format("{}() does not accept {}", fname, e->type->str()));
  }

  // On the GPU, float64 math is slow: say so when float32 data got there by
  // promotion.
  void warnIfPromoted(Expr *x, const std::string &fname) {
    if (!ts.cudaTarget() || !promotedFloat32(x)) return;
    ts.performanceWarning(x->loc,
                          fmt::format("{}() computes in float64 here: a float32 value is promoted "
                                      "to float64 by NumPy's rules (float32 with an int64 or "
                                      "float64 operand); convert that operand with float32() to "
                                      "stay in single precision",
                                      fname));
  }

  Expr *mathUnary(IntrinsicId id, const std::string &fname, Expr *x) {
    if (!needNumber(x, fname)->type) return x;
    warnIfPromoted(x, fname);
    if (x->type->isComplex())
      return unsupported(fmt::format("{}() of a complex number: use cmath", fname));
    const Type *t = mathFloat(x->type);
    return ts.intrinsic(id, {ts.convert(x, t)}, t, loc);
  }
  Expr *mathBinary(IntrinsicId id, const std::string &fname, Expr *x, Expr *y) {
    if (!needNumber(x, fname)->type || !needNumber(y, fname)->type) return x;
    warnIfPromoted(x, fname);
    warnIfPromoted(y, fname);
    const Type *t = promoteNumeric(tc, mathFloat(x->type), mathFloat(y->type));
    return ts.intrinsic(id, {ts.convert(x, t), ts.convert(y, t)}, t, loc);
  }

  // min/max of scalars, or of one array.
  Expr *minMax(bool isMax, const std::string &fname) {
    if (site.args.empty())
      return fail(fmt::format("{} expected at least 1 argument, got 0", fname));
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
  bool shapeDims(Expr *shape, std::vector<Expr *> &dims) {
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

  const Type *dtypeArg(Expr *d, const Type *dflt) {
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
    ts.error(DiagCategory::Typing, d->loc,
             fmt::format("dtype must be a NumPy or kjit type such as np.float32, not {}",
                         d->type->str()));
    return nullptr;
  }

  Expr *allocate(const std::string &fname, Expr *shape, Expr *dtypeExpr, const Type *dflt, int fill,
                 Expr *fillValue = nullptr) {
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

  Expr *likeShape(Expr *a) {
    std::vector<Expr *> elems;
    for (unsigned d = 0; d < a->type->ndim(); ++d)
      elems.push_back(
          ts.intrinsic(IntrinsicId::ArrayShape, {a, ts.constInt(d, loc)}, tc.int64(), loc));
    return ir.tupleMake(std::move(elems), loc);
  }

  // The reductions whose value for a lone number is that number.
  static bool reducesScalar(const std::string &which) {
    for (const char *r : {"sum", "prod", "min", "max", "amin", "amax", "mean", "nansum", "nanprod",
                          "nanmin", "nanmax", "nanmean"})
      if (which == r) return true;
    return false;
  }
  // The reductions of NumPy's that kernels have: np.NAME(a) (and a.NAME()
  // where arrays have the method).
  static bool isReduction(const std::string &f) {
    return reducesScalar(f) || f == "all" || f == "any" || f == "count_nonzero" || f == "var" ||
           f == "std";
  }

  // a.sum(axis=1), np.mean(a, 0) ...: the library's loops over the other
  // axes (compiler/lib/numpy_lib.py: _reduce2, _reduce3); on the CPU.
  Expr *reductionAlong(const std::string &which, Expr *a, Expr *axis) {
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

  Expr *reduction(const std::string &which, Expr *a) {
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
      return ts.convert(ts.binary(ast::BinaryOp::Div, sum,
                                  ts.convert(n, ft->isComplex() ? tc.float64() : ft), loc),
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
  Expr *conjugateOf(Expr *x) {
    if (!x->type->isComplex()) return x;
    const Type *p = x->type->complexPart();
    Expr *re = ts.intrinsic(IntrinsicId::Real, {x}, p, loc);
    Expr *im = ts.intrinsic(IntrinsicId::Imag, {x}, p, loc);
    Expr *negIm = ts.unaryOp(ast::UnaryOp::Neg, im, loc);
    return ts.intrinsic(IntrinsicId::ComplexMake, {re, ts.convert(negIm, p)}, x->type, loc);
  }

  // NumPy's order of complex numbers: by real part, then imaginary part.
  Expr *complexCompare(ast::CmpOp op, Expr *x, Expr *y) {
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

  Expr *isNanValue(Expr *x) {
    if (x->type->isFloat()) return ts.intrinsic(IntrinsicId::IsNan, {x}, tc.boolean(), loc);
    const Type *p = x->type->complexPart();
    return ts.binary(
        ast::BinaryOp::BitOr,
        ts.intrinsic(IntrinsicId::IsNan, {ts.intrinsic(IntrinsicId::Real, {x}, p, loc)},
                     tc.boolean(), loc),
        ts.intrinsic(IntrinsicId::IsNan, {ts.intrinsic(IntrinsicId::Imag, {x}, p, loc)},
                     tc.boolean(), loc),
        loc);
  }

  // np.maximum/np.minimum propagate a NaN from either operand; np.fmax/np.fmin
  // return the other operand. Complex numbers order as NumPy's.
  Expr *numpyMinMax(const std::string &f) {
    std::string name = "np." + f;
    if (!arity(name, 2, 2)) return ts.constOf(nullptr, loc);
    Expr *x = needNumber(site.args[0], name), *y = needNumber(site.args[1], name);
    if (!x->type || !y->type) return ts.constOf(nullptr, loc);
    bool isMax = f == "maximum" || f == "fmax", propagate = f == "maximum" || f == "minimum";
    const Type *t = promoteNumeric(tc, x->type, y->type);
    x = ts.convert(x, t);
    y = ts.convert(y, t);
    if (t->isComplex()) {
      Expr *xn = isNanValue(x), *yn = isNanValue(y);
      Expr *better = complexCompare(isMax ? ast::CmpOp::Ge : ast::CmpOp::Le, x, y);
      Expr *pickX = propagate
                        ? ts.binary(ast::BinaryOp::BitOr, xn,
                                    ts.binary(ast::BinaryOp::BitAnd,
                                              ts.unaryOp(ast::UnaryOp::Not, yn, loc), better, loc),
                                    loc)
                        : ts.binary(ast::BinaryOp::BitOr, yn,
                                    ts.binary(ast::BinaryOp::BitAnd,
                                              ts.unaryOp(ast::UnaryOp::Not, xn, loc), better, loc),
                                    loc);
      return ts.select(pickX, x, y, loc);
    }
    // Min/Max keep x unless y is strictly better: a NaN x stays.
    Expr *m = ts.intrinsic(isMax ? IntrinsicId::Max : IntrinsicId::Min, {x, y}, t, loc);
    if (!t->isFloat()) return m;
    if (propagate) return ts.select(isNanValue(y), y, m, loc);
    return ts.select(isNanValue(x), y, m, loc);
  }

  // NumPy's scalar ufuncs beyond math's: operators, comparisons, logic,
  // NumPy's min/max, and the complex forms of the math functions. Null when
  // `f` is none of them.
  Expr *numpyScalarUfunc(const std::string &f) {
    auto &a = site.args;
    std::string name = "np." + f;
    static const OperatorFn kBinary[] = {{"add", ast::BinaryOp::Add},
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
    static const OperatorCmp kCompare[] = {
        {"equal", ast::CmpOp::Eq},   {"not_equal", ast::CmpOp::Ne},
        {"less", ast::CmpOp::Lt},    {"less_equal", ast::CmpOp::Le},
        {"greater", ast::CmpOp::Gt}, {"greater_equal", ast::CmpOp::Ge}};
    static const char *const kComplexMath[][2] = {
        {"sin", "sin"},     {"cos", "cos"},       {"tan", "tan"},       {"sinh", "sinh"},
        {"cosh", "cosh"},   {"tanh", "tanh"},     {"arcsin", "asin"},   {"arccos", "acos"},
        {"arctan", "atan"}, {"arcsinh", "asinh"}, {"arccosh", "acosh"}, {"arctanh", "atanh"},
        {"exp", "exp"},     {"log", "log"},       {"log10", "log10"},   {"sqrt", "sqrt"}};
    auto numbers = [&](size_t n) {
      if (!arity(name, n, n)) return false;
      for (Expr *x : a)
        if (!needNumber(x, name)->type) return false;
      return true;
    };
    if (const OperatorFn *b = findIn(kBinary, f)) {
      if (!numbers(2)) return ts.constOf(nullptr, loc);
      if (b->op == ast::BinaryOp::BitAnd || b->op == ast::BinaryOp::BitOr ||
          b->op == ast::BinaryOp::BitXor || b->op == ast::BinaryOp::LShift ||
          b->op == ast::BinaryOp::RShift)
        for (Expr *x : a)
          if (!x->type->isInt() && !x->type->isBool())
            return ts.error(
                DiagCategory::Typing, x->loc,
                fmt::format("{}() takes integers or booleans, not {}", name, x->type->str()));
      Expr *x = a[0]->type->isEnumMember() ? ts.convert(a[0], a[0]->type->dtype()) : a[0];
      Expr *y = a[1]->type->isEnumMember() ? ts.convert(a[1], a[1]->type->dtype()) : a[1];
      return ts.binary(b->op, x, y, loc);
    }
    if (const OperatorCmp *c = findIn(kCompare, f)) {
      if (!numbers(2)) return ts.constOf(nullptr, loc);
      Expr *x = needNumber(a[0], name), *y = needNumber(a[1], name);
      if (x->type->isComplex() || y->type->isComplex()) return complexCompare(c->op, x, y);
      return ts.compare(c->op, x, y, loc);
    }
    if (f == "logical_and" || f == "logical_or" || f == "logical_xor") {
      if (!numbers(2)) return ts.constOf(nullptr, loc);
      Expr *x = ts.truth(a[0]), *y = ts.truth(a[1]);
      if (f == "logical_xor") return ts.compare(ast::CmpOp::Ne, x, y, loc);
      return ts.binary(f == "logical_and" ? ast::BinaryOp::BitAnd : ast::BinaryOp::BitOr, x, y,
                       loc);
    }
    if (f == "logical_not") {
      if (!numbers(1)) return ts.constOf(nullptr, loc);
      return ts.unaryOp(ast::UnaryOp::Not, ts.truth(a[0]), loc);
    }
    if (f == "invert" || f == "bitwise_not") {
      if (!numbers(1)) return ts.constOf(nullptr, loc);
      Expr *x = needNumber(a[0], name);
      if (x->type->isBool()) return ts.unaryOp(ast::UnaryOp::Not, x, loc);
      if (!x->type->isInt())
        return fail(fmt::format("{}() takes integers or booleans, not {}", name, x->type->str()));
      return ts.unaryOp(ast::UnaryOp::Invert, x, loc);
    }
    if (f == "positive") {
      if (!numbers(1)) return ts.constOf(nullptr, loc);
      return needNumber(a[0], name);
    }
    if (f == "conj" || f == "conjugate") {
      if (!numbers(1)) return ts.constOf(nullptr, loc);
      return conjugateOf(needNumber(a[0], name));
    }
    if (f == "minimum" || f == "maximum" || f == "fmin" || f == "fmax") return numpyMinMax(f);
    if (a.size() == 1 && a[0]->type->isComplex()) {
      for (const auto &m : kComplexMath)
        if (f == m[0]) return cmath(m[1]);
      if (f == "log2") {
        // log(z) / log(2), part by part (a complex product would make
        // NaNs of the infinities log(0) has).
        Expr *l = cmath("log");
        if (!l->type) return l;
        const Type *p = l->type->complexPart();
        Expr *k = ts.convert(ts.constFloat(1.0 / M_LN2, loc), p);
        auto part = [&](IntrinsicId id) {
          return ts.convert(ts.binary(ast::BinaryOp::Mul, ts.intrinsic(id, {l}, p, loc), k, loc),
                            p);
        };
        return ts.intrinsic(IntrinsicId::ComplexMake,
                            {part(IntrinsicId::Real), part(IntrinsicId::Imag)}, l->type, loc);
      }
    }
    return nullptr;
  }

  // NumPy's ufuncs that kernels have, by their number of inputs (0: not one).
  static unsigned ufuncInputs(const std::string &f) {
    static const char *const unary[] = {
        "abs",    "absolute",    "fabs",        "isnan",   "isinf",    "isfinite", "sign",
        "square", "negative",    "positive",    "deg2rad", "rad2deg",  "degrees",  "radians",
        "invert", "bitwise_not", "logical_not", "conj",    "conjugate"};
    static const char *const binary[] = {
        "arctan2",     "hypot",       "copysign",    "fmod",        "power",         "minimum",
        "maximum",     "fmin",        "fmax",        "add",         "subtract",      "multiply",
        "bitwise_and", "bitwise_or",  "bitwise_xor", "left_shift",  "right_shift",   "equal",
        "not_equal",   "less",        "less_equal",  "greater",     "greater_equal", "logical_and",
        "logical_or",  "logical_xor", "nextafter",   "true_divide", "divide",        "floor_divide",
        "remainder",   "mod"};
    if (f == "erf" || f == "erfc" || f == "gamma" || f == "lgamma") return 0;
    if (findIn(kMathUnary, f) || findIn(kNumpyUnary, f)) return 1;
    for (const char *u : unary)
      if (f == u) return 1;
    for (const char *b : binary)
      if (f == b) return 2;
    return 0;
  }

  // a.astype(dt): a new array of a's elements converted to dt.
  Expr *astype(Expr *x, const Type *dt) {
    if (ts.cudaTarget()) return unsupported("astype() allocates memory, which kernels cannot do");
    if (!dt->isNumber())
      return unsupported(fmt::format("astype() to {} is not supported", dt->str()));
    std::string text = npName(dt) + "({0})";
    return arrayOperation(
        ts, UfuncKind::Predicate, text, {x},
        [&](std::vector<Expr *> e) { return dt->isBool() ? ts.truth(e[0]) : ts.convert(e[0], dt); },
        loc);
  }

  // How NumPy (as Numba) picks the loop of ufunc `f` (ArrayExprs.h).
  static UfuncKind ufuncKind(const std::string &f) {
    static const char *const predicate[] = {
        "isnan", "isinf", "isfinite", "logical_not", "logical_and", "logical_or", "logical_xor"};
    static const char *const compare[] = {"equal",      "not_equal", "less",
                                          "less_equal", "greater",   "greater_equal"};
    static const char *const floats[] = {"true_divide", "divide",    "arctan2", "hypot",
                                         "copysign",    "nextafter", "deg2rad", "rad2deg",
                                         "degrees",     "radians",   "fabs"};
    for (const char *n : predicate)
      if (f == n) return UfuncKind::Predicate;
    for (const char *n : compare)
      if (f == n) return UfuncKind::Compare;
    for (const char *n : floats)
      if (f == n) return UfuncKind::FloatMath;
    if (f == "abs" || f == "absolute") return UfuncKind::Absolute;
    if (findIn(kMathUnary, f) || findIn(kNumpyUnary, f)) return UfuncKind::FloatMath;
    return UfuncKind::Arithmetic;
  }

  // np.sqrt(a), np.add(a, 2.0), np.sin(a, out=b) on the CPU: an array
  // expression (ArrayExprs.h), fused with its operands'.
  // The inputs and the output (`out=` or one argument past the inputs, or
  // null) of ufunc `name`; false after an error.
  bool ufuncOperands(const std::string &name, unsigned nin, std::vector<Expr *> &in, Expr *&out) {
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

  Expr *ufuncArrayExpr(const std::string &f, unsigned nin) {
    std::string name = "np." + f;
    std::vector<Expr *> in;
    Expr *out = nullptr;
    if (!ufuncOperands(name, nin, in, out)) return ts.constOf(nullptr, loc);
    std::string text = name + "(";
    for (unsigned k = 0; k < nin; ++k) text += fmt::format("{}{{{}}}", k ? ", " : "", k);
    text += ")";
    return arrayOperation(
        ts, ufuncKind(f), text, in,
        [&](std::vector<Expr *> e) {
          CallSite one = site;
          one.args = std::move(e);
          one.kwargs.clear();
          CallTyper element(ts, one);
          return element.numpy(f);
        },
        loc, out);
  }

  // np.sin(a, out), np.add(a, b, out=c), and on the CPU np.sin(a): a loop
  // (UfuncSource.cpp) that broadcasts the operands and applies the scalar
  // ufunc to each element.
  Expr *ufuncOnArrays(const std::string &f, unsigned nin) {
    std::string name = "np." + f;
    std::vector<Expr *> in;
    Expr *out = nullptr;
    if (!ufuncOperands(name, nin, in, out)) return ts.constOf(nullptr, loc);
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
    CallTyper element(ts, one);
    Expr *probe = element.numpy(f);
    if (!probe || !probe->type) return ts.constOf(nullptr, loc);
    if (out) {
      if (out->type->ndim() == 0)
        return ts.error(DiagCategory::Unsupported, out->loc,
                        fmt::format("{}() into a 0-d array is not supported yet", name));
      if (out->type->ndim() < nd)
        return ts.error(
            DiagCategory::Typing, out->loc,
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
    Expr *r = ts.callFunction(ufuncLoopFunction(spec), std::move(args), loc);
    return r ? r : ts.constOf(nullptr, loc);
  }

  // A call of the library's function `name` (compiler/lib/numpy_lib.py).
  Expr *library(const std::string &name, std::vector<Expr *> args) {
    Expr *r = ts.callFunction(numpyLibFunction(name), std::move(args), loc);
    return r ? r : ts.constOf(nullptr, loc);
  }
  Expr *boolConst(bool v) {
    ir::Const *k = ts.constOf(tc.boolean(), loc);
    k->i = v;
    return k;
  }
  Expr *builtin(const std::string &f);
  Expr *operatorFn(const std::string &f);
  Expr *math(const std::string &f);
  Expr *cmath(const std::string &f);
  Expr *numpy(const std::string &f);
  Expr *arrayMethod(const std::string &f);
};

Expr *CallTyper::builtin(const std::string &f) {
  auto &a = site.args;
  if (f == "print") {
    if (!onlyKeywords(f, {})) return ts.constOf(nullptr, loc);
    // Tuples (and cuda.threadIdx and the other dim3 values) print as
    // Python prints them: their elements become items of their own, with
    // the punctuation as string pieces; Intrinsic::text says which item
    // follows a space (' ') and which is glued to the one before ('.').
    std::vector<Expr *> items;
    std::string glue;
    std::function<bool(Expr *, bool)> add = [&](Expr *x, bool spaced) -> bool {
      auto piece = [&](const char *text, bool sp) {
        items.push_back(ts.constOf(tc.stringLit(text), x->loc));
        glue += sp ? ' ' : '.';
      };
      if (x->type->kind() == TypeKind::Module) {
        for (const Dim3Namespace &d : dim3Namespaces()) {
          if (x->type->symbol() != d.name || !ts.cudaTarget()) continue;
          std::vector<Expr *> xyz;
          for (int axis = 0; axis < 3; ++axis)
            xyz.push_back(
                ts.intrinsic(d.id, {ts.constInt(axis, x->loc)}, tc.intTy(32, true), x->loc));
          return add(ir.tupleMake(std::move(xyz), x->loc), spaced);
        }
      }
      if (x->type->isTuple() && x->type->fieldNames().empty()) {
        std::function<bool(const Expr *)> reread = [&](const Expr *e) {
          if (isa<VarRef>(e) || isa<Const>(e)) return true;
          if (auto *g = dyn_cast<TupleGet>(e)) return !g->dynIndex && reread(g->tuple);
          return false;
        };
        if (!isa<TupleMake>(x) && !reread(x)) {
          ts.error(DiagCategory::Unsupported, x->loc,
                   "print() of a tuple in kernels takes a variable or a tuple display; assign the "
                   "value to a variable first");
          return false;
        }
        size_t n = x->type->elements().size();
        piece("(", spaced);
        for (size_t i = 0; i < n; ++i) {
          if (i > 0) piece(",", false);
          Expr *e = isa<TupleMake>(x) ? cast<TupleMake>(x)->elems[i]
                                      : static_cast<Expr *>(ir.tupleGet(x, unsigned(i), x->loc));
          if (!add(e, i > 0)) return false;
        }
        piece(n == 1 ? ",)" : ")", false);
        return true;
      }
      if (!x->type->isNumber() && x->type->kind() != TypeKind::StringLit && !x->type->isNone() &&
          !(x->type->isString() && !ts.cudaTarget())) {
        ts.error(DiagCategory::Unsupported, x->loc,
                 fmt::format("print() in kernels takes numbers, constant strings and tuples of "
                             "them, not {}",
                             x->type->str()));
        return false;
      }
      items.push_back(x);
      glue += spaced ? ' ' : '.';
      return true;
    };
    for (size_t i = 0; i < a.size(); ++i)
      if (!add(a[i], i > 0)) return ts.constOf(nullptr, loc);
    size_t values = 0;
    for (Expr *x : items) values += x->type->isComplex() ? 2 : x->type->isNumber() ? 1 : 0;
    if (ts.cudaTarget() && values > 32)  // LoweringImpl.h's kMaxPrintfValues
      ts.performanceWarning(loc,
                            "CUDA print() cannot print more than 32 items. The raw format "
                            "string will be emitted by the kernel instead.");
    bool plain = glue.find('.') == std::string::npos;
    Intrinsic *in = ts.intrinsic(IntrinsicId::Print, std::move(items), tc.none(), loc);
    if (!plain) in->text = glue;
    return in;
  }
  if (f == "sum" || f == "sorted" || f == "list" || f == "any" || f == "all") {
    // Over a list, an array (its first axis) or a tuple of one element
    // type: the builtins library's loops (compiler/lib/builtins_lib.py).
    if (ts.cudaTarget() && f != "sum" && f != "any" && f != "all")
      return unsupported(fmt::format("{}() makes a list, which kernels cannot", f));
    if (f == "list" && a.empty() && site.kwargs.empty())
      return ts.intrinsic(IntrinsicId::ListNew, {ts.constInt(0, loc)}, tc.list(nullptr), loc);
    if (f == "sorted" ? !onlyKeywords(f, {"reverse", "key"}) : !noKeywords(f))
      return ts.constOf(nullptr, loc);
    if (!arity(f, 1, f == "sum" ? 2 : 1)) return ts.constOf(nullptr, loc);
    const Type *t = a[0]->type;
    if (!t->isList() && !t->isArray() && !t->isHomogeneousTuple() && !t->isDict() &&
        !t->isString() && !(t->isTuple() && t->elements().empty()))
      return fail(
          fmt::format("{}() of {} is not supported; it takes a list, an array, a set, a dict "
                      "or a tuple of one element type",
                      f, t->str()));
    std::vector<Expr *> args = a;
    Expr *key = f == "sorted" ? keyword("key") : nullptr;
    if (key && key->type->isNone()) key = nullptr;  // key=None: the elements themselves
    if (key) args.push_back(key);
    if (f == "sorted")
      if (Expr *r = keyword("reverse")) args.push_back(r);
    return library(key ? "_builtin_sorted_key" : "_builtin_" + f, std::move(args));
  }
  if (!noKeywords(f)) return ts.constOf(nullptr, loc);
  if (f == "range" || f == "enumerate" || f == "zip")
    return unsupported(f + "() can only be used as the iterable of a for loop in kernels");
  if (f == "tuple") {
    // tuple(t) of a tuple: its elements (a named tuple's too); tuple(): ().
    if (!arity(f, 0, 1)) return ts.constOf(nullptr, loc);
    if (a.empty()) return ir.tupleMake({}, loc);
    if (!a[0]->type->isTuple())
      return unsupported(fmt::format(
          "tuple() of {} is not supported in kernels; tuple() takes a tuple", a[0]->type->str()));
    if (a[0]->type->fieldNames().empty()) return a[0];
    std::vector<Expr *> elems;
    for (unsigned i = 0; i < a[0]->type->elements().size(); ++i)
      elems.push_back(ir.tupleGet(a[0], i, loc));
    return ir.tupleMake(std::move(elems), loc);
  }
  if (f == "len") {
    if (!arity(f, 1, 1)) return ts.constOf(nullptr, loc);
    if (a[0]->type->isList() || a[0]->type->isString())
      return ts.intrinsic(IntrinsicId::ListLen, {a[0]}, tc.int64(), loc);
    if (a[0]->type->isSet()) return library("_set_len", {a[0]});
    if (a[0]->type->isDict()) return library("_dict_len", {a[0]});
    if (a[0]->type->isArray())
      return ts.intrinsic(IntrinsicId::ArrayShape, {a[0], ts.constInt(0, loc)}, tc.int64(), loc);
    if (a[0]->type->isTuple()) return ts.constInt(int64_t(a[0]->type->elements().size()), loc);
    if (a[0]->type->kind() == TypeKind::StringLit)
      return ts.constInt(int64_t(a[0]->type->symbol().size()), loc);
    return fail(fmt::format("object of type {} has no len()", a[0]->type->str()));
  }
  if (f == "abs") {
    if (a.size() == 1 && a[0]->type->isArray() && !ts.cudaTarget())
      return arrayOperation(
          ts, UfuncKind::Absolute, "abs({0})", a,
          [&](std::vector<Expr *> e) {
            CallSite one = site;
            one.args = std::move(e);
            CallTyper element(ts, one);
            return element.builtin("abs");
          },
          loc);
    if (!arity(f, 1, 1) || !needNumber(a[0], f)->type) return ts.constOf(nullptr, loc);
    const Type *t = a[0]->type;
    if (t->isComplex()) return ts.intrinsic(IntrinsicId::Abs, {a[0]}, t->complexPart(), loc);
    if (t->isBool()) t = tc.intTy(8);  // Numba's: abs(True) is int8
    return ts.intrinsic(IntrinsicId::Abs, {ts.convert(a[0], t)}, t, loc);
  }
  if (f == "min" || f == "max") return minMax(f == "max", f);
  if (f == "str" || f == "ord" || f == "chr") {
    // Strings: the builtins library's (compiler/lib/builtins_lib.py).
    if (ts.cudaTarget()) return unsupported("strings are not supported in kernels");
    if (!arity(f, 1, 1)) return ts.constOf(nullptr, loc);
    const Type *t = a[0]->type;
    bool text = t->isText();
    if (f == "str") {
      if (text) return ts.convert(a[0], tc.str());
      if (t->isInt() || t->isBool()) return library("_str_from_int", {a[0]});
      return fail(fmt::format("str() of {} is not supported (Numba converts integers)", t->str()));
    }
    if (f == "ord") {
      if (!text)
        return fail(fmt::format("ord() expected string of length 1, but {} found", t->str()));
      return library("_str_ord", {ts.convert(a[0], tc.str())});
    }
    if (!t->isInt() && !t->isBool())
      return fail(fmt::format("chr() takes an integer, not {}", t->str()));
    return library("_str_chr", {ts.convert(a[0], tc.int64())});
  }
  if (f == "isinstance") {
    // Known from the types, as Numba's: isinstance(x, int), (x, float),
    // (x, complex), (x, bool), (x, tuple), (x, np.float32) ...
    if (!arity(f, 2, 2)) return ts.constOf(nullptr, loc);
    const Type *t = a[0]->type, *c = a[1]->type;
    if (c->kind() == TypeKind::Dtype) return boolConst(t == c->dtype());
    if (c->kind() == TypeKind::Function) {
      const std::string &s = c->symbol();
      if (s == "builtins.int") return boolConst(t->isInt() || t->isBool());
      if (s == "builtins.float") return boolConst(t->isFloat());
      if (s == "builtins.complex") return boolConst(t->isComplex());
      if (s == "builtins.bool") return boolConst(t->isBool());
      if (s == "builtins.tuple") return boolConst(t->isTuple());
      if (s == "builtins.str") return boolConst(t->isText());
    }
    return unsupported(fmt::format("isinstance() with {} is not supported in kernels", c->str()));
  }
  if (f == "type") {
    // type(x) of a number: its NumPy scalar type, usable as a dtype.
    if (!arity(f, 1, 1) || !needNumber(a[0], f)->type) return ts.constOf(nullptr, loc);
    return ts.constOf(tc.dtypeOf(a[0]->type), loc);
  }
  if (f == "int" || f == "float" || f == "bool" || f == "complex") {
    if (f == "complex") {
      if (!arity(f, 0, 2)) return ts.constOf(nullptr, loc);
      // Numba's: complex64 from float32 parts, else complex128 (also of a
      // complex64).
      bool single = !a.empty() && std::all_of(a.begin(), a.end(), [](const Expr *x) {
        return x->type && x->type->isFloat() && x->type->bits() == 32;
      });
      const Type *ct = tc.complexTy(single ? 64 : 128);
      if (a.empty()) return ts.convert(ts.constInt(0, loc), ct);
      if (a.size() == 1) return ts.convert(needNumber(a[0], f), ct);
      if (a[0]->type->isComplex() || a[1]->type->isComplex())
        return unsupported("complex() of complex parts");
      const Type *part = ct->complexPart();
      return ts.intrinsic(IntrinsicId::ComplexMake,
                          {ts.convert(a[0], part), ts.convert(a[1], part)}, ct, loc);
    }
    if (!arity(f, 0, 1)) return ts.constOf(nullptr, loc);
    if (a.empty())
      return f == "bool"  ? ts.convert(ts.constInt(0, loc), tc.boolean())
             : f == "int" ? ts.constInt(0, loc)
                          : ts.constFloat(0, loc);
    if (!needNumber(a[0], f)->type) return ts.constOf(nullptr, loc);
    if (a[0]->type->isComplex() && f != "bool")
      return fail(fmt::format("cannot convert complex to {}", f));
    if (f == "bool") return ts.truth(a[0]);
    // Numba's float() and int(): a float keeps its type (float(float32) is
    // float32), an integer its own (int(uint64(2**64 - 1)) is 2**64 - 1).
    if (f == "float" && a[0]->type->isFloat()) return a[0];
    if (f == "int" && a[0]->type->isInt()) return a[0];
    return ts.convert(a[0], f == "int" ? tc.int64() : tc.float64());
  }
  if (f == "round") {
    if (!arity(f, 1, 2) || !needNumber(a[0], f)->type) return ts.constOf(nullptr, loc);
    const Type *t = a[0]->type;
    if (t->isComplex()) return fail("type complex128 doesn't define __round__ method");
    if (a.size() == 1) {
      if (!t->isFloat()) return ts.convert(a[0], tc.int64());
      return ts.convert(ts.intrinsic(IntrinsicId::Rint, {a[0]}, t, loc), tc.int64());
    }
    if (!a[1]->type->isInt()) return fail("round() ndigits must be an integer");
    if (!t->isFloat()) return a[0];
    // round(x, n), Numba's round_ndigits in float64: scale by 10**n (in two
    // factors past 10**22, so that neither overflows), round half to even,
    // unscale; x itself when it is not finite or the scaled value overflows.
    const Type *f64 = tc.float64();
    Expr *x = ts.convert(a[0], f64), *n = ts.convert(a[1], tc.int64());
    auto num = [&](double v) { return ts.constFloat(v, loc); };
    auto cmp = [&](ast::CmpOp op, Expr *l, Expr *r) { return ts.compare(op, l, r, loc); };
    auto bin = [&](ast::BinaryOp op, Expr *l, Expr *r) { return ts.binary(op, l, r, loc); };
    // Numba's @njit rounds the scaled value in the argument's own type (its
    // _round of float32 is rintf): round(float32(2.675), 2) is 2.68, not
    // 2.67. numba-cuda's kernels round the float64 value (0.343 for
    // float32(0.3425) to 3 digits), and so do kjit's on every device.
    auto rint = [&](Expr *v) -> Expr * {
      if (t == f64 || ts.cudaTarget()) return ts.intrinsic(IntrinsicId::Rint, {v}, f64, loc);
      return ts.convert(ts.intrinsic(IntrinsicId::Rint, {ts.convert(v, t)}, t, loc), f64);
    };
    // With a constant n the choices are made here.
    auto *nc = dyn_cast<Const>(n);
    auto pick = [&](Expr *cond, std::optional<bool> known, Expr *a, Expr *b) -> Expr * {
      if (known) return *known ? a : b;
      return ts.select(cond, a, b, loc);
    };
    auto knownIf = [&](bool v) { return nc ? std::optional<bool>(v) : std::nullopt; };
    Expr *nonneg = cmp(ast::CmpOp::Ge, n, ts.constInt(0, loc));
    Expr *big = cmp(ast::CmpOp::Gt, n, ts.constInt(22, loc));
    std::optional<bool> isNonneg = knownIf(nc && nc->i >= 0), isBig = knownIf(nc && nc->i > 22);
    Expr *exp1 = pick(nonneg, isNonneg,
                      pick(big, isBig, bin(ast::BinaryOp::Sub, n, ts.constInt(22, loc)), n),
                      ts.unaryOp(ast::UnaryOp::Neg, n, loc));
    Expr *pow1 = ts.intrinsic(IntrinsicId::Pow, {num(10.0), ts.convert(exp1, f64)}, f64, loc);
    Expr *pow2 = pick(big, isBig, num(1e22), num(1.0));
    Expr *up = bin(ast::BinaryOp::Mul, bin(ast::BinaryOp::Mul, x, pow1), pow2);
    Expr *positive =
        ts.select(ts.intrinsic(IntrinsicId::IsInf, {up}, tc.boolean(), loc), x,
                  bin(ast::BinaryOp::Div, bin(ast::BinaryOp::Div, rint(up), pow2), pow1), loc);
    Expr *negative = bin(ast::BinaryOp::Mul, rint(bin(ast::BinaryOp::Div, x, pow1)), pow1);
    Expr *r = ts.select(ts.intrinsic(IntrinsicId::IsFinite, {x}, tc.boolean(), loc),
                        pick(nonneg, isNonneg, positive, negative), x, loc);
    return ts.convert(r, t);
  }
  if (f == "divmod") {
    if (!arity(f, 2, 2)) return ts.constOf(nullptr, loc);
    Expr *q = ts.binary(ast::BinaryOp::FloorDiv, a[0], a[1], loc);
    Expr *r = ts.binary(ast::BinaryOp::Mod, a[0], a[1], loc);
    if (!q->type || !r->type) return ts.constOf(nullptr, loc);
    return ir.tupleMake({q, r}, loc);
  }
  if (f == "pow") {
    if (!arity(f, 2, 2)) return ts.constOf(nullptr, loc);
    return ts.binary(ast::BinaryOp::Pow, a[0], a[1], loc);
  }
  return unsupported(fmt::format("{}() is not supported in kernels", f));
}

Expr *CallTyper::operatorFn(const std::string &f) {
  auto &a = site.args;
  std::string name = "operator." + f;
  if (!noKeywords(name)) return ts.constOf(nullptr, loc);
  if (f == "abs") return builtin("abs");
  if (const OperatorUnary *u = findIn(kOperatorUnary, f)) {
    if (!arity(name, 1, 1)) return ts.constOf(nullptr, loc);
    return ts.unaryOp(u->op, a[0], loc);
  }
  if (f == "truth") {
    if (!arity(name, 1, 1)) return ts.constOf(nullptr, loc);
    return ts.truth(a[0]);
  }
  if (!arity(name, 2, 2)) return ts.constOf(nullptr, loc);
  if (const OperatorCmp *c = findIn(kOperatorCompare, f)) return ts.compare(c->op, a[0], a[1], loc);
  // iadd and the other in-place spellings: on numbers, the operator.
  const OperatorFn *b = findIn(kOperatorBinary, f);
  if (!b && f.size() > 1 && f[0] == 'i') b = findIn(kOperatorBinary, f.substr(1));
  if (!b) return unsupported(fmt::format("{}() is not supported in kernels", name));
  return ts.binary(b->op, a[0], a[1], loc);
}

Expr *CallTyper::math(const std::string &f) {
  auto &a = site.args;
  if (!noKeywords("math." + f)) return ts.constOf(nullptr, loc);
  std::string name = "math." + f;
  if (const UnaryMath *u = findIn(kMathUnary, f)) {
    if (f == "log" && a.size() == 2) {
      Expr *num = mathUnary(IntrinsicId::Log, name, a[0]);
      Expr *den = mathUnary(IntrinsicId::Log, name, a[1]);
      if (!num->type || !den->type) return ts.constOf(nullptr, loc);
      return ts.binary(ast::BinaryOp::Div, num, den, loc);
    }
    if (!arity(name, 1, 1)) return ts.constOf(nullptr, loc);
    return mathUnary(u->id, name, a[0]);
  }
  if (const BinaryMath *b = findIn(kMathBinary, f)) {
    if (!arity(name, 2, 2)) return ts.constOf(nullptr, loc);
    return mathBinary(b->id, name, a[0], a[1]);
  }
  if (f == "exp2" || f == "cbrt") {  // Python 3.11's
    if (!arity(name, 1, 1)) return ts.constOf(nullptr, loc);
    return mathUnary(findIn(kNumpyUnary, f)->id, name, a[0]);
  }
  if (f == "modf") {
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
  if (f == "ldexp" || f == "frexp") {
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
      return ts.error(
          DiagCategory::Typing, a[1]->loc,
          fmt::format("{}() needs an integer exponent, not {}", name, a[1]->type->str()));
    return ts.intrinsic(IntrinsicId::Ldexp, {x, ts.convert(a[1], tc.intTy(32))}, t, loc);
  }
  if (f == "floor" || f == "ceil" || f == "trunc") {
    if (!arity(name, 1, 1) || !needNumber(a[0], name)->type) return ts.constOf(nullptr, loc);
    if (!a[0]->type->isFloat()) return ts.convert(a[0], tc.int64());
    IntrinsicId id = f == "floor"  ? IntrinsicId::Floor
                     : f == "ceil" ? IntrinsicId::Ceil
                                   : IntrinsicId::Trunc;
    return ts.convert(ts.intrinsic(id, {a[0]}, a[0]->type, loc), tc.int64());
  }
  if (f == "isnan" || f == "isinf" || f == "isfinite") {
    if (!arity(name, 1, 1) || !needNumber(a[0], name)->type) return ts.constOf(nullptr, loc);
    if (!a[0]->type->isFloat()) return ts.convert(ts.constInt(f == "isfinite", loc), tc.boolean());
    IntrinsicId id = f == "isnan"   ? IntrinsicId::IsNan
                     : f == "isinf" ? IntrinsicId::IsInf
                                    : IntrinsicId::IsFinite;
    return ts.intrinsic(id, {a[0]}, tc.boolean(), loc);
  }
  if (f == "degrees" || f == "radians") {
    if (!arity(name, 1, 1) || !needNumber(a[0], name)->type) return ts.constOf(nullptr, loc);
    const Type *t = mathFloat(a[0]->type);
    double k = f == "degrees" ? 180.0 / M_PI : M_PI / 180.0;
    return ts.binary(ast::BinaryOp::Mul, ts.convert(a[0], t), ts.convert(ts.constFloat(k, loc), t),
                     loc);
  }
  return unsupported(fmt::format("math.{}() is not supported in kernels", f));
}

// cmath, built from real and imaginary parts with the float intrinsics.
Expr *CallTyper::cmath(const std::string &f) {
  auto &a = site.args;
  std::string name = "cmath." + f;
  if (!noKeywords(name)) return ts.constOf(nullptr, loc);
  // The functions written in the kernel language (CmathSource.cpp) work on
  // complex128; the result has the argument's precision.
  auto library = [&](const std::string &fn, std::vector<Expr *> args, const Type *ct) -> Expr * {
    Expr *r = ts.callFunction(cmathFunction(fn), std::move(args), loc);
    return r ? ts.convert(r, ct) : ts.constOf(nullptr, loc);
  };
  auto complexArg = [&](Expr *e) { return e->type->isComplex() ? e->type : tc.complexTy(128); };
  if (f == "rect") {
    if (!arity(name, 2, 2)) return ts.constOf(nullptr, loc);
    Expr *r = ts.convert(needNumber(a[0], name), tc.float64());
    Expr *phi = ts.convert(needNumber(a[1], name), tc.float64());
    return library("rect", {r, phi}, tc.complexTy(128));
  }
  if (f == "log" && a.size() == 2) {
    if (!needNumber(a[0], name)->type || !needNumber(a[1], name)->type)
      return ts.constOf(nullptr, loc);
    const Type *ct = unify(tc, complexArg(a[0]), complexArg(a[1]));
    return library("log_base",
                   {ts.convert(a[0], tc.complexTy(128)), ts.convert(a[1], tc.complexTy(128))}, ct);
  }
  if (!arity(name, 1, 1) || !needNumber(a[0], name)->type) return ts.constOf(nullptr, loc);
  const Type *ct = complexArg(a[0]);
  const Type *ft = ct->complexPart();
  static const char *const written[] = {"exp",   "sqrt", "log10", "cos",  "cosh",
                                        "sin",   "sinh", "tan",   "tanh", "acos",
                                        "acosh", "asin", "asinh", "atan", "atanh"};
  for (const char *w : written)
    if (f == w) return library(f, {ts.convert(a[0], tc.complexTy(128))}, ct);
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

Expr *CallTyper::numpy(const std::string &f) {
  auto &a = site.args;
  std::string name = "np." + f;
  if (Expr *r = typeListPrimitive(ts, f, site)) return r;
  if (f == "linalg._gemm") {
    if (ts.cudaTarget()) return unsupported("np.linalg is not supported in kernels");
    if (!arity(name, 3, 3)) return ts.constOf(nullptr, loc);
    for (Expr *x : a)
      if (!x->type->isArray() || x->type->ndim() != 2 || x->type->dtype() != tc.float64() ||
          x->type->layout() != Layout::C)
        return fail("np.linalg._gemm(a, b, c) takes 2-d float64 C arrays");
    return ts.intrinsic(IntrinsicId::Gemm, a, tc.int64(), loc);
  }
  if (f == "linalg._lapack") {
    if (ts.cudaTarget()) return unsupported("np.linalg is not supported in kernels");
    if (!arity(name, 4, 4)) return ts.constOf(nullptr, loc);
    auto *op = dyn_cast<ir::Const>(a[0]);
    if (!op || !a[1]->type->isArray() || a[1]->type->ndim() != 2 ||
        a[1]->type->dtype() != tc.float64() || a[1]->type->layout() != Layout::C ||
        !a[2]->type->isArray() || a[2]->type->dtype() != tc.intTy(32) || !a[3]->type->isArray() ||
        a[3]->type->ndim() != 2 || a[3]->type->dtype() != tc.float64() ||
        a[3]->type->layout() != Layout::C)
      return fail("np.linalg._lapack(op, float64 C matrix, int32 pivots, float64 C matrix)");
    return ts.intrinsic(IntrinsicId::Lapack, {ts.convert(a[0], tc.int64()), a[1], a[2], a[3]},
                        tc.int64(), loc);
  }
  if (f.rfind("random.", 0) == 0) {
    if (ts.cudaTarget())
      return unsupported(
          fmt::format("{}() is not supported in kernels; use "
                      "numba.cuda.random (xoroshiro128p) there",
                      name));
    std::string r = f.substr(7);
    if (!noKeywords(name)) return ts.constOf(nullptr, loc);
    if (r == "seed") {
      if (!arity(name, 1, 1)) return ts.constOf(nullptr, loc);
      if (!a[0]->type->isInt())
        return fail(fmt::format("np.random.seed() takes an integer, not {}", a[0]->type->str()));
      return ts.intrinsic(IntrinsicId::RandomSeed, {ts.convert(a[0], tc.int64())}, tc.none(), loc);
    }
    if (!arity(name, 0, 0)) return ts.constOf(nullptr, loc);
    if (r == "_bits") return ts.intrinsic(IntrinsicId::RandomBits, {}, tc.int64(), loc);
    if (r == "_double") return ts.intrinsic(IntrinsicId::RandomDouble, {}, tc.float64(), loc);
    return ts.intrinsic(IntrinsicId::RandomGauss, {}, tc.float64(), loc);
  }
  if (ts.cudaTarget() &&
      (f == "empty" || f == "zeros" || f == "ones" || f == "full" || f == "arange" ||
       f == "empty_like" || f == "zeros_like" || f == "ones_like"))
    return unsupported(
        fmt::format("{}() allocates memory, which kernels cannot do; use "
                    "cuda.local.array or cuda.shared.array, or pass an array in",
                    name));
  if (f == "empty" || f == "zeros" || f == "ones") {
    if (!onlyKeywords(name, {"dtype", "shape"})) return ts.constOf(nullptr, loc);
    Expr *shape = a.empty() ? keyword("shape") : a[0];
    Expr *dtype = a.size() > 1 ? a[1] : keyword("dtype");
    if (!shape || a.size() > 2)
      return fail(fmt::format("{}() takes a shape and an optional dtype", name));
    return allocate(name, shape, dtype, tc.float64(), f == "empty" ? -1 : f == "zeros" ? 0 : 1);
  }
  if (f == "full") {
    if (!onlyKeywords(name, {"dtype"}) || !arity(name, 2, 3)) return ts.constOf(nullptr, loc);
    Expr *dtype = a.size() > 2 ? a[2] : keyword("dtype");
    return allocate(name, a[0], dtype,
                    a[1]->type->isBool()     ? tc.boolean()
                    : a[1]->type->isNumber() ? (a[1]->type->isInt() ? tc.int64() : a[1]->type)
                                             : tc.float64(),
                    -1, a[1]);
  }
  if (f == "empty_like" || f == "zeros_like" || f == "ones_like") {
    if (!onlyKeywords(name, {"dtype"}) || !arity(name, 1, 2)) return ts.constOf(nullptr, loc);
    if (!a[0]->type->isArray())
      return fail(fmt::format("{}() needs an array, not {}", name, a[0]->type->str()));
    Expr *dtype = a.size() > 1 ? a[1] : keyword("dtype");
    int fill = f == "empty_like" ? -1 : f == "zeros_like" ? 0 : 1;
    return allocate(name, likeShape(a[0]), dtype, a[0]->type->dtype(), fill);
  }
  if (f == "copy") {
    if (!arity(name, 1, 1)) return ts.constOf(nullptr, loc);
    site.args = {a[0]};
    return arrayMethod("copy");
  }
  if (f == "ascontiguousarray") {
    // The array itself when its type is C-contiguous, else a C copy.
    if (!arity(name, 1, 1) || !noKeywords(name)) return ts.constOf(nullptr, loc);
    if (!a[0]->type->isArray()) return fail("np.ascontiguousarray() takes an array in kernels");
    if (a[0]->type->layout() == Layout::C) return a[0];
    site.args = {a[0]};
    return arrayMethod("copy");
  }
  if (f == "ravel") {
    if (!arity(name, 1, 1) || !noKeywords(name)) return ts.constOf(nullptr, loc);
    if (!a[0]->type->isArray()) return fail("np.ravel() takes an array in kernels");
    return arrayMethod("ravel");
  }
  if ((f == "array" || f == "asarray") && !ts.cudaTarget()) {
    // (A list display is typed at the call: FunctionTyper::arrayLiteral.)
    if (!onlyKeywords(name, {"dtype"}) || !arity(name, 1, 2)) return ts.constOf(nullptr, loc);
    Expr *dtypeExpr = a.size() > 1 ? a[1] : keyword("dtype");
    Expr *x = a[0];
    if (x->type->isList() && x->type->dtype() && x->type->dtype()->isNumber()) {
      // A list of numbers: a new 1-d array of them (then the dtype asked for).
      const Type *dt = dtypeArg(dtypeExpr, x->type->dtype());
      if (!dt) return ts.constOf(nullptr, loc);
      Expr *arr = library("_array_from_list", {x});
      if (!arr->type || dt == x->type->dtype()) return arr;
      return astype(arr, dt);
    }
    if (x->type->isArray()) {
      const Type *dt = dtypeArg(dtypeExpr, x->type->dtype());
      if (!dt) return ts.constOf(nullptr, loc);
      if (dt != x->type->dtype()) return astype(x, dt);
      if (f == "asarray") return x;
      site.args = {x};
      return arrayMethod("copy");
    }
    if (x->type->isTuple()) {
      std::vector<Expr *> elems;
      for (unsigned k = 0; k < x->type->elements().size(); ++k) {
        Expr *e = ir.tupleGet(x, k, loc);
        if (!e->type->isNumber())
          return unsupported(fmt::format("{}() of a tuple takes numbers in kernels, not {}", name,
                                         e->type->str()));
        elems.push_back(e);
      }
      const Type *dt = nullptr;
      for (Expr *e : elems) dt = dt ? promoteNumeric(tc, dt, e->type) : e->type;
      dt = dtypeArg(dtypeExpr, dt ? dt : tc.float64());
      if (!dt) return ts.constOf(nullptr, loc);
      for (Expr *&e : elems) e = ts.convert(e, dt);
      ir::Intrinsic *r = ts.intrinsic(IntrinsicId::ArrayLiteral, std::move(elems),
                                      tc.array(dt, 1, Layout::C), loc);
      r->text = std::to_string(x->type->elements().size());
      return r;
    }
    return unsupported(fmt::format("{}() of {} is not supported in kernels", name, x->type->str()));
  }
  if (f == "arange") {
    if (!onlyKeywords(name, {"dtype"}) || !arity(name, 1, 3)) return ts.constOf(nullptr, loc);
    std::vector<Expr *> v = a;
    const Type *t = tc.int64();
    bool anyFloat = false;
    for (Expr *x : v) {
      if (!x->type->isNumber() || x->type->isComplex())
        return fail(fmt::format("{}() arguments must be real numbers", name));
      anyFloat |= x->type->isFloat();
    }
    if (anyFloat) t = tc.float64();
    const Type *dt = dtypeArg(keyword("dtype"), t);
    if (!dt) return ts.constOf(nullptr, loc);
    Expr *start = v.size() == 1 ? ts.constInt(0, loc) : v[0];
    Expr *stop = v.size() == 1 ? v[0] : v[1];
    Expr *step = v.size() == 3 ? v[2] : ts.constInt(1, loc);
    const Type *ct = anyFloat ? tc.float64() : tc.int64();
    return ts.intrinsic(IntrinsicId::ArrayArange,
                        {ts.convert(start, ct), ts.convert(stop, ct), ts.convert(step, ct)},
                        tc.array(dt, 1, Layout::C), loc);
  }
  if (isReduction(f)) {
    if (!onlyKeywords(name, {"axis"}) || !arity(name, 1, 2)) return ts.constOf(nullptr, loc);
    if (Expr *axis = a.size() > 1 ? a[1] : keyword("axis")) return reductionAlong(f, a[0], axis);
    return reduction(f, a[0]);
  }
  if (unsigned nin = ufuncInputs(f)) {
    bool arrays = a.size() == nin + 1 && a[nin]->type->isArray();
    for (auto &[k, v] : site.kwargs) arrays |= k == "out" && v->type->isArray();
    for (Expr *x : a) arrays |= x->type->isArray();
    if (arrays) return ts.cudaTarget() ? ufuncOnArrays(f, nin) : ufuncArrayExpr(f, nin);
  }
  if (f == "where" && a.size() == 3 && site.kwargs.empty() && !ts.cudaTarget() &&
      (a[0]->type->isArray() || a[1]->type->isArray() || a[2]->type->isArray())) {
    // np.where(cond, x, y): x's element where cond's is true, else y's.
    return arrayOperation(
        ts, UfuncKind::Arithmetic, "({1} if {0} else {2})", a,
        [&](std::vector<Expr *> e) { return ts.select(ts.truth(e[0]), e[1], e[2], loc); }, loc);
  }
  if (f == "where" && a.size() == 1 && site.kwargs.empty() && !ts.cudaTarget() &&
      a[0]->type->isArray())
    return library("nonzero", {a[0]});  // np.where(cond) is np.nonzero(cond)
  if (!noKeywords(name)) return ts.constOf(nullptr, loc);
  for (Expr *x : a)
    if (x->type->isArray())
      return unsupported(
          fmt::format("{}() on arrays is not supported{} yet; write the loop, or use @vectorize",
                      name, ts.cudaTarget() ? " in kernels" : ""));
  if (Expr *r = numpyScalarUfunc(f)) return r;
  if (const UnaryMath *u = findIn(kMathUnary, f);
      u && f != "gamma" && f != "lgamma" && f != "erf" && f != "erfc") {
    if (!arity(name, 1, 1)) return ts.constOf(nullptr, loc);
    return mathUnary(u->id, name, a[0]);
  }
  if (const UnaryMath *u = findIn(kNumpyUnary, f)) {
    if (!arity(name, 1, 1)) return ts.constOf(nullptr, loc);
    return mathUnary(u->id, name, a[0]);
  }
  if (const BinaryMath *b = findIn(kMathBinary, f)) {
    if (!arity(name, 2, 2)) return ts.constOf(nullptr, loc);
    return mathBinary(b->id, name, a[0], a[1]);
  }
  if (f == "abs" || f == "absolute") {
    site.args = a;
    return builtin("abs");
  }
  if (f == "isnan" || f == "isinf" || f == "isfinite") return math(f);
  if (f == "square") {
    if (!arity(name, 1, 1)) return ts.constOf(nullptr, loc);
    return ts.binary(ast::BinaryOp::Mul, a[0], a[0], loc);
  }
  if (f == "negative") {
    if (!arity(name, 1, 1)) return ts.constOf(nullptr, loc);
    if (a[0]->type->isFloat() || a[0]->type->isComplex())
      return ts.unaryOp(ast::UnaryOp::Neg, a[0], loc);  // -0.0 for 0.0
    return ts.binary(ast::BinaryOp::Sub, ts.convert(ts.constInt(0, loc), a[0]->type), a[0], loc);
  }
  if (f == "deg2rad" || f == "radians" || f == "rad2deg" || f == "degrees")
    return math(f == "deg2rad" ? "radians" : f == "rad2deg" ? "degrees" : f);
  return unsupported(fmt::format("{}() is not supported in kernels yet", name));
}

Expr *CallTyper::arrayMethod(const std::string &f) {
  Expr *self = site.args.empty() ? nullptr : site.args[0];
  if (!self) return fail("method call without a receiver");
  std::string name = "array." + f;
  if (f == "sum" || f == "prod" || f == "min" || f == "max" || f == "mean" || f == "all" ||
      f == "any" || f == "var" || f == "std" || f == "argmin" || f == "argmax") {
    Expr *axis = site.args.size() == 2 ? site.args[1] : nullptr;
    for (auto &[k, v] : site.kwargs)
      if (k == "axis" && !axis) axis = v;
    if (site.args.size() > 2 || site.kwargs.size() > (axis && site.args.size() == 1 ? 1u : 0u))
      return unsupported(
          fmt::format("{}() takes at most an axis in kernels (no other arguments)", name));
    if (axis) return reductionAlong(f, self, axis);
    if (f == "argmin" || f == "argmax") return library(f, {self});
    return reduction(f, self);
  }
  if (f == "copy") {
    if (site.args.size() != 1) return fail("copy() takes no arguments");
    const Type *t = self->type;
    return ts.intrinsic(IntrinsicId::ArrayCopy, {self}, tc.array(t->dtype(), t->ndim(), Layout::C),
                        loc);
  }
  if (f == "reshape") {
    // a.reshape(2, 3), a.reshape((2, 3)), a.reshape(-1): a view of a C array.
    if (!site.kwargs.empty()) return fail("reshape() takes no keyword arguments in kernels");
    std::vector<Expr *> dims;
    for (size_t k = 1; k < site.args.size(); ++k) {
      Expr *d = site.args[k];
      if (site.args.size() == 2 && d->type->isTuple()) {
        for (unsigned e = 0; e < d->type->elements().size(); ++e)
          dims.push_back(ir.tupleGet(d, e, loc));
        continue;
      }
      dims.push_back(d);
    }
    if (dims.empty()) return fail("reshape() needs the new shape");
    for (Expr *&d : dims) {
      if (!d->type->isInt())
        return fail(fmt::format("reshape() dimensions must be integers, not {}", d->type->str()));
      d = ts.convert(d, tc.int64());
    }
    if (self->type->layout() != Layout::C)
      return unsupported(
          fmt::format("reshape() of a {} array: kernels reshape C-contiguous arrays "
                      "only (copy it first)",
                      self->type->str()));
    dims.insert(dims.begin(), self);
    return ts.intrinsic(
        IntrinsicId::ArrayReshape, std::move(dims),
        tc.array(self->type->dtype(), unsigned(dims.size() - 1), Layout::C, self->type->readonly()),
        loc);
  }
  if (f == "view") {
    if (site.args.size() != 2 || !site.kwargs.empty()) return fail("view() takes one dtype");
    Expr *d = site.args[1];
    if (d->type->kind() != TypeKind::Dtype)
      return unsupported(
          fmt::format("view() takes a NumPy dtype in kernels, not {}", d->type->str()));
    const Type *st = self->type;
    if (st->ndim() == 0) return unsupported("view() of a 0-d array is not supported in kernels");
    const Type *nt = d->type->dtype();
    if (itemSize(nt) == itemSize(st->dtype()))
      return ts.intrinsic(IntrinsicId::ArrayViewAs, {self},
                          tc.array(nt, st->ndim(), st->layout(), st->readonly()), loc);
    return ts.intrinsic(
        IntrinsicId::ArrayViewAs, {self},
        tc.array(nt, st->ndim(), st->layout() == Layout::C ? Layout::C : Layout::A, st->readonly()),
        loc);
  }
  if (f == "astype") {
    if (site.args.size() != 2 || !site.kwargs.empty())
      return fail("astype() takes one dtype in kernels");
    const Type *dt = dtypeArg(site.args[1], nullptr);
    if (!dt) return ts.constOf(nullptr, loc);
    return astype(self, dt);
  }
  if (f == "ravel" || f == "flatten") {
    // A 1-d C array of the elements in C order: ravel is a view of a C
    // array (a copy of another), flatten always a copy.
    if (site.args.size() != 1 || !site.kwargs.empty())
      return fail(fmt::format("{}() takes no arguments in kernels", f));
    const Type *t = self->type;
    if (t->ndim() == 0) return unsupported(fmt::format("{}() of a 0-d array", f));
    Expr *c = self;
    if (f == "flatten" || t->layout() != Layout::C)
      c = ts.intrinsic(IntrinsicId::ArrayCopy, {self}, tc.array(t->dtype(), t->ndim(), Layout::C),
                       loc);
    return ts.intrinsic(IntrinsicId::ArrayReshape, {c, ts.constInt(-1, loc)},
                        tc.array(t->dtype(), 1, Layout::C, t->readonly() && c == self), loc);
  }
  if (f == "fill") {
    if (site.args.size() != 2) return fail("fill() takes one value");
    return ts.intrinsic(IntrinsicId::ArrayFill,
                        {self, ts.convert(site.args[1], self->type->dtype())}, self->type, loc);
  }
  // a.argmax(), a.cumsum(), a.sort() ...: the library's function of that
  // name with the array first (a.sort() sorts in place).
  if (!ts.cudaTarget()) {
    std::string libName = f == "sort" ? "_sort_in_place" : f;
    if (f[0] != '_' && numpyLibFunction(libName)) {
      if (!site.kwargs.empty())
        return unsupported(
            fmt::format("keyword arguments of the array method {}() are not supported yet", f));
      return library(libName, site.args);
    }
  }
  return unsupported(fmt::format("the array method {}() is not supported in kernels yet", f));
}

}  // namespace

Expr *typeBuiltinCall(TyperServices &ts, const Type *callee, CallSite &site) {
  CallTyper ct(ts, site);
  if (callee->kind() == TypeKind::Dtype) {
    // np.float32(x), kjit.int32(x): a conversion.
    if (!site.kwargs.empty() || site.args.size() > 1)
      return ct.fail(fmt::format("{}() takes at most one argument", callee->symbol()));
    if (site.args.empty()) return ts.convert(ts.constInt(0, site.loc), callee->dtype());
    Expr *x = site.args[0];
    if (x->type->isEnumMember() && x->type->isIntEnum()) x = ts.convert(x, x->type->dtype());
    if (!x->type->isNumber())
      return ct.fail(fmt::format("cannot convert {} to {}", x->type->str(), callee->symbol()));
    if (callee->dtype()->isBool()) return ts.truth(x);
    return ts.convert(x, callee->dtype());
  }
  if (callee->kind() == TypeKind::ExceptionClass)
    return ct.unsupported(fmt::format(
        "exception objects can only be raised in kernels, not created ({})", callee->symbol()));
  if (callee->kind() != TypeKind::Function)
    return ct.fail(fmt::format("'{}' object is not callable", callee->str()));
  const std::string &sym = callee->symbol();
  size_t dot = sym.find('.');
  std::string mod = sym.substr(0, dot), fn = sym.substr(dot + 1);
  if (sym.rfind("kjit.cuda.", 0) == 0) {
    if (!ts.cudaTarget())
      return ct.unsupported(
          fmt::format("cuda.{}() is only available in @cuda.jit kernels and device "
                      "functions",
                      sym.substr(10)));
    return typeCudaCall(ts, sym.substr(10), site);
  }
  if (mod == "builtins") return ct.builtin(fn);
  if (mod == "operator") return ct.operatorFn(fn);
  if (mod == "math") return ct.math(fn);
  if (mod == "cmath") return ct.cmath(fn);
  if (mod == "numpy") return ct.numpy(fn);
  if (mod == "array") return ct.arrayMethod(fn);
  if (mod == "list") return typeListMethod(ts, fn, site);
  if (mod == "dict") return typeDictMethod(ts, fn, site);
  if (mod == "set") return typeSetMethod(ts, fn, site);
  if (mod == "str") return typeStrMethod(ts, fn, site);
  if (mod == "number" && fn == "conjugate") {
    Expr *x = site.args.empty() ? nullptr : site.args[0];
    if (!x) return ct.fail("conjugate() without a receiver");
    return ct.conjugateOf(x);
  }
  if (mod == "number" && fn == "bit_count") {
    // int.bit_count(), as numba-cuda has it: cuda.popc of the value.
    if (!ts.cudaTarget())
      return ct.unsupported(
          "int.bit_count() is only available in @cuda.jit kernels and device "
          "functions");
    if (site.args.size() != 1) return ct.fail("bit_count() takes no arguments");
    return ts.intrinsic(IntrinsicId::Popc, {site.args[0]}, site.args[0]->type, site.loc);
  }
  if (fn == "prange" || fn == "literal_unroll")
    return ct.unsupported(fmt::format("{}() can only be used as the iterable of a for loop", fn));
  return ct.unsupported(fmt::format("{}() is not supported in kernels", sym));
}

}  // namespace kjit
