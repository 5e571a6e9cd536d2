// Registry.cpp - the families of built-ins, the lookup by (module, name),
// the dispatch of a call to its entry (BuiltinCall.h), and the names
// modules offer to kernels.
#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "compiler/Session.h"
#include "compiler/builtins/BuiltinCall.h"

namespace kjit {

using namespace ir;

namespace {

// Every family, in one list: a new family is one line here.
const std::vector<const BuiltinFamily *> &families() {
  static const std::vector<const BuiltinFamily *> all = {
      &pythonBuiltinsFamily(), &operatorFamily(),
      &numberMethodsFamily(),  &mathFamily(),
      &cmathFamily(),          &numpyFamily(),
      &numpyLinalgFamily(),    &numpyRandomFamily(),
      &arrayMethodsFamily(),   &containerFamilies(0),
      &containerFamilies(1),   &containerFamilies(2),
      &containerFamilies(3),   &cudaFamily(),
      &loopOnlyFamily("kjit"), &loopOnlyFamily("numba"),
  };
  return all;
}

// A global value of `kind` named `name`: a function ("numpy.sign"), a
// module, a dtype, an exception class.
GlobalValue named(GlobalValue::Kind kind, const std::string &name) {
  GlobalValue g;
  g.kind = kind;
  g.name = name;
  return g;
}
GlobalValue fnValue(const std::string &qualified) {
  return named(GlobalValue::Kind::Function, qualified);
}
GlobalValue moduleValue(const std::string &name) { return named(GlobalValue::Kind::Module, name); }
GlobalValue dtypeValue(const std::string &name) { return named(GlobalValue::Kind::Dtype, name); }
GlobalValue exceptionValue(const std::string &name) {
  return named(GlobalValue::Kind::ExceptionClass, name);
}

GlobalValue floatValue(double v) {
  GlobalValue g;
  g.kind = GlobalValue::Kind::Float;
  g.f = v;
  return g;
}

const char *const kExceptions[] = {"Exception",          "ValueError",          "IndexError",
                                   "KeyError",           "TypeError",           "RuntimeError",
                                   "AssertionError",     "ZeroDivisionError",   "ArithmeticError",
                                   "OverflowError",      "NotImplementedError", "LookupError",
                                   "FloatingPointError", "RecursionError"};

// `module.attr` as the library's function `prefix + attr`
// (compiler/lib/), or nullopt: a name with a leading underscore is the
// library's own helper, not the module's.
std::optional<GlobalValue> libraryValue(Session &session, const std::string &module,
                                        const std::string &prefix, const std::string &attr) {
  if (attr.empty() || attr[0] == '_') return std::nullopt;
  std::shared_ptr<FunctionSource> fn = session.libraryFunction(prefix + attr);
  if (!fn) return std::nullopt;
  GlobalValue g;
  g.kind = GlobalValue::Kind::JitFunction;
  g.name = module + "." + attr;
  g.fn = std::move(fn);
  return g;
}

// A callee's symbol as (family module, entry name): the longest family
// module that prefixes it ("numpy.linalg._gemm" is numpy.linalg's _gemm,
// "kjit.cuda.atomic.add" the kernel language's atomic.add).
std::pair<std::string, std::string> splitSymbol(const std::string &sym) {
  std::string best;
  for (const BuiltinFamily *fam : families()) {
    std::string m = fam->module;
    if (m.size() > best.size() && sym.size() > m.size() && sym.compare(0, m.size(), m) == 0 &&
        sym[m.size()] == '.')
      best = m;
  }
  if (best.empty()) {
    size_t dot = sym.find('.');
    return {sym.substr(0, dot), dot == std::string::npos ? "" : sym.substr(dot + 1)};
  }
  return {best, sym.substr(best.size() + 1)};
}

}  // namespace

const BuiltinFamily *findFamily(std::string_view module) {
  for (const BuiltinFamily *fam : families())
    if (module == fam->module) return fam;
  return nullptr;
}

const BuiltinEntry *findBuiltin(std::string_view module, std::string_view name) {
  const BuiltinFamily *fam = findFamily(module);
  if (!fam) return nullptr;
  for (const BuiltinEntry &e : fam->entries)
    if (name == e.name) return &e;
  return nullptr;
}

Expr *BuiltinCall::dispatch(TyperServices &ts, CallSite &site, const std::string &module,
                            const std::string &f) {
  BuiltinCall c(ts, site, module, f);
  const BuiltinFamily *fam = findFamily(module);
  const BuiltinEntry *e = findBuiltin(module, f);
  if (!e) {
    if (fam && fam->fallback) return fam->fallback(c);
    return c.unsupported(
        fmt::format(fmt::runtime(fam ? fam->missing : "{}() is not supported in kernels"), c.name));
  }
  if (e->allocates && ts.cudaTarget())
    return c.unsupported(
        fmt::format("{}() allocates memory, which kernels cannot do; use "
                    "cuda.local.array or cuda.shared.array, or pass an array in",
                    c.name));
  switch (e->form) {
  case BuiltinForm::Call: return e->type(c);
  case BuiltinForm::Ufunc: {
    // Arrays among the operands, or an output array: the ufunc's loops.
    bool arrays = site.args.size() == e->nin + 1 && site.args[e->nin]->type->isArray();
    for (auto &[k, v] : site.kwargs) arrays |= k == "out" && v->type->isArray();
    for (Expr *x : site.args) arrays |= x->type->isArray();
    if (arrays) return ts.cudaTarget() ? c.ufuncOnArrays(*e) : c.ufuncArrayExpr(*e);
    [[fallthrough]];
  }
  case BuiltinForm::Scalar:
    if (!c.noKeywords(c.name)) return c.none();
    for (Expr *x : site.args)
      if (x->type->isArray())
        return c.unsupported(
            fmt::format("{}() on arrays is not supported{} yet; write the loop, or use @vectorize",
                        c.name, ts.cudaTarget() ? " in kernels" : ""));
    return e->type(c);
  case BuiltinForm::Positional:
    if (!c.noKeywords(c.name)) return c.none();
    return e->type(c);
  }
  return c.none();
}

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
  if (findBuiltin("builtins", name)) return fnValue("builtins." + name);
  for (const char *e : kExceptions)
    if (name == e) return exceptionValue(name);
  return std::nullopt;
}

