// TypeCalls.cpp - typing calls: builtins, NumPy and library functions,
// kjit functions (specialised per argument types), device functions
// declared with signatures, methods, and array literals.
#include <fmt/format.h>

#include <functional>

#include "compiler/Builtins.h"
#include "compiler/Conversion.h"
#include "compiler/JitClass.h"
#include "compiler/Signature.h"
#include "compiler/TyperImpl.h"

namespace kjit::typing {

// A call of a device function declared with signatures: the arguments
// convert to the signature they fit best (Numba's rating,
// compiler/Conversion.h; of two alike, the one declared first, as Numba
// takes), which is the one compiled; none is a typing error.
Expr *FunctionTyper::callDeclared(const std::string &name, const Type *fnType,
                                  const std::vector<std::string> &signatures,
                                  std::vector<Expr *> args, SourceLoc loc) {
  std::vector<Signature> sigs(signatures.size());
  std::vector<const std::vector<const Type *> *> candidates;
  for (size_t i = 0; i < signatures.size(); ++i) {
    std::string error;
    if (!parseSignature(tc_, signatures[i], sigs[i], error))
      return typingError(loc, fmt::format("device function '{}': {}", name, error));
    candidates.push_back(&sigs[i].args);
  }
  std::vector<const Type *> actual;
  std::string described;
  for (Expr *a : args) {
    actual.push_back(a->type);
    described += (described.empty() ? "" : ", ") + a->type->str();
  }
  std::vector<int> best = bestOverloads(actual, candidates);
  auto list = [&] {
    std::string s;
    for (const std::string &sig : signatures) s += (s.empty() ? "" : ", ") + sig;
    return s;
  };
  if (best.empty())
    return typingError(
        loc, fmt::format("Invalid use of type(CUDADispatcher({})) with parameters ({}): device "
                         "function '{}' was declared for {}, and these arguments convert to none",
                         name, described, name, list()));
  const Signature &sig = sigs[size_t(best[0])];
  for (size_t i = 0; i < args.size(); ++i) {
    args[i] = castTo(args[i], sig.args[i]);
    if (!known(args[i])) return unknown(loc);
  }
  auto it = prog_.jitFunctions.find(fnType);
  Function *f = prog_.specialize(it->second, sig.args, loc, sig.ret);
  if (!f || !f->returnType) return unknown(loc);
  return ir_.call(f, std::move(args), loc);
}

// np.array([[1, 2], [3, 4]]), np.array((x, y, z), dtype=np.float32): a new
// C array of the elements, their NumPy type promoted unless dtype says.
Expr *FunctionTyper::arrayLiteral(const ast::CallExpr *c, const std::string &fname) {
  std::vector<int64_t> shape;
  std::vector<Expr *> leaves;
  bool ok = true;
  std::function<void(const ast::Expr *, size_t)> walk = [&](const ast::Expr *e, size_t depth) {
    const std::vector<ast::Expr *> *elts = nullptr;
    if (auto *l = ast::dyn_cast<ast::ListExpr>(e)) elts = &l->elts;
    if (auto *t = ast::dyn_cast<ast::TupleExpr>(e)) elts = &t->elts;
    if (elts) {
      if (depth == shape.size()) {
        if (depth > 0 && !leaves.empty()) {
          ok = false;
          unsupported(e->loc, fmt::format("{}() of nested sequences of different depths", fname));
          return;
        }
        shape.push_back(int64_t(elts->size()));
      } else if (depth > shape.size() || shape[depth] != int64_t(elts->size())) {
        ok = false;
        typingError(e->loc,
                    fmt::format("{}(): the nested sequences have different lengths (NumPy's "
                                "\"inhomogeneous shape\")",
                                fname));
        return;
      }
      for (const ast::Expr *x : *elts) walk(x, depth + 1);
      return;
    }
    if (depth != shape.size()) {
      ok = false;
      typingError(e->loc, fmt::format("{}(): the nested sequences have different depths", fname));
      return;
    }
    Expr *v = expr(e);
    if (!known(v)) {
      ok = false;
      return;
    }
    if (!v->type->isNumber()) {
      ok = false;
      unsupported(e->loc, fmt::format("{}() of a list takes numbers in kernels, not {}", fname,
                                      v->type->str()));
      return;
    }
    leaves.push_back(v);
  };
  walk(c->args[0], 0);
  const Type *dt = nullptr;
  const ast::Expr *dtypeAst = c->args.size() > 1 ? c->args[1] : nullptr;
  for (const ast::Keyword &k : c->keywords) {
    if (k.name == "dtype") {
      dtypeAst = k.value;
    } else {
      ok = false;
      unsupported(k.value->loc,
                  fmt::format("{}() takes the keyword argument dtype only in kernels", fname));
    }
  }
  if (c->args.size() > 2) {
    ok = false;
    unsupported(c->args[2]->loc, fmt::format("{}() takes a sequence and a dtype", fname));
  }
  if (dtypeAst) {
    Expr *d = expr(dtypeAst);
    if (!known(d)) return unknown(c->loc);
    if (d->type->kind() == TypeKind::Dtype) {
      dt = d->type->dtype();
    } else if (d->type->kind() == TypeKind::Function && d->type->symbol() == "builtins.float") {
      dt = tc_.float64();
    } else if (d->type->kind() == TypeKind::Function && d->type->symbol() == "builtins.int") {
      dt = tc_.int64();
    } else if (d->type->kind() == TypeKind::Function && d->type->symbol() == "builtins.bool") {
      dt = tc_.boolean();
    } else if (d->type->kind() == TypeKind::Function && d->type->symbol() == "builtins.complex") {
      dt = tc_.complexTy(128);
    } else {
      return typingError(d->loc, fmt::format("dtype must be a NumPy type such as np.float32, "
                                             "not {}",
                                             d->type->str()));
    }
  }
  if (!ok) return unknown(c->loc);
  if (!dt) {
    for (Expr *v : leaves) {
      const Type *t = v->type->isInt() && !isa<Const>(v) ? v->type : v->type;
      dt = dt ? promoteNumeric(tc_, dt, t) : t;
    }
    if (!dt) dt = tc_.float64();  // np.array([]) is float64
  }
  std::string text;
  for (size_t k = 0; k < shape.size(); ++k) text += (k ? "," : "") + std::to_string(shape[k]);
  std::vector<Expr *> args;
  for (Expr *v : leaves) args.push_back(castTo(v, dt));
  Intrinsic *r = ir_.intrinsic(IntrinsicId::ArrayLiteral, std::move(args),
                               tc_.array(dt, unsigned(shape.size()), Layout::C), c->loc);
  r->text = text;
  return r;
}

// range(...) as the argument of list() or set(): the list of its numbers
// (a range is no value here); null when `e` is no call of range.
Expr *FunctionTyper::rangeList(const ast::Expr *e) {
  auto *inner = ast::dyn_cast<ast::CallExpr>(e);
  if (!inner || !inner->keywords.empty() || inner->args.empty() || inner->args.size() > 3)
    return nullptr;
  Expr *f = expr(inner->func);
  if (!known(f) || f->type->kind() != TypeKind::Function || f->type->symbol() != "builtins.range")
    return nullptr;
  std::vector<Expr *> r;
  for (const ast::Expr *x : inner->args) {
    Expr *v = expr(x);
    if (!known(v)) return v;
    if (!v->type->isInt() && !v->type->isBool())
      return typingError(x->loc, fmt::format("range() takes integers, not {}", v->type->str()));
    r.push_back(castTo(v, tc_.int64()));
  }
  if (r.size() == 1) r.insert(r.begin(), constInt(0, e->loc));
  if (r.size() == 2) r.push_back(constInt(1, e->loc));
  return listLib("_list_range", std::move(r), e->loc);
}

Expr *FunctionTyper::call(const ast::CallExpr *c) {
  Expr *callee = expr(c->func);
  if (!known(callee)) {
    for (const ast::Expr *a : c->args) expr(a);
    return unknown(c->loc);
  }
  if (callee->type->kind() == TypeKind::Function && !c->args.empty() &&
      (callee->type->symbol() == "numpy.array" || callee->type->symbol() == "numpy.asarray") &&
      (ast::isa<ast::ListExpr>(c->args[0]) || ast::isa<ast::TupleExpr>(c->args[0]))) {
    if (cudaTarget())
      return unsupported(c->loc, "np.array() allocates memory, which kernels cannot do");
    return arrayLiteral(c, callee->type->symbol() == "numpy.array" ? "np.array" : "np.asarray");
  }
  if (callee->type->kind() == TypeKind::Function && callee->type->symbol() == "builtins.dict" &&
      c->args.empty() && c->keywords.empty() && !cudaTarget())
    return emptyDict(tc_.dict(nullptr, nullptr), c->loc);
  if (callee->type->kind() == TypeKind::Function && callee->type->symbol() == "builtins.dict" &&
      c->args.size() == 1 && c->keywords.empty() && !cudaTarget()) {
    // dict(d): a copy of a dict.
    Expr *d = expr(c->args[0]);
    if (!known(d)) return d;
    if (!d->type->isDict() || d->type->isSet())
      return typingError(
          c->args[0]->loc,
          fmt::format("dict() of {} is not supported; it takes a dict", d->type->str()));
    if (hasUndefinedList(d->type)) return unknown(c->loc);
    return listLib("_dict_copy", {d}, c->loc);
  }
  if (callee->type->kind() == TypeKind::Function && callee->type->symbol() == "builtins.set")
    return setCall(c);
  if (callee->type->kind() == TypeKind::Function &&
      callee->type->symbol().rfind("kjit.typed.", 0) == 0)
    return typedContainer(c, callee->type->symbol());
  if (callee->type->kind() == TypeKind::Function && callee->type->symbol() == "builtins.list" &&
      c->args.size() == 1 && c->keywords.empty() && !cudaTarget())
    if (Expr *numbers = rangeList(c->args[0])) return numbers;
  std::vector<Expr *> args;
  std::vector<std::pair<std::string, Expr *>> kwargs;
  bool ok = true;
  for (size_t i = 0; i < c->args.size(); ++i) {
    Expr *v = expr(c->args[i]);
    ok &= known(v);
    if (!known(v) || !c->isStarred(i)) {
      args.push_back(v);
      continue;
    }
    // f(*t): the tuple's elements, read from t (a variable, a constant or a
    // tuple display, so that reading each element evaluates nothing twice).
    if (!v->type->isTuple()) {
      ok = false;
      unsupported(v->loc, fmt::format("'*' argument unpacking in kernels takes a tuple, not {}",
                                      v->type->str()));
      continue;
    }
    if (auto *t = dyn_cast<TupleMake>(v)) {
      args.insert(args.end(), t->elems.begin(), t->elems.end());
      continue;
    }
    if (!isa<VarRef>(v) && !isa<Const>(v) &&
        !(isa<TupleGet>(v) && !cast<TupleGet>(v)->dynIndex &&
          isa<VarRef>(cast<TupleGet>(v)->tuple))) {
      ok = false;
      unsupported(v->loc,
                  "'*' argument unpacking in kernels takes a variable or a tuple "
                  "display; assign the value to a variable first");
      continue;
    }
    for (size_t k = 0; k < v->type->elements().size(); ++k)
      args.push_back(ir_.tupleGet(v, unsigned(k), v->loc));
  }
  for (const ast::Keyword &k : c->keywords) {
    Expr *v = expr(k.value);
    ok &= known(v);
    kwargs.emplace_back(k.name, v);
  }
  if (!ok) return unknown(c->loc);
  const Type *ft = callee->type;
  // The receiver of a method call: a.sum() -> array.sum with a first.
  if (ft->kind() == TypeKind::Function &&
      (ft->symbol().rfind("array.", 0) == 0 || ft->symbol().rfind("number.", 0) == 0 ||
       ft->symbol().rfind("list.", 0) == 0 || ft->symbol().rfind("dict.", 0) == 0 ||
       ft->symbol().rfind("set.", 0) == 0 || ft->symbol().rfind("str.", 0) == 0)) {
    if (auto *attr = ast::dyn_cast<ast::AttributeExpr>(c->func)) {
      Expr *recv = expr(attr->value);
      args.insert(args.begin(), recv);
      if (ft->symbol().rfind("list.", 0) == 0)
        refineList(attr->value, ft->symbol().substr(5), args);
      if (ft->symbol().rfind("set.", 0) == 0) refineSet(attr->value, ft->symbol().substr(4), args);
    }
  }
  // @jitclass: the class (its constructor), a method (the instance first),
  // a static method, the allocation in a constructor.
  if (ft->kind() == TypeKind::Function) {
    const std::string &sym = ft->symbol();
    if (sym.rfind("kjit.jitclass_new:", 0) == 0) {
      std::string error;
      const Type *t = jitClassType(ctx_.session(), tc_, sym.substr(18), error);
      if (!t) return typingError(c->loc, error);
      return ir_.intrinsic(IntrinsicId::ListNew, {constInt(1, c->loc)}, t, c->loc);
    }
    if (sym.rfind("jitclass:", 0) == 0 || sym.rfind("jitmethod:", 0) == 0 ||
        sym.rfind("jitstatic:", 0) == 0) {
      std::shared_ptr<FunctionSource> target = jitClassFunction(sym, c->loc);
      if (!target) return unknown(c->loc);
      if (sym.rfind("jitmethod:", 0) == 0) {
        auto *attr = ast::dyn_cast<ast::AttributeExpr>(c->func);
        if (!attr)  // the method without its instance: never a silent nothing
          return unsupported(c->loc,
                             "a method of a jitclass is called on its instance "
                             "(obj.method(...)), not through another name");
        Expr *recv = expr(attr->value);
        if (!known(recv)) return unknown(c->loc);
        args.insert(args.begin(), recv);
      }
      ft = prog_.jitFunctionType(target);
    }
  }
  if (ft->kind() == TypeKind::Function && ft->symbol().rfind("jit:", 0) == 0) {
    auto src = prog_.jitFunctions.find(ft);
    const ast::FunctionDef *def =
        src != prog_.jitFunctions.end() ? prog_.definition(*src->second) : nullptr;
    if (!def && !kwargs.empty())
      return unsupported(c->loc,
                         "keyword arguments in calls of this kjit function are not supported");
    // *args: the positional arguments past the others, packed in a tuple.
    bool varargs = def && !def->params.empty() && def->params.back().varargs;
    size_t named = def ? def->params.size() - (varargs ? 1 : 0) : 0;
    Expr *packed = nullptr;
    if (varargs) {
      std::vector<Expr *> extra;
      if (args.size() > named) {
        extra.assign(args.begin() + long(named), args.end());
        args.resize(named);
      }
      packed = ir_.tupleMake(std::move(extra), c->loc);
    }
    if (def && (!kwargs.empty() || args.size() < named)) {
      // Keyword arguments and defaults bound to positions, as Python does;
      // a default must be a constant (a number, a bool, None or a string).
      const std::string &fname = src->second->name;
      std::vector<Expr *> bound(std::max(args.size(), named), nullptr);
      std::copy(args.begin(), args.end(), bound.begin());
      for (auto &[name, v] : kwargs) {
        size_t k = 0;
        while (k < named && def->params[k].name != name) ++k;
        if (k == named)
          return typingError(
              v->loc, fmt::format("{}() got an unexpected keyword argument '{}'", fname, name));
        if (bound[k])
          return typingError(
              v->loc, fmt::format("{}() got multiple values for argument '{}'", fname, name));
        bound[k] = v;
      }
      for (size_t k = 0; k < named; ++k) {
        if (bound[k]) continue;
        const ast::Expr *d = def->params[k].defaultValue;
        if (!d) {
          size_t missing = 0;
          for (size_t j = k; j < named; ++j) missing += !bound[j] && !def->params[j].defaultValue;
          Expr *err = typingError(
              c->loc, fmt::format("{}() missing {} required positional argument{}: '{}'", fname,
                                  missing, missing == 1 ? "" : "s", def->params[k].name));
          ctx_.diags.note(def->loc, fmt::format("'{}' is defined here", fname));
          return err;
        }
        const ast::Expr *lit = d;
        if (auto *u = ast::dyn_cast<ast::UnaryExpr>(d)) lit = u->operand;
        if (!ast::isa<ast::IntLit>(lit) && !ast::isa<ast::FloatLit>(lit) &&
            !ast::isa<ast::ImagLit>(lit) && !ast::isa<ast::BoolLit>(lit) &&
            !ast::isa<ast::NoneLit>(lit) && !ast::isa<ast::StrLit>(d))
          return unsupported(c->loc,
                             fmt::format("the default of parameter '{}' of {}() must be a constant "
                                         "number, bool, string or None for kernels; pass the "
                                         "argument",
                                         def->params[k].name, fname));
        bound[k] = expr(d);
        if (!known(bound[k])) return unknown(c->loc);
      }
      args = std::move(bound);
    }
    if (packed) args.push_back(packed);
    if (auto d = prog_.declaredSignatures.find(ft); d != prog_.declaredSignatures.end())
      return callDeclared(src->second->name, ft, d->second, std::move(args), c->loc);
    // Compile-time values (dtypes, functions) and integer literals are
    // passed by specialising the callee on them, as Numba types them as
    // constants; only run-time values are passed at run time.
    std::vector<const Type *> types;
    std::vector<const Expr *> literals;
    std::vector<Expr *> runtimeArgs;
    for (Expr *a : args)
      if (hasUndefinedList(a->type) && !final_) return unknown(c->loc);
    for (Expr *a : args) {
      if (!a->type->isRuntime() && !compileTimeArg(a->type))
        return typingError(a->loc,
                           fmt::format("cannot pass {} to a kjit function", a->type->str()));
      types.push_back(a->type);
      literals.push_back(literalArg(a) ? a : nullptr);
      if (a->type->isRuntime()) runtimeArgs.push_back(a);
    }
    unsigned errorsBefore = ctx_.diags.errorCount();
    prog_.unresolved.clear();
    Function *f = specializeCallee(ft, types, c->loc, literals);
    // A recursive call whose return type is not known yet: typed in a later
    // pass, from the returns that do not recurse.
    for (const SpecKey &k : prog_.unresolved)
      if (!(k.identity == key_.identity && k.args == key_.args)) waitsFor_.insert(k);
    if (!prog_.unresolved.empty() && (!f || !f->returnType || final_)) {
      prog_.unresolved.clear();
      // After another error (a callee that failed to type leaves its
      // callers without a return type) this would only repeat it.
      if (final_ && ctx_.diags.errorCount() == 0)
        typingError(c->loc, fmt::format("cannot type infer runaway recursion: every path of "
                                        "'{}' calls itself before it returns a value",
                                        def_.name));
      return unknown(c->loc);
    }
    if (!f) {
      // An error in the callee's body (not at this call: arity, typing): say
      // where it was called.
      const auto &diags = ctx_.diags.diagnostics();
      if (ctx_.diags.errorCount() > errorsBefore && !diags.empty() &&
          (diags.back().loc.line != c->loc.line || diags.back().loc.col != c->loc.col))
        ctx_.diags.note(c->loc, fmt::format("resolving callee type: type({}(<function {}>)), "
                                            "called here",
                                            cudaTarget() ? "CUDADispatcher" : "CPUDispatcher",
                                            src->second->name));
      return unknown(c->loc);
    }
    prog_.unresolved.clear();
    if (!f) return unknown(c->loc);
    return ir_.call(f, std::move(runtimeArgs), c->loc);
  }
  // Builtins take the value of a value-or-None (TypeError when it is None).
  for (Expr *&a : args) a = unwrapOptional(a);
  for (auto &kw : kwargs) kw.second = unwrapOptional(kw.second);
  CallSite site{c->loc, std::move(args), std::move(kwargs), c};
  return typeBuiltinCall(*this, ft, site);
}

}  // namespace kjit::typing
