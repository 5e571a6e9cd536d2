// TypeInference.cpp - type inference's driver: variables and temporaries,
// conversions (castTo, truth), globals, the typing passes over a function,
// reads before assignment, and inferTypes. Expressions are in
// TypeExpressions.cpp, statements in TypeStatements.cpp, literal locals in
// TypeLiteralLocals.cpp, splitVariables in TypeSplitVariables.cpp.
#include "compiler/TypeInference.h"

#include <fmt/format.h>

#include <cctype>
#include <cstring>
#include <functional>
#include <map>
#include <set>

#include "compiler/ArrayExprs.h"
#include "compiler/Builtins.h"
#include "compiler/Signature.h"
#include "compiler/TyperImpl.h"

namespace kjit {

namespace typing {

std::string typeListKey(const std::vector<const Type *> &ts) {
  std::string s;
  for (const Type *t : ts) s += t->str() + ";";
  return s;
}

bool literalArg(const Expr *e) {
  if (auto *c = dyn_cast<Const>(e)) return c->type && (c->type->isInt() || c->type->isBool());
  if (auto *t = dyn_cast<TupleMake>(e)) {
    if (t->elems.empty()) return false;
    for (const Expr *x : t->elems)
      if (!isa<Const>(x) || !literalArg(x)) return false;
    return true;
  }
  return false;
}

std::string literalKey(const Expr *e) {
  if (auto *c = dyn_cast<Const>(e)) return std::to_string(c->i);
  std::string s = "(";
  for (const Expr *x : cast<TupleMake>(e)->elems) s += literalKey(x) + ",";
  return s + ")";
}

bool compileTimeArg(const Type *t) {
  switch (t->kind()) {
  case TypeKind::Module:
  case TypeKind::Dtype:
  case TypeKind::StringLit:
  case TypeKind::ExceptionClass: return true;
  case TypeKind::Function:
    return t->symbol().rfind("array.", 0) != 0 && t->symbol().rfind("number.", 0) != 0;
  default: return false;
  }
}

Expr *FunctionTyper::boundParam(size_t i, SourceLoc loc) {
  if (!args_[i]->isRuntime()) return constOf(args_[i], loc);
  std::function<Expr *(const Expr *)> copy = [&](const Expr *e) -> Expr * {
    if (auto *c = dyn_cast<Const>(e)) {
      if (c->type->isBool()) return constBool(c->i != 0, loc);
      return constInt(c->i, loc, c->type);
    }
    std::vector<Expr *> elems;
    for (const Expr *x : cast<TupleMake>(e)->elems) elems.push_back(copy(x));
    return ir_.tupleMake(std::move(elems), loc);
  };
  return copy(literals_[i]);
}

// ---------------------------------------------------------------------------

Var *FunctionTyper::newVar(const std::string &name, const Type *t, SourceLoc loc) {
  auto v = std::make_unique<Var>();
  v->name = name;
  v->type = t;
  v->loc = loc;
  v->id = unsigned(fn_->vars.size());
  fn_->vars.push_back(std::move(v));
  return fn_->vars.back().get();
}

Var *FunctionTyper::temp(Expr *value, Block &out) {
  Var *v = newVar(fmt::format("$t{}", tempCounter_++), value->type, value->loc);
  out.push_back(ir_.assign(v, value, value->loc));
  return v;
}

Expr *FunctionTyper::castTo(Expr *e, const Type *t) {
  if (!known(e) || !t || e->type == t) return e;
  if (t->isString() && e->type->kind() == TypeKind::StringLit) return runtimeString(e);
  if (t->isOptional()) {
    // None, a value or another optional becomes the value or None.
    if (e->type->isNone() || e->type->isOptional()) return ir_.cast(t, e, e->loc);
    Expr *v = castTo(e, t->dtype());
    return known(v) ? ir_.cast(t, v, e->loc) : v;
  }
  if (e->type->isOptional()) return castTo(unwrapOptional(e), t);
  if (e->type->isEnumMember() && (e->type->isIntEnum() || e->type->dtype() == t))
    return castTo(enumValue(e), t);  // IntEnum members are integers
  if (!e->type->isNumber() || !t->isNumber()) {
    if (e->type->isTuple() && t->isTuple() && e->type->elements().size() == t->elements().size()) {
      std::vector<Expr *> elems;
      for (size_t i = 0; i < t->elements().size(); ++i)
        elems.push_back(castTo(ir_.tupleGet(e, unsigned(i), e->loc), t->elements()[i]));
      return ir_.tupleMake(std::move(elems), e->loc);
    }
    if (e->type->isArray() && t->isArray() && e->type->dtype() == t->dtype() &&
        e->type->ndim() == t->ndim()) {
      return ir_.cast(t, e, e->loc);  // layout/readonly relaxation: same value
    }
    if (e->type->isDict() && t->isDict()) {
      // `{}` given its items' types: made again as a dict of them.
      if (auto *c = dyn_cast<Cast>(e); c && isa<TupleMake>(c->value)) return emptyDict(t, e->loc);
      return ir_.cast(t, e, e->loc);
    }
    if (e->type->isList() && t->isList() && !e->type->dtype()) {
      // `[]` given its elements' type: made as a list of them (its buffer is
      // sized by the element's size), or the same list.
      if (auto *in = dyn_cast<Intrinsic>(e); in && in->id == IntrinsicId::ListNew) {
        in->type = t;
        return in;
      }
      return ir_.cast(t, e, e->loc);
    }
    return typingError(e->loc, fmt::format("cannot convert {} to {}", e->type->str(), t->str()));
  }
  if (auto *c = dyn_cast<Const>(e)) {  // fold constant conversions
    Const *r = constOf(t, e->loc);
    const Type *from = c->type;
    if (t->isBool()) {
      r->i = from->isFloat()     ? c->f != 0
             : from->isComplex() ? (c->f != 0 || c->im != 0)
                                 : c->i != 0;
    } else if (t->isInt()) {
      int64_t v = from->isFloat() || from->isComplex() ? int64_t(c->f) : c->i;
      if (t->bits() < 64) {
        uint64_t mask = (uint64_t(1) << t->bits()) - 1;
        uint64_t u = uint64_t(v) & mask;
        if (t->isSigned() && (u >> (t->bits() - 1))) u |= ~mask;
        v = int64_t(u);
      }
      r->i = v;
      r->wraps = c->wraps;
    } else {
      double v = from->isFloat() || from->isComplex()   ? c->f
                 : (from->isInt() && !from->isSigned()) ? double(uint64_t(c->i))
                                                        : double(c->i);
      double im = from->isComplex() ? c->im : 0;
      if (t->isFloat()) {
        // In the target's precision (float32, float16, bfloat16, 8-bit):
        // float32(0.1) is 0.1f, also when it meets float64 values later.
        v = roundToFloatType(t, v);
      } else if (t->isComplex() && t->bits() == 64) {  // np.complex64(0.1) likewise
        v = double(float(v));
        im = double(float(im));
      }
      r->f = v;
      r->im = im;
    }
    return r;
  }
  return ir_.cast(t, e, e->loc);
}

Expr *FunctionTyper::truth(Expr *e) {
  if (!known(e)) return e;
  if (e->type->isEnumMember()) {
    if (e->type->isIntEnum()) return truth(enumValue(e));
    return constBool(true, e->loc);  // enum members are true
  }
  const Type *t = e->type;
  if (t->isBool()) return e;
  if (t->isNumber()) {
    return ir_.binary(BinOp::Ne, e, castTo(constInt(0, e->loc), t), e->loc);
  }
  if (t->isNone()) return constBool(false, e->loc);
  if (t->isOptional()) {
    // None is false; a value, its truth.
    Expr *valid = ir_.intrinsic(IntrinsicId::OptionalValid, {e}, tc_.boolean(), e->loc);
    Expr *value = truth(unwrapOptional(e));
    if (!known(value)) return value;
    return ir_.logical(true, valid, valid, valid, value, e->loc);
  }
  if (t->isTuple()) return constBool(!t->elements().empty(), e->loc);
  if (t->isArray())
    return typingError(e->loc, fmt::format("the truth value of an array ({}) is ambiguous; use "
                                           "a.any() or a.all(), or compare its size",
                                           t->str()));
  return typingError(e->loc, fmt::format("{} has no truth value in kernels", t->str()));
}

std::optional<GlobalValue> FunctionTyper::lookupGlobal(const std::string &name) {
  for (auto &[n, v] : globalsCache_)
    if (n == name) return v;
  std::optional<GlobalValue> g;
  if (src_->lookup) g = src_->lookup(name);
  if (!g) g = builtinGlobal(name);
  if (g) globalsCache_.emplace_back(name, *g);
  return g;
}

Expr *FunctionTyper::fromGlobal(const GlobalValue &g, const std::string &name, SourceLoc loc) {
  using K = GlobalValue::Kind;
  switch (g.kind) {
  case K::None: return constOf(tc_.none(), loc);
  case K::Bool: return constBool(g.i != 0, loc);
  case K::Int: return constInt(g.i, loc, g.isUnsigned ? tc_.intTy(64, false) : tc_.int64());
  case K::Float: return constFloat(g.f, loc);
  case K::Complex: {
    Const *c = constOf(tc_.complexTy(128), loc);
    c->f = g.f;
    c->im = g.im;
    return c;
  }
  case K::Tuple: {
    std::vector<Expr *> elems;
    for (size_t i = 0; i < g.elems.size(); ++i) {
      Expr *e = fromGlobal(g.elems[i], fmt::format("{}[{}]", name, i), loc);
      if (!known(e)) return e;
      elems.push_back(e);
    }
    return ir_.tupleMake(std::move(elems), loc);
  }
  case K::String: return constOf(tc_.stringLit(g.name), loc);
  case K::Module: return constOf(tc_.module(g.name), loc);
  case K::Function: return constOf(tc_.function(g.name), loc);
  case K::Dtype: {
    if (g.name == "unicode_type")
      return constOf(tc_.dtypeOf(tc_.str()), loc);  // types.unicode_type
    const Type *s = tc_.dtypeByName(g.name);        // a scalar, or a record's spec
    std::string why;
    if (!s && g.name.find('[') != std::string::npos)
      s = parseType(tc_, g.name, why);  // an array type: types.float64[:]
    if (!s)
      return unsupported(
          loc,
          fmt::format("global '{}' is the dtype {}, which kernels do not support", name, g.name));
    return constOf(tc_.dtypeOf(s), loc);
  }
  case K::ExceptionClass: return constOf(tc_.exceptionClass(g.name), loc);
  case K::JitClass:
    if (prog_.target == Target::CUDA)
      return unsupported(loc, fmt::format("@jitclass {} is not supported in kernels", name));
    return constOf(tc_.function("jitclass:" + g.name), loc);
  case K::JitFunction: {
    if (g.hostSignatures && prog_.target == Target::CUDA)
      return typingError(
          loc, fmt::format("Untyped global name '{}': using cpu function on device with explicit "
                           "signatures is not supported: a @jit function compiled for its "
                           "signatures only cannot be called from a kernel; decorate it with "
                           "@jit (no signature) or @cuda.jit(device=True)",
                           name));
    const Type *t = prog_.jitFunctionType(g.fn);
    if (!g.signatures.empty()) prog_.declaredSignatures[t] = g.signatures;
    return constOf(t, loc);
  }
  case K::Array: {
    const Type *dt = tc_.dtypeByName(g.name == "bool" ? "bool_" : g.name);
    if (!dt)
      return unsupported(
          loc, fmt::format("global array '{}' has dtype {}, which kernels do not support", name,
                           g.name));
    Const *c = constOf(tc_.array(dt, unsigned(g.shape.size()), Layout::C, /*readonly=*/true), loc);
    c->bytes = std::make_shared<const std::string>(g.bytes);
    c->shape = g.shape;
    return c;
  }
  case K::DeviceArray: {
    // Numba's capture of a device array: its memory by reference (the
    // address is compiled in), writable unless the array is read-only.
    const Type *dt = tc_.dtypeByName(g.name == "bool" ? "bool_" : g.name);
    if (!dt)
      return unsupported(
          loc, fmt::format("global device array '{}' has dtype {}, which kernels do not support",
                           name, g.name));
    int64_t item = itemSize(dt), expect = item;
    bool c = true, f = true;
    for (size_t k = g.shape.size(); k-- > 0;) {
      if (g.shape[k] != 1 && g.strides[k] != expect) c = false;
      expect *= g.shape[k];
    }
    expect = item;
    for (size_t k = 0; k < g.shape.size(); ++k) {
      if (g.shape[k] != 1 && g.strides[k] != expect) f = false;
      expect *= g.shape[k];
    }
    Layout layout = c ? Layout::C : f ? Layout::F : Layout::A;
    Const *a = constOf(tc_.array(dt, unsigned(g.shape.size()), layout, g.isUnsigned), loc);
    a->i = g.i;
    a->shape = g.shape;
    a->strides = g.strides;
    return a;
  }
  case K::EnumClass: {
    const Type *cls = tc_.enumClass(g.name, g.i != 0);
    prog_.enumClasses[g.name] = g;
    return constOf(cls, loc);
  }
  case K::EnumMember: {
    GlobalValue classValue = g;
    classValue.kind = K::EnumClass;
    const Type *cls = tc_.enumClass(g.name, g.i != 0);
    if (!prog_.enumClasses.count(g.name)) prog_.enumClasses[g.name] = classValue;
    return enumMember(cls, g.elems.empty() ? std::string() : g.elems[0].name, loc);
  }
  case K::Unsupported:
    return unsupported(loc, fmt::format("global '{}' is a {}, which kernels cannot use; kernels "
                                        "can use numbers, tuples, NumPy arrays, modules and kjit "
                                        "functions",
                                        name, g.name));
  }
  return unknown(loc);
}

// The member `name` of the enum class `cls`: its value, typed as a member.
Expr *FunctionTyper::enumMember(const Type *cls, const std::string &name, SourceLoc loc) {
  auto it = prog_.enumClasses.find(cls->symbol());
  if (it == prog_.enumClasses.end()) return unknown(loc);
  for (const GlobalValue &m : it->second.elems) {
    if (m.name != name) continue;
    Expr *v = fromGlobal(m, cls->symbol() + "." + name, loc);
    if (!known(v)) return v;
    if (!v->type->isRuntime())
      return unsupported(loc, fmt::format("the value of {}.{} ({}) is not one kernels can use",
                                          cls->symbol(), name, v->type->str()));
    return ir_.cast(tc_.enumMember(cls->symbol(), v->type, cls->isIntEnum()), v, loc);
  }
  return typingError(loc, fmt::format("enum class {} has no member '{}'", cls->symbol(), name));
}

// ---------------------------------------------------------------------------
// Locals (declared in TyperImpl.h)

void collectTargets(const ast::Expr *t, std::set<std::string> &out) {
  if (auto *n = ast::dyn_cast<ast::NameExpr>(t))
    out.insert(n->name);
  else if (auto *tu = ast::dyn_cast<ast::TupleExpr>(t))
    for (const ast::Expr *e : tu->elts) collectTargets(e, out);
  else if (auto *l = ast::dyn_cast<ast::ListExpr>(t))
    for (const ast::Expr *e : l->elts) collectTargets(e, out);
}

void collectLocals(const ast::StmtList &body, std::set<std::string> &out) {
  for (const ast::Stmt *s : body) {
    switch (s->kind()) {
    case ast::NodeKind::AssignStmt:
      for (const ast::Expr *t : ast::cast<ast::AssignStmt>(s)->targets) collectTargets(t, out);
      break;
    case ast::NodeKind::AugAssignStmt:
      collectTargets(ast::cast<ast::AugAssignStmt>(s)->target, out);
      break;
    case ast::NodeKind::AnnAssignStmt:
      collectTargets(ast::cast<ast::AnnAssignStmt>(s)->target, out);
      break;
    case ast::NodeKind::ForStmt: {
      auto *f = ast::cast<ast::ForStmt>(s);
      collectTargets(f->target, out);
      collectLocals(f->body, out);
      collectLocals(f->orelse, out);
      break;
    }
    case ast::NodeKind::WhileStmt:
      collectLocals(ast::cast<ast::WhileStmt>(s)->body, out);
      collectLocals(ast::cast<ast::WhileStmt>(s)->orelse, out);
      break;
    case ast::NodeKind::IfStmt:
      collectLocals(ast::cast<ast::IfStmt>(s)->body, out);
      collectLocals(ast::cast<ast::IfStmt>(s)->orelse, out);
      break;
    case ast::NodeKind::TryStmt: {
      auto *t = ast::cast<ast::TryStmt>(s);
      collectLocals(t->body, out);
      for (const ast::ExceptHandler &h : t->handlers) collectLocals(h.body, out);
      collectLocals(t->orelse, out);
      break;
    }
    case ast::NodeKind::FunctionDef: out.insert(ast::cast<ast::FunctionDef>(s)->name); break;
    default: break;
    }
  }
}

// ---------------------------------------------------------------------------

// Fresh state for one typing pass: the IR and the Vars of earlier passes are
// dropped, the variables' types are kept.
void FunctionTyper::beginPass(bool final) {
  final_ = final;
  changed_ = false;
  tempCounter_ = 0;
  fn_->body.clear();
  fn_->params.clear();
  fn_->vars.clear();
  nestedFns_.clear();
  for (auto &[n, info] : vars_) info.var = nullptr;
  for (size_t i = 0; i < def_.params.size(); ++i) {
    const ast::Param &p = def_.params[i];
    VarInfo &info = vars_[p.name];
    if (!args_[i]->isRuntime()) {
      // A compile-time value: no run-time parameter, reads give the value.
      info.type = info.firstType = args_[i];
      info.firstLoc = p.loc;
      boundParams_[p.name] = i;
      continue;
    }
    if (!info.type) {
      info.type = info.firstType = args_[i];
      info.firstLoc = p.loc;
    }
    // The parameter has the argument's type. When the body assigns the
    // name values of a wider type (x = x * 0.5 with an int x), the name is
    // a local of that type, set from the parameter on entry.
    bool widened =
        info.type != args_[i] && info.type && args_[i]->isNumber() && info.type->isNumber();
    Var *param = newVar(p.name, widened ? args_[i] : info.type, p.loc);
    param->isParam = true;
    fn_->params.push_back(param);
    info.var = param;
    if (widened) {
      info.var = newVar(p.name, info.type, p.loc);
      fn_->body.push_back(ir_.assign(info.var, castTo(ir_.varRef(param, p.loc), info.type), p.loc));
    }
  }
}

bool FunctionTyper::run() {
  if (def_.isGenerator && cudaTarget()) {
    ctx_.diags.error(DiagCategory::Unsupported, def_.yieldLoc,
                     "generators ('yield') are not supported in kernels");
    return false;
  }
  collectLocals(def_.body, locals_);
  // A literal argument binds a parameter the body never assigns.
  for (size_t i = 0; i < literals_.size() && i < def_.params.size(); ++i)
    if (literals_[i] && !locals_.count(def_.params[i].name)) boundParams_[def_.params[i].name] = i;
  for (const ast::Param &p : def_.params) locals_.insert(p.name);
  checkReadsBeforeAssignment();
  findLiteralLocals();
  // Passes until the variable types settle, then the final pass, which
  // reports errors and keeps its IR.
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    waitsFor_.clear();
    beginPass(false);
    block(def_.body, fn_->body);
    implicitReturn(fn_->body);
    if (!declared_ && returnType_ != fn_->returnType) {
      // Recursive calls see the return type found so far.
      fn_->returnType = returnType_;
      changed_ |= prog_.recursive.count(key_) > 0;
    }
    if (!changed_) break;
  }
  if (!waitsFor_.empty()) return true;  // provisional: no final pass
  beginPass(true);
  block(def_.body, fn_->body);
  implicitReturn(fn_->body);
  checkUndefinedLists();
  fn_->returnType = declared_     ? (declared_->kind() == TypeKind::Void ? tc_.none() : declared_)
                    : returnType_ ? returnType_
                                  : tc_.none();
  if (isKernel_ && !fn_->returnType->isNone()) {
    ctx_.diags.error(DiagCategory::Typing, firstReturnLoc_.valid() ? firstReturnLoc_ : def_.loc,
                     fmt::format("a kernel cannot return a value (this one returns {}); write the "
                                 "result into an array argument, or make '{}' a device function "
                                 "with @cuda.jit(device=True)",
                                 fn_->returnType->str(), def_.name));
  }
  return !ctx_.diags.hasErrors();
}

// A read of a local that no assignment can precede, along any path, is
// Python's UnboundLocalError; report it at compile time. Loops: what the
// body assigns may precede a read in the body (the back edge).
void FunctionTyper::checkReadsBeforeAssignment() {
  std::set<std::string> maybe;
  for (const ast::Param &p : def_.params) maybe.insert(p.name);
  std::function<void(const ast::Node *, const std::set<std::string> &)> reads =
      [&](const ast::Node *n, const std::set<std::string> &defined) {
        if (auto *name = ast::dyn_cast<ast::NameExpr>(n)) {
          if (locals_.count(name->name) && !defined.count(name->name) &&
              unboundReported_.insert(name->name).second)
            ctx_.diags.error(
                DiagCategory::Typing, name->loc,
                fmt::format("local variable '{}' is used before it is assigned a value",
                            name->name));
          return;
        }
        if (ast::isa<ast::LambdaExpr>(n)) return;
        ast::forEachChild(n, [&](const ast::Node *c) { reads(c, defined); });
      };
  // Reads in an assignment target: subscripts and attributes read their base.
  std::function<void(const ast::Expr *, const std::set<std::string> &)> targetReads =
      [&](const ast::Expr *t, const std::set<std::string> &defined) {
        if (auto *tu = ast::dyn_cast<ast::TupleExpr>(t)) {
          for (const ast::Expr *e : tu->elts) targetReads(e, defined);
        } else if (!ast::isa<ast::NameExpr>(t)) {
          reads(t, defined);
        }
      };
  std::function<void(const ast::StmtList &, std::set<std::string> &)> walk =
      [&](const ast::StmtList &body, std::set<std::string> &defined) {
        for (const ast::Stmt *s : body) {
          if (auto *a = ast::dyn_cast<ast::AssignStmt>(s)) {
            reads(a->value, defined);
            for (const ast::Expr *t : a->targets) targetReads(t, defined);
            for (const ast::Expr *t : a->targets) collectTargets(t, defined);
          } else if (auto *a = ast::dyn_cast<ast::AugAssignStmt>(s)) {
            reads(a->value, defined);
            reads(a->target, defined);
          } else if (auto *a = ast::dyn_cast<ast::AnnAssignStmt>(s)) {
            if (a->value) reads(a->value, defined);
            if (a->value) collectTargets(a->target, defined);
          } else if (auto *i = ast::dyn_cast<ast::IfStmt>(s)) {
            reads(i->test, defined);
            std::set<std::string> a = defined, b = defined;
            walk(i->body, a);
            walk(i->orelse, b);
            defined.insert(a.begin(), a.end());
            defined.insert(b.begin(), b.end());
          } else if (auto *w = ast::dyn_cast<ast::WhileStmt>(s)) {
            collectLocals(w->body, defined);  // the back edge
            reads(w->test, defined);
            walk(w->body, defined);
            walk(w->orelse, defined);
          } else if (auto *f = ast::dyn_cast<ast::ForStmt>(s)) {
            reads(f->iter, defined);
            collectTargets(f->target, defined);
            collectLocals(f->body, defined);  // the back edge
            walk(f->body, defined);
            walk(f->orelse, defined);
          } else if (auto *t = ast::dyn_cast<ast::TryStmt>(s)) {
            walk(t->body, defined);
            for (const ast::ExceptHandler &h : t->handlers) {
              if (h.type) reads(h.type, defined);
              walk(h.body, defined);
            }
            walk(t->orelse, defined);
          } else if (auto *d = ast::dyn_cast<ast::FunctionDef>(s)) {
            defined.insert(d->name);  // a nested function (TypeNestedDefs.cpp)
          } else {
            reads(s, defined);
          }
        }
      };
  walk(def_.body, maybe);
}

std::string FunctionTyper::forHost(const std::string &msg) {
  std::string out;
  size_t p = 0;
  // "in kernels", "kernels can use", "kernels cannot use": the kernel
  // language's phrasings.
  static const std::pair<const char *, const char *> kWords[] = {
      {"in kernels", "in @jit functions"},
      {"kernels can use", "@jit functions can use"},
      {"kernels cannot use", "@jit functions cannot use"}};
  while (p < msg.size()) {
    bool replaced = false;
    for (const auto &[from, to] : kWords) {
      size_t n = std::strlen(from);
      bool wordStart = p == 0 || !std::isalnum(static_cast<unsigned char>(msg[p - 1]));
      bool wordEnd = p + n >= msg.size() || !std::isalnum(static_cast<unsigned char>(msg[p + n]));
      if (wordStart && wordEnd && msg.compare(p, n, from) == 0) {
        out += to;
        p += n;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += msg[p++];
  }
  return out;
}

}  // namespace typing

using namespace ir;
using typing::FunctionTyper;
using typing::ProgramTyper;
using typing::SpecKey;
using typing::typeListKey;

// ---------------------------------------------------------------------------

const ast::FunctionDef *ProgramTyper::definition(const FunctionSource &fn) {
  if (auto it = definitions.find(fn.identity); it != definitions.end()) return it->second;
  ParseOptions opts;
  opts.onlyFunction = fn.name;
  opts.lambdas = fn.name == "<lambda>";
  opts.sourceMap = fn.sourceMap.get();
  ast::Module m = ctx.parse(fn.filename, fn.text, fn.firstLine, opts);
  ast::FunctionDef *def = nullptr;
  for (ast::FunctionDef *cand : m.functions)  // the last def of the name, as findFunction
    if (cand->name == fn.name) def = cand;
  if (opts.lambdas) {
    // The lambda whose parameters are the function's.
    def = nullptr;
    for (ast::FunctionDef *cand : m.functions) {
      std::vector<std::string> names;
      for (const ast::Param &p : cand->params) names.push_back(p.name);
      if (names == fn.paramNames) {
        def = cand;
        break;
      }
    }
  }
  if (def) {
    typing::dropUnreachable(*def);
    typing::splitVariables(*def);
  }
  definitions[fn.identity] = def;
  return def;
}

Function *ProgramTyper::specialize(std::shared_ptr<FunctionSource> fn,
                                   const std::vector<const Type *> &args, SourceLoc callLoc,
                                   const Type *declaredReturn,
                                   const std::vector<const Expr *> &givenLiterals) {
  // A function that calls itself is not specialised on literal arguments
  // there (fib(n - 1) with a literal n would specialise without end).
  std::vector<const Expr *> literals = givenLiterals;
  for (const SpecKey &k : inProgress)
    if (k.identity == fn->identity) literals.clear();
  SpecKey key{fn->identity, typeListKey(args)};
  for (size_t i = 0; i < literals.size(); ++i)
    if (literals[i]) key.args += fmt::format("#{}={}", i, literalKey(literals[i]));
  if (auto it = done.find(key); it != done.end()) return it->second;
  if (failed.count(key)) return nullptr;
  if (inProgress.count(key)) {
    // Recursion: the call has the declared return type, or the one found
    // so far; none yet means "wait for the next pass".
    recursive.insert(key);
    Function *f = inProgressFunctions[key];
    if (f && f->returnType) return f;
    unresolved.insert(key);
    return nullptr;
  }
  inProgress.insert(key);
  const ast::FunctionDef *def = definition(*fn);
  if (ctx.diags.hasErrors()) return nullptr;
  if (!def) {
    ctx.diags.error(DiagCategory::Compile, callLoc,
                    fmt::format("cannot find the source of function '{}'", fn->name));
    failed.insert(key);
    return nullptr;
  }
  if (!def->params.empty() && def->params.back().varargs && order.empty() &&
      inProgress.size() == 1) {
    // The function called from Python (a kernel, a @jit function) gets its
    // arguments one by one; *args packs them only in calls from jitted code.
    ctx.diags.error(DiagCategory::Unsupported, def->params.back().loc,
                    "*args parameters are supported in functions called from kernels and jitted "
                    "functions, not in the function called from Python; list the parameters");
    failed.insert(key);
    inProgress.erase(key);
    return nullptr;
  }
  if (args.size() != def->params.size()) {
    size_t n = def->params.size(), m = args.size();
    ctx.diags.error(DiagCategory::Typing, callLoc.valid() ? callLoc : def->loc,
                    m < n
                        ? fmt::format("{}() missing {} required positional argument{}: '{}'",
                                      fn->name, n - m, n - m == 1 ? "" : "s", def->params[m].name)
                        : fmt::format("{}() takes {} positional argument{} but {} {} given",
                                      fn->name, n, n == 1 ? "" : "s", m, m == 1 ? "was" : "were"));
    if (callLoc.valid()) ctx.diags.note(def->loc, fmt::format("'{}' is defined here", fn->name));
    failed.insert(key);
    inProgress.erase(key);
    return nullptr;
  }
  Function *f = ctx.irArena.makeFunction();
  f->name = fn->name;
  f->symbol = fmt::format("kjit_{}_{}", fn->name, symbolCounter++);
  f->loc = def->loc;
  f->fastmath = fn->fastmath;
  f->boundscheck = fn->boundscheck;
  f->numpyErrors = fn->numpyErrors;
  f->parallel = fn->parallel;
  if (declaredReturn)
    f->returnType = declaredReturn->kind() == TypeKind::Void ? ctx.types.none() : declaredReturn;
  inProgressFunctions[key] = f;
  FunctionTyper typer(*this, fn, *def, args, f, declaredReturn, literals);
  typer.key_ = key;
  typer.isKernel_ = kernel && order.empty() && inProgress.size() == 1;
  bool ok = typer.run();
  inProgress.erase(key);
  inProgressFunctions.erase(key);
  if (typer.provisional()) {
    // Typed again when its callers' return types are known.
    unresolved = typer.waitsFor();
    return f->returnType ? f : nullptr;
  }
  unresolved.clear();
  if (!ok) {
    // A function that failed to type has said why; if not (a compiler bug),
    // its callers must not compile without it.
    if (!ctx.diags.hasErrors())
      ctx.diags.error(DiagCategory::Compile, def->loc,
                      fmt::format("internal compiler error: '{}' failed to type without a "
                                  "diagnostic; please report it",
                                  def->name));
    failed.insert(key);
    return nullptr;
  }
  done[key] = f;
  order.push_back(f);
  return f;
}

TypedProgram inferTypes(Context &ctx, std::shared_ptr<FunctionSource> fn,
                        const std::vector<const Type *> &argTypes, const Type *declaredReturn,
                        Target target, bool kernel) {
  auto prog = std::make_shared<ProgramTyper>(ctx, target);
  prog->kernel = kernel;
  TypedProgram out;
  out.target = target;
  out.kernel = kernel;
  out.entry = prog->specialize(std::move(fn), argTypes, SourceLoc{}, declaredReturn);
  if (ctx.diags.hasErrors()) out.entry = nullptr;
  out.functions = prog->order;
  out.typer = std::move(prog);
  return out;
}

Function *typeForPass(TypedProgram &prog, std::shared_ptr<FunctionSource> fn,
                      const std::vector<const Type *> &args, SourceLoc loc,
                      std::vector<Function *> &added) {
  ProgramTyper &typer = *prog.typer;
  size_t before = typer.order.size();
  Function *f = typer.specialize(std::move(fn), args, loc);
  added.insert(added.end(), typer.order.begin() + std::ptrdiff_t(before), typer.order.end());
  return f && f->returnType && !typer.ctx.diags.hasErrors() ? f : nullptr;
}

}  // namespace kjit
