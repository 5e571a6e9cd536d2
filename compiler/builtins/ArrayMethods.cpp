// ArrayMethods.cpp - the methods of arrays (a.sum(), a.reshape(), a.copy()
// ...) and NumPy's reductions (np.sum(a), np.mean(a, axis=0) ...). A method
// the family has no row for is the library's function of that name with the
// array first (compiler/lib/numpy/), on the CPU.
#include <fmt/format.h>

#include "compiler/Session.h"
#include "compiler/builtins/BuiltinCall.h"

namespace kjit {

using namespace ir;

namespace {

class ArrayCall : public BuiltinCall {
 public:
  explicit ArrayCall(BuiltinCall &c)
      : BuiltinCall(c), self(site.args.empty() ? nullptr : site.args[0]) {}
  Expr *self;  // the array
  Expr *noReceiver() { return fail("method call without a receiver"); }

  Expr *reduce();
  Expr *copy();
  Expr *reshape();
  Expr *view();
  Expr *astypeMethod();
  Expr *ravel();
  Expr *fill();
  Expr *library_();
  // np.sum(a), np.mean(a, axis) ...
  Expr *numpyReduction();
};

Expr *ArrayCall::reduce() {
  if (!self) return noReceiver();
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

Expr *ArrayCall::copy() {
  if (!self) return noReceiver();
  if (site.args.size() != 1) return fail("copy() takes no arguments");
  const Type *t = self->type;
  return ts.intrinsic(IntrinsicId::ArrayCopy, {self}, tc.array(t->dtype(), t->ndim(), Layout::C),
                      loc);
}

Expr *ArrayCall::reshape() {
  if (!self) return noReceiver();
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

Expr *ArrayCall::view() {
  if (!self) return noReceiver();
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

Expr *ArrayCall::astypeMethod() {
  if (!self) return noReceiver();
  if (site.args.size() != 2 || !site.kwargs.empty())
    return fail("astype() takes one dtype in kernels");
  const Type *dt = dtypeArg(site.args[1], nullptr);
  if (!dt) return ts.constOf(nullptr, loc);
  return astype(self, dt);
}

Expr *ArrayCall::ravel() {
  if (!self) return noReceiver();
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

Expr *ArrayCall::fill() {
  if (!self) return noReceiver();
  if (site.args.size() != 2) return fail("fill() takes one value");
  return ts.intrinsic(IntrinsicId::ArrayFill, {self, ts.convert(site.args[1], self->type->dtype())},
                      self->type, loc);
}

// a.argmax(), a.cumsum(), a.sort() ...: the library's function of that
// name with the array first (a.sort() sorts in place).
Expr *ArrayCall::library_() {
  if (!self) return noReceiver();
  if (!ts.cudaTarget()) {
    std::string libName = f == "sort" ? "_sort_in_place" : f;
    if (f[0] != '_' && ts.context().session().libraryFunction(libName)) {
      if (!site.kwargs.empty())
        return unsupported(
            fmt::format("keyword arguments of the array method {}() are not supported yet", f));
      return library(libName, site.args);
    }
  }
  return unsupported(fmt::format("the array method {}() is not supported in kernels yet", f));
}

Expr *ArrayCall::numpyReduction() {
  auto &a = site.args;
  if (!onlyKeywords(name, {"axis"}) || !arity(name, 1, 2)) return none();
  if (Expr *axis = a.size() > 1 ? a[1] : keyword("axis")) return reductionAlong(f, a[0], axis);
  return reduction(f, a[0]);
}

}  // namespace

void addNumpyReductionRows(std::vector<BuiltinEntry> &rows) {
  for (const char *n : {"sum", "prod", "min", "max", "amin", "amax", "mean", "nansum", "nanprod",
                        "nanmin", "nanmax", "nanmean", "all", "any", "count_nonzero", "var", "std"})
    rows.push_back(row(n, via<&ArrayCall::numpyReduction>));
}

const BuiltinFamily &arrayMethodsFamily() {
  using A = ArrayCall;
  static const BuiltinFamily family = [] {
    BuiltinFamily fam{"array", {}, via<&A::library_>};
    for (const char *n :
         {"sum", "prod", "min", "max", "mean", "all", "any", "var", "std", "argmin", "argmax"})
      fam.entries.push_back(row(n, via<&A::reduce>));
    fam.entries.push_back(row("copy", via<&A::copy>));
    fam.entries.push_back(row("reshape", via<&A::reshape>));
    fam.entries.push_back(row("view", via<&A::view>));
    fam.entries.push_back(row("astype", via<&A::astypeMethod>));
    fam.entries.push_back(row("ravel", via<&A::ravel>));
    fam.entries.push_back(row("flatten", via<&A::ravel>));
    fam.entries.push_back(row("fill", via<&A::fill>));
    return fam;
  }();
  return family;
}

}  // namespace kjit