std::optional<GlobalValue> moduleAttribute(Session &session, const std::string &module,
                                           const std::string &attr) {
  if (module == "math" || module == "cmath" || module == "numpy") {
    if (attr == "pi") return floatValue(M_PI);
    if (attr == "e") return floatValue(M_E);
    if (attr == "tau" && module != "numpy") return floatValue(2 * M_PI);
    if (attr == "inf") return floatValue(INFINITY);
    if (attr == "nan") return floatValue(NAN);
  }
  if (module == "operator" || module == "math" || module == "cmath") {
    if (findBuiltin(module, attr)) return fnValue(module + "." + attr);
    return std::nullopt;
  }
  if (module == "numpy") {
    if (std::string name = canonicalScalarName(attr); !name.empty() && attr != "bool")
      return dtypeValue(name);
    if (findBuiltin(module, attr)) return fnValue("numpy." + attr);
    if (attr == "newaxis") return GlobalValue{};  // None
    if (attr == "linalg" || attr == "random") return moduleValue("numpy." + attr);
    // The functions kjit writes in its own language (compiler/lib/).
    return libraryValue(session, module, "", attr);
  }
  if (module == "numpy.linalg") {
    // LAPACK's entries (_lapack, _gemm) and the error class are builtins;
    // the rest is the library's linalg_<name>.
    if (findBuiltin(module, attr)) return fnValue("numpy.linalg." + attr);
    if (attr == "LinAlgError") return exceptionValue("numpy.linalg.LinAlgError");
    return libraryValue(session, module, "linalg_", attr);
  }
  if (module == "numpy.random") {
    // seed and the generator's primitives (_bits, _double, _gauss) are
    // builtins; the rest is the library's random_<name>.
    if (findBuiltin(module, attr)) return fnValue("numpy.random." + attr);
    return libraryValue(session, module, "random_", attr);
  }
  if (module == "kjit.cuda") {
    static const char *const namespaces[] = {
        "threadIdx", "blockIdx", "blockDim", "gridDim", "shared",   "local", "const", "atomic",
        "fp16",      "bf16",     "wmma",     "cg",      "mbarrier", "tma",   "wgmma"};
    for (const char *n : namespaces)
      if (attr == n) return moduleValue("kjit.cuda." + attr);
    return fnValue("kjit.cuda." + attr);  // checked when called
  }
  if (module.rfind("kjit.cuda.", 0) == 0) return fnValue(module + "." + attr);
  if (module == "kjit.types") {  // numba.types: scalar types, unicode_type
    std::string name = attr == "unicode_type" ? attr : canonicalScalarName(attr);
    if (name.empty()) return std::nullopt;
    return dtypeValue(name);
  }
  if (module == "kjit" || module == "numba") {
    if (findBuiltin(module, attr)) return fnValue(module + "." + attr);
    if (std::string name = canonicalScalarName(attr); !name.empty()) return dtypeValue(name);
    return std::nullopt;
  }
  return std::nullopt;
}

Expr *typeBuiltinCall(TyperServices &ts, const Type *callee, CallSite &site) {
  auto error = [&](DiagCategory c, std::string msg) {
    return ts.error(c, site.loc, std::move(msg));
  };
  if (callee->kind() == TypeKind::Dtype) {
    // np.float32(x), kjit.int32(x): a conversion.
    if (!site.kwargs.empty() || site.args.size() > 1)
      return error(DiagCategory::Typing,
                   fmt::format("{}() takes at most one argument", callee->symbol()));
    if (site.args.empty()) return ts.convert(ts.constInt(0, site.loc), callee->dtype());
    Expr *x = site.args[0];
    if (x->type->isEnumMember() && x->type->isIntEnum()) x = ts.convert(x, x->type->dtype());
    if (!x->type->isNumber())
      return error(DiagCategory::Typing,
                   fmt::format("cannot convert {} to {}", x->type->str(), callee->symbol()));
    if (callee->dtype()->isBool()) return ts.truth(x);
    Expr *v = ts.convert(x, callee->dtype());
    if (auto *c = dyn_cast<Const>(v); c && c->type->isInt()) {
      // A NumPy integer: arithmetic folded on it wraps (np.int64(2**62) * 4).
      Const *w = ts.constOf(c->type, site.loc);
      w->i = c->i;
      w->wraps = true;
      return w;
    }
    return v;
  }
  if (callee->kind() == TypeKind::ExceptionClass)
    return error(DiagCategory::Unsupported,
                 fmt::format("exception objects can only be raised in kernels, not created ({})",
                             callee->symbol()));
  if (callee->kind() != TypeKind::Function)
    return error(DiagCategory::Typing, fmt::format("'{}' object is not callable", callee->str()));
  const std::string &sym = callee->symbol();
  if (sym.rfind("kjit.cuda.", 0) == 0 && !ts.cudaTarget())
    return error(DiagCategory::Unsupported,
                 fmt::format("cuda.{}() is only available in @cuda.jit kernels and device "
                             "functions",
                             sym.substr(10)));
  auto [module, f] = splitSymbol(sym);
  return BuiltinCall::dispatch(ts, site, module, f);
}

}  // namespace kjit
