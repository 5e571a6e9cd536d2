// Numpy.cpp - the numpy module's family: array creation, np.where, LAPACK's
// and the random generator's primitives; its rows from NumpyUfuncs.cpp (the
// elementwise functions) and ArrayMethods.cpp (the reductions) join here.
// What NumPy offers beyond these rows is written in the kernel language
// (compiler/lib/numpy/).
#include <fmt/format.h>

#include "compiler/builtins/BuiltinCall.h"

namespace kjit {

using namespace ir;

namespace {

class NumpyCall : public BuiltinCall {
 public:
  explicit NumpyCall(BuiltinCall &c) : BuiltinCall(c) {}
  Expr *gemm();
  Expr *lapack();
  Expr *random();
  Expr *empty();
  Expr *full();
  Expr *like();
  Expr *copy();
  Expr *ascontiguousarray();
  Expr *ravel();
  Expr *array();
  Expr *arange();
  Expr *where();
  // What kernels cannot do with this function: NumPy's keyword and array
  // rules first, then "not supported".
  Expr *notYet();
};

Expr *NumpyCall::gemm() {
  auto &a = site.args;
  if (ts.cudaTarget()) return unsupported("np.linalg is not supported in kernels");
  if (!arity(name, 3, 3)) return ts.constOf(nullptr, loc);
  for (Expr *x : a)
    if (!x->type->isArray() || x->type->ndim() != 2 || x->type->dtype() != tc.float64() ||
        x->type->layout() != Layout::C)
      return fail("np.linalg._gemm(a, b, c) takes 2-d float64 C arrays");
  return ts.intrinsic(IntrinsicId::Gemm, a, tc.int64(), loc);
}

Expr *NumpyCall::lapack() {
  auto &a = site.args;
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

Expr *NumpyCall::random() {
  auto &a = site.args;
  if (ts.cudaTarget())
    return unsupported(
        fmt::format("{}() is not supported in kernels; use "
                    "numba.cuda.random (xoroshiro128p) there",
                    name));
  const std::string &r = f;
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

Expr *NumpyCall::empty() {
  auto &a = site.args;
  if (!onlyKeywords(name, {"dtype", "shape"})) return ts.constOf(nullptr, loc);
  Expr *shape = a.empty() ? keyword("shape") : a[0];
  Expr *dtype = a.size() > 1 ? a[1] : keyword("dtype");
  if (!shape || a.size() > 2)
    return fail(fmt::format("{}() takes a shape and an optional dtype", name));
  return allocate(name, shape, dtype, tc.float64(), f == "empty" ? -1 : f == "zeros" ? 0 : 1);
}

Expr *NumpyCall::full() {
  auto &a = site.args;
  if (!onlyKeywords(name, {"dtype"}) || !arity(name, 2, 3)) return ts.constOf(nullptr, loc);
  Expr *dtype = a.size() > 2 ? a[2] : keyword("dtype");
  return allocate(name, a[0], dtype,
                  a[1]->type->isBool()     ? tc.boolean()
                  : a[1]->type->isNumber() ? (a[1]->type->isInt() ? tc.int64() : a[1]->type)
                                           : tc.float64(),
                  -1, a[1]);
}

Expr *NumpyCall::like() {
  auto &a = site.args;
  if (!onlyKeywords(name, {"dtype"}) || !arity(name, 1, 2)) return ts.constOf(nullptr, loc);
  if (!a[0]->type->isArray())
    return fail(fmt::format("{}() needs an array, not {}", name, a[0]->type->str()));
  Expr *dtype = a.size() > 1 ? a[1] : keyword("dtype");
  int fill = f == "empty_like" ? -1 : f == "zeros_like" ? 0 : 1;
  return allocate(name, likeShape(a[0]), dtype, a[0]->type->dtype(), fill);
}

Expr *NumpyCall::copy() {
  auto &a = site.args;
  if (!arity(name, 1, 1)) return ts.constOf(nullptr, loc);
  site.args = {a[0]};
  return as("array", "copy");
}

Expr *NumpyCall::ascontiguousarray() {
  auto &a = site.args;
  // The array itself when its type is C-contiguous, else a C copy.
  if (!arity(name, 1, 1) || !noKeywords(name)) return ts.constOf(nullptr, loc);
  if (!a[0]->type->isArray()) return fail("np.ascontiguousarray() takes an array in kernels");
  if (a[0]->type->layout() == Layout::C) return a[0];
  site.args = {a[0]};
  return as("array", "copy");
}

Expr *NumpyCall::ravel() {
  auto &a = site.args;
  if (!arity(name, 1, 1) || !noKeywords(name)) return ts.constOf(nullptr, loc);
  if (!a[0]->type->isArray()) return fail("np.ravel() takes an array in kernels");
  return as("array", "ravel");
}

// np.array(x), np.asarray(x) on the CPU (a list display is typed at the
// call: FunctionTyper::arrayLiteral).
Expr *NumpyCall::array() {
  auto &a = site.args;
  if (ts.cudaTarget()) return notYet();
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
    return as("array", "copy");
  }
  if (x->type->isTuple()) {
    std::vector<Expr *> elems;
    for (unsigned k = 0; k < x->type->elements().size(); ++k) {
      Expr *e = ir.tupleGet(x, k, loc);
      if (!e->type->isNumber())
        return unsupported(
            fmt::format("{}() of a tuple takes numbers in kernels, not {}", name, e->type->str()));
      elems.push_back(e);
    }
    const Type *dt = nullptr;
    for (Expr *e : elems) dt = dt ? promoteNumeric(tc, dt, e->type) : e->type;
    dt = dtypeArg(dtypeExpr, dt ? dt : tc.float64());
    if (!dt) return ts.constOf(nullptr, loc);
    for (Expr *&e : elems) e = ts.convert(e, dt);
    ir::Intrinsic *r =
        ts.intrinsic(IntrinsicId::ArrayLiteral, std::move(elems), tc.array(dt, 1, Layout::C), loc);
    r->text = std::to_string(x->type->elements().size());
    return r;
  }
  return unsupported(fmt::format("{}() of {} is not supported in kernels", name, x->type->str()));
}

Expr *NumpyCall::arange() {
  auto &a = site.args;
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

Expr *NumpyCall::where() {
  auto &a = site.args;
  if (a.size() == 3 && site.kwargs.empty() && !ts.cudaTarget() &&
      (a[0]->type->isArray() || a[1]->type->isArray() || a[2]->type->isArray())) {
    // np.where(cond, x, y): x's element where cond's is true, else y's.
    return arrayOperation(
        ts, UfuncKind::Select, "({1} if {0} else {2})", a,
        [&](std::vector<Expr *> e) { return ts.select(ts.truth(e[0]), e[1], e[2], loc); }, loc);
  }
  if (a.size() == 1 && site.kwargs.empty() && !ts.cudaTarget() && a[0]->type->isArray())
    return library("nonzero", {a[0]});  // np.where(cond) is np.nonzero(cond)
  return notYet();
}

Expr *NumpyCall::notYet() {
  if (!noKeywords(name)) return none();
  for (Expr *x : site.args)
    if (x->type->isArray())
      return unsupported(
          fmt::format("{}() on arrays is not supported{} yet; write the loop, or use @vectorize",
                      name, ts.cudaTarget() ? " in kernels" : ""));
  return unsupported(fmt::format("{}() is not supported in kernels yet", name));
}

}  // namespace

const BuiltinFamily &numpyFamily() {
  using N = NumpyCall;
  static const BuiltinFamily family = [] {
    BuiltinFamily fam{"numpy", {}, via<&N::notYet>};
    fam.missing = "{}() is not supported in kernels yet";
    auto &rows = fam.entries;
    for (const char *n : {"empty", "zeros", "ones"})
      rows.push_back(row(n, via<&N::empty>, allocating()));
    rows.push_back(row("full", via<&N::full>, allocating()));
    for (const char *n : {"empty_like", "zeros_like", "ones_like"})
      rows.push_back(row(n, via<&N::like>, allocating()));
    rows.push_back(row("arange", via<&N::arange>, allocating()));
    rows.push_back(row("copy", via<&N::copy>));
    rows.push_back(row("ascontiguousarray", via<&N::ascontiguousarray>));
    rows.push_back(row("ravel", via<&N::ravel>));
    rows.push_back(row("array", via<&N::array>));
    rows.push_back(row("asarray", via<&N::array>));
    rows.push_back(row("where", via<&N::where>));
    addNumpyReductionRows(rows);
    addNumpyUfuncRows(rows);
    addListPrimitiveRows(rows);
    return fam;
  }();
  return family;
}

const BuiltinFamily &numpyLinalgFamily() {
  static const BuiltinFamily family{
      "numpy.linalg",
      {row("_gemm", via<&NumpyCall::gemm>), row("_lapack", via<&NumpyCall::lapack>)}};
  return family;
}

const BuiltinFamily &numpyRandomFamily() {
  using N = NumpyCall;
  static const BuiltinFamily family{
      "numpy.random",
      {row("seed", via<&N::random>), row("_bits", via<&N::random>), row("_double", via<&N::random>),
       row("_gauss", via<&N::random>)}};
  return family;
}

}  // namespace kjit
