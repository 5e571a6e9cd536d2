#include "compiler/TypeInference.h"

#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>

#include "compiler/Builtins.h"
#include "compiler/TyperImpl.h"

namespace kjit {

namespace typing {

std::string typeListKey(const std::vector<const Type *> &ts) {
  std::string s;
  for (const Type *t : ts) s += t->str() + ";";
  return s;
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
  auto *a = make<Assign>(value->loc);
  a->var = v;
  a->value = value;
  out.push_back(a);
  return v;
}

Expr *FunctionTyper::castTo(Expr *e, const Type *t) {
  if (!known(e) || !t || e->type == t) return e;
  if (!e->type->isNumber() || !t->isNumber()) {
    if (e->type->isTuple() && t->isTuple() && e->type->elements().size() == t->elements().size()) {
      auto *tm = make<TupleMake>(e->loc);
      tm->type = t;
      for (size_t i = 0; i < t->elements().size(); ++i) {
        auto *g = make<TupleGet>(e->loc);
        g->tuple = e;
        g->index = unsigned(i);
        g->type = e->type->elements()[i];
        tm->elems.push_back(castTo(g, t->elements()[i]));
      }
      return tm;
    }
    if (e->type->isArray() && t->isArray() && e->type->dtype() == t->dtype() &&
        e->type->ndim() == t->ndim()) {
      auto *c = make<Cast>(e->loc);  // layout/readonly relaxation: same value
      c->value = e;
      c->type = t;
      return c;
    }
    return typingError(e->loc, fmt::format("cannot convert {} to {}", e->type->str(), t->str()));
  }
  if (auto *c = dyn_cast<Const>(e)) {  // fold constant conversions
    Const *r = constOf(t, e->loc);
    const Type *from = c->type;
    if (t->isBool()) {
      r->i = from->isFloat() ? c->f != 0 : from->isComplex() ? (c->f != 0 || c->im != 0) : c->i != 0;
    } else if (t->isInt()) {
      int64_t v = from->isFloat() || from->isComplex() ? int64_t(c->f) : c->i;
      if (t->bits() < 64) {
        uint64_t mask = (uint64_t(1) << t->bits()) - 1;
        uint64_t u = uint64_t(v) & mask;
        if (t->isSigned() && (u >> (t->bits() - 1))) u |= ~mask;
        v = int64_t(u);
      }
      r->i = v;
    } else {
      double v = from->isFloat() || from->isComplex() ? c->f
                 : (from->isInt() && !from->isSigned()) ? double(uint64_t(c->i))
                                                        : double(c->i);
      if (t->isFloat() && t->bits() == 32) v = double(float(v));
      r->f = v;
      r->im = from->isComplex() ? c->im : 0;
    }
    return r;
  }
  auto *c = make<Cast>(e->loc);
  c->value = e;
  c->type = t;
  return c;
}

Expr *FunctionTyper::truth(Expr *e) {
  if (!known(e)) return e;
  const Type *t = e->type;
  if (t->isBool()) return e;
  if (t->isNumber()) {
    auto *b = make<Binary>(e->loc);
    b->op = BinOp::Ne;
    b->lhs = e;
    b->rhs = castTo(constInt(0, e->loc), t);
    b->type = tc_.boolean();
    return b;
  }
  if (t->isNone()) return constBool(false, e->loc);
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
    auto *t = make<TupleMake>(loc);
    std::vector<const Type *> types;
    for (size_t i = 0; i < g.elems.size(); ++i) {
      Expr *e = fromGlobal(g.elems[i], fmt::format("{}[{}]", name, i), loc);
      if (!known(e)) return e;
      t->elems.push_back(e);
      types.push_back(e->type);
    }
    t->type = tc_.tuple(types);
    return t;
  }
  case K::String: return constOf(tc_.stringLit(g.name), loc);
  case K::Module: return constOf(tc_.module(g.name), loc);
  case K::Function: return constOf(tc_.function(g.name), loc);
  case K::Dtype: {
    const Type *s = tc_.scalarByName(g.name);
    if (!s) return unsupported(loc, fmt::format("global '{}' is the dtype {}, which kernels do not support", name, g.name));
    return constOf(tc_.dtypeOf(s), loc);
  }
  case K::ExceptionClass: return constOf(tc_.exceptionClass(g.name), loc);
  case K::JitFunction: return constOf(prog_.jitFunctionType(g.fn), loc);
  case K::Array: {
    const Type *dt = tc_.scalarByName(g.name == "bool" ? "bool_" : g.name);
    if (!dt)
      return unsupported(loc, fmt::format("global array '{}' has dtype {}, which kernels do not support", name, g.name));
    Const *c = constOf(tc_.array(dt, unsigned(g.shape.size()), Layout::C, /*readonly=*/true), loc);
    c->bytes = std::make_shared<const std::string>(g.bytes);
    c->shape = g.shape;
    return c;
  }
  case K::Unsupported:
    return unsupported(loc, fmt::format("global '{}' is a {}, which kernels cannot use; kernels "
                                        "can use numbers, tuples, NumPy arrays, modules and kjit "
                                        "functions",
                                        name, g.name));
  }
  return unknown(loc);
}

// ---------------------------------------------------------------------------
// Locals (declared in TyperImpl.h)

void collectTargets(const ast::Expr *t, std::set<std::string> &out) {
  if (auto *n = ast::dyn_cast<ast::NameExpr>(t)) out.insert(n->name);
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
    case ast::NodeKind::AugAssignStmt: collectTargets(ast::cast<ast::AugAssignStmt>(s)->target, out); break;
    case ast::NodeKind::AnnAssignStmt: collectTargets(ast::cast<ast::AnnAssignStmt>(s)->target, out); break;
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
  for (auto &[n, info] : vars_) info.var = nullptr;
  for (size_t i = 0; i < def_.params.size(); ++i) {
    const ast::Param &p = def_.params[i];
    VarInfo &info = vars_[p.name];
    if (!info.type) {
      info.type = info.firstType = args_[i];
      info.firstLoc = p.loc;
    }
    // The parameter has the argument's type. When the body assigns the
    // name values of a wider type (x = x * 0.5 with an int x), the name is
    // a local of that type, set from the parameter on entry.
    bool widened = info.type != args_[i] && info.type && args_[i]->isNumber() && info.type->isNumber();
    Var *param = newVar(p.name, widened ? args_[i] : info.type, p.loc);
    param->isParam = true;
    fn_->params.push_back(param);
    info.var = param;
    if (widened) {
      info.var = newVar(p.name, info.type, p.loc);
      auto *ref = make<VarRef>(p.loc);
      ref->var = param;
      ref->type = args_[i];
      auto *init = make<Assign>(p.loc);
      init->var = info.var;
      init->value = castTo(ref, info.type);
      fn_->body.push_back(init);
    }
  }
}

bool FunctionTyper::run() {
  collectLocals(def_.body, locals_);
  for (const ast::Param &p : def_.params) locals_.insert(p.name);
  checkReadsBeforeAssignment();
  // Passes until the variable types settle, then the final pass, which
  // reports errors and keeps its IR.
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    beginPass(false);
    block(def_.body, fn_->body);
    if (!changed_) break;
  }
  beginPass(true);
  block(def_.body, fn_->body);
  fn_->returnType = declared_ ? (declared_->kind() == TypeKind::Void ? tc_.none() : declared_)
                             : returnType_ ? returnType_ : tc_.none();
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
          if (locals_.count(name->name) && !defined.count(name->name) && unboundReported_.insert(name->name).second)
            ctx_.diags.error(DiagCategory::Typing, name->loc,
                             fmt::format("local variable '{}' is used before it is assigned a value", name->name));
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
          } else if (ast::isa<ast::FunctionDef>(s)) {
            continue;
          } else {
            reads(s, defined);
          }
        }
      };
  walk(def_.body, maybe);
}

// Expressions

Expr *FunctionTyper::name(const ast::NameExpr *n) {
  if (locals_.count(n->name)) {
    VarInfo &info = vars_[n->name];
    if (!info.type || info.conflictReported) {
      if (final_ && !info.type && !info.conflictReported && !unboundReported_.count(n->name))
        return typingError(n->loc, fmt::format("local variable '{}' is used before it is "
                                               "assigned a value",
                                               n->name));
      return unknown(n->loc);
    }
    if (!info.var) info.var = newVar(n->name, info.type, n->loc);
    auto *r = make<VarRef>(n->loc);
    r->var = info.var;
    r->type = info.type;
    return r;
  }
  std::optional<GlobalValue> g = lookupGlobal(n->name);
  if (!g) return typingError(n->loc, fmt::format("name '{}' is not defined", n->name));
  return fromGlobal(*g, n->name, n->loc);
}

Expr *FunctionTyper::expr(const ast::Expr *e) {
  using NK = ast::NodeKind;
  switch (e->kind()) {
  case NK::NameExpr: return name(ast::cast<ast::NameExpr>(e));
  case NK::IntLit: {
    auto *i = ast::cast<ast::IntLit>(e);
    if (i->tooLarge) return typingError(e->loc, fmt::format("integer literal {} does not fit in 64 bits", i->text));
    if (i->value > uint64_t(INT64_MAX)) return constInt(int64_t(i->value), e->loc, tc_.intTy(64, false));
    return constInt(int64_t(i->value), e->loc);
  }
  case NK::FloatLit: return constFloat(ast::cast<ast::FloatLit>(e)->value, e->loc);
  case NK::ImagLit: {
    Const *c = constOf(tc_.complexTy(128), e->loc);
    c->im = ast::cast<ast::ImagLit>(e)->value;
    return c;
  }
  case NK::BoolLit: return constBool(ast::cast<ast::BoolLit>(e)->value, e->loc);
  case NK::NoneLit: return constOf(tc_.none(), e->loc);
  case NK::StrLit: {
    auto *s = ast::cast<ast::StrLit>(e);
    if (s->isBytes) return unsupported(e->loc, "bytes literals are not supported in kernels");
    return constOf(tc_.stringLit(s->value), e->loc);
  }
  case NK::EllipsisLit: return unsupported(e->loc, "'...' is not supported in kernels");
  case NK::UnaryExpr: return unary(ast::cast<ast::UnaryExpr>(e));
  case NK::BinaryExpr: {
    auto *b = ast::cast<ast::BinaryExpr>(e);
    Expr *l = expr(b->lhs);
    Expr *r = expr(b->rhs);
    return binary(b->op, l, r, e->loc);
  }
  case NK::BoolOpExpr: return boolOp(ast::cast<ast::BoolOpExpr>(e));
  case NK::CompareExpr: return compare(ast::cast<ast::CompareExpr>(e));
  case NK::IfExpr: return ifExpr(ast::cast<ast::IfExpr>(e));
  case NK::CallExpr: return call(ast::cast<ast::CallExpr>(e));
  case NK::AttributeExpr: return attribute(ast::cast<ast::AttributeExpr>(e));
  case NK::SubscriptExpr: return subscript(ast::cast<ast::SubscriptExpr>(e));
  case NK::TupleExpr: {
    auto *t = ast::cast<ast::TupleExpr>(e);
    auto *tm = make<TupleMake>(e->loc);
    std::vector<const Type *> types;
    bool ok = true;
    for (const ast::Expr *x : t->elts) {
      Expr *v = expr(x);
      ok &= known(v);
      if (!ok) continue;
      if (!v->type->isRuntime()) {
        // Tuples of dtypes etc. only matter as call arguments (shapes).
        return typingError(x->loc, fmt::format("a tuple cannot hold {}", v->type->str()));
      }
      tm->elems.push_back(v);
      types.push_back(v->type);
    }
    if (!ok) return unknown(e->loc);
    tm->type = tc_.tuple(types);
    return tm;
  }
  case NK::ListExpr:
    return unsupported(e->loc, "list literals are not supported in kernels; use a tuple, or an "
                               "array from np.empty/np.zeros");
  case NK::SliceExpr: return unsupported(e->loc, "a slice can only appear in an array subscript");
  case NK::LambdaExpr:
    return unsupported(e->loc, "lambda is only supported as the argument of cuda.reduce and "
                               "vectorize-style factories");
  case NK::ErrorExpr: return unknown(e->loc);
  default: return unsupported(e->loc, "unsupported expression");
  }
}

static BinOp toBinOp(ast::BinaryOp op) {
  switch (op) {
  case ast::BinaryOp::Add: return BinOp::Add;
  case ast::BinaryOp::Sub: return BinOp::Sub;
  case ast::BinaryOp::Mul: return BinOp::Mul;
  case ast::BinaryOp::Div: return BinOp::Div;
  case ast::BinaryOp::FloorDiv: return BinOp::FloorDiv;
  case ast::BinaryOp::Mod: return BinOp::Mod;
  case ast::BinaryOp::Pow: return BinOp::Pow;
  case ast::BinaryOp::LShift: return BinOp::LShift;
  case ast::BinaryOp::RShift: return BinOp::RShift;
  case ast::BinaryOp::BitAnd: return BinOp::BitAnd;
  case ast::BinaryOp::BitOr: return BinOp::BitOr;
  case ast::BinaryOp::BitXor: return BinOp::BitXor;
  case ast::BinaryOp::MatMul: return BinOp::Mul;
  }
  return BinOp::Add;
}

// A negative integer constant: -3 (a Const, or the negation of one).
static bool isNegativeConstant(const Expr *e) {
  if (auto *c = dyn_cast<Const>(e)) return c->type->isInt() && c->i < 0;
  if (auto *u = dyn_cast<Unary>(e))
    if (u->op == UnOp::Neg)
      if (auto *c = dyn_cast<Const>(u->operand)) return c->type->isInt() && c->i > 0;
  return false;
}

Expr *FunctionTyper::binary(ast::BinaryOp aop, Expr *l, Expr *r, SourceLoc loc) {
  if (!known(l) || !known(r)) return unknown(loc);
  const Type *lt = l->type, *rt = r->type;
  if (aop == ast::BinaryOp::MatMul)
    return unsupported(loc, "the '@' operator is not supported in kernels yet");
  if (!lt->isNumber() || !rt->isNumber()) {
    if (aop == ast::BinaryOp::Add && lt->isTuple() && rt->isTuple()) {
      auto *tm = make<TupleMake>(loc);
      std::vector<const Type *> types;
      for (Expr *side : {l, r})
        for (size_t i = 0; i < side->type->elements().size(); ++i) {
          auto *g = make<TupleGet>(loc);
          g->tuple = side;
          g->index = unsigned(i);
          g->type = side->type->elements()[i];
          tm->elems.push_back(g);
          types.push_back(g->type);
        }
      tm->type = tc_.tuple(types);
      return tm;
    }
    if (lt->isArray() || rt->isArray())
      return unsupported(loc, fmt::format("array expressions ({} {} {}) are not supported in "
                                          "kernels yet; write the loop",
                                          lt->str(), ast::spelling(aop), rt->str()));
    return typingError(loc, fmt::format("unsupported operand types for {}: {} and {}",
                                        ast::spelling(aop), lt->str(), rt->str()));
  }
  BinOp op = toBinOp(aop);
  const Type *t = nullptr;
  bool bothIntLike = (lt->isInt() || lt->isBool()) && (rt->isInt() || rt->isBool());
  switch (op) {
  case BinOp::Div:
    t = bothIntLike ? tc_.float64() : arithmeticResult(tc_, lt, rt);
    break;
  case BinOp::BitAnd:
  case BinOp::BitOr:
  case BinOp::BitXor:
    if (lt->isBool() && rt->isBool()) {
      t = tc_.boolean();
      break;
    }
    if (!bothIntLike)
      return typingError(loc, fmt::format("unsupported operand types for {}: {} and {}",
                                          ast::spelling(aop), lt->str(), rt->str()));
    t = arithmeticResult(tc_, lt, rt);
    break;
  case BinOp::LShift:
  case BinOp::RShift: {
    if (!bothIntLike)
      return typingError(loc, fmt::format("unsupported operand types for {}: {} and {}",
                                          ast::spelling(aop), lt->str(), rt->str()));
    t = tc_.intTy(64, !(lt->isInt() && !lt->isSigned()));
    auto *b = make<Binary>(loc);
    b->op = op;
    b->lhs = castTo(l, t);
    b->rhs = castTo(r, t);
    b->type = t;
    return b;
  }
  case BinOp::Pow:
    if (bothIntLike && isNegativeConstant(r)) {
      // 10 ** -3 is a float, as in Python and Numba (a negative literal
      // exponent; one known only at run time gives an integer, as NumPy's).
      auto *in = make<Intrinsic>(loc);
      in->id = IntrinsicId::Pow;
      in->args = {castTo(l, tc_.float64()), castTo(r, tc_.float64())};
      in->type = tc_.float64();
      return in;
    }
    if (bothIntLike) {
      t = arithmeticResult(tc_, lt, rt);
      auto *in = make<Intrinsic>(loc);
      in->id = IntrinsicId::IntPow;
      in->args = {castTo(l, t), castTo(r, t)};
      in->type = t;
      return in;
    }
    t = arithmeticResult(tc_, lt, rt);
    break;
  default: t = arithmeticResult(tc_, lt, rt); break;
  }
  if (!t) return typingError(loc, "invalid operand types");
  if (t->isComplex() && (op == BinOp::FloorDiv || op == BinOp::Mod))
    return typingError(loc, fmt::format("unsupported operand types for {}: {} and {}",
                                        ast::spelling(aop), lt->str(), rt->str()));
  if (op == BinOp::Pow && (lt->isFloat() && (rt->isInt() || rt->isBool()))) {
    // float ** int by repeated multiplication, in the float's width (Numba:
    // float32 ** int stays float32).
    auto *in = make<Intrinsic>(loc);
    in->id = IntrinsicId::PowI;
    in->args = {l, castTo(r, tc_.int64())};
    in->type = lt;
    return in;
  }
  if (op == BinOp::Pow) {
    if (t->isComplex()) return unsupported(loc, "complex '**' is not supported yet");
    auto *in = make<Intrinsic>(loc);
    in->id = IntrinsicId::Pow;
    in->args = {castTo(l, t), castTo(r, t)};
    in->type = t;
    return in;
  }
  auto *b = make<Binary>(loc);
  b->op = op;
  b->lhs = castTo(l, t);
  b->rhs = castTo(r, t);
  b->type = t;
  return b;
}

Expr *FunctionTyper::unary(const ast::UnaryExpr *u) {
  Expr *v = expr(u->operand);
  if (!known(v)) return v;
  const Type *t = v->type;
  if (u->op == ast::UnaryOp::Not) {
    Expr *b = truth(v);
    if (!known(b)) return b;
    auto *n = make<Unary>(u->loc);
    n->op = UnOp::Not;
    n->operand = b;
    n->type = tc_.boolean();
    return n;
  }
  if (!t->isNumber())
    return typingError(u->loc, fmt::format("bad operand type for unary {}: {}",
                                           ast::spelling(u->op) + (u->op == ast::UnaryOp::Invert ? 0 : 1),
                                           t->str()));
  const Type *rt = t;
  if (t->isBool() || t->isInt()) rt = tc_.intTy(64, t->isInt() ? t->isSigned() : true);
  if (u->op == ast::UnaryOp::Pos) return castTo(v, rt);
  if (auto *c = dyn_cast<Const>(castTo(v, rt)); c && u->op == ast::UnaryOp::Neg && !rt->isComplex()) {
    // Fold -constant, so that t[-1] and range(n, 0, -1) see constants.
    Const *r = constOf(rt, u->loc);
    r->i = int64_t(0 - uint64_t(c->i));
    r->f = -c->f;
    return r;
  }
  if (u->op == ast::UnaryOp::Invert) {
    if (t->isBool()) {  // ~True == -2, as in Python
      rt = tc_.int64();
    } else if (!t->isInt()) {
      return typingError(u->loc, fmt::format("bad operand type for unary ~: {}", t->str()));
    }
  }
  auto *n = make<Unary>(u->loc);
  n->op = u->op == ast::UnaryOp::Neg ? UnOp::Neg : UnOp::Invert;
  n->operand = castTo(v, rt);
  n->type = rt;
  return n;
}

Expr *FunctionTyper::compareOne(ast::CmpOp op, Expr *l, Expr *r, SourceLoc loc) {
  if (!known(l) || !known(r)) return unknown(loc);
  const Type *lt = l->type, *rt = r->type;
  if (op == ast::CmpOp::Is || op == ast::CmpOp::IsNot) {
    // Only identity with None has a meaning here; it is known statically.
    if (lt->isNone() || rt->isNone()) {
      bool same = lt->isNone() && rt->isNone();
      return constBool(op == ast::CmpOp::Is ? same : !same, loc);
    }
    return unsupported(loc, "'is' is only supported for comparisons with None in kernels");
  }
  if (op == ast::CmpOp::In || op == ast::CmpOp::NotIn)
    return unsupported(loc, "'in' is not supported in kernels yet");
  if (!lt->isNumber() || !rt->isNumber())
    return typingError(loc, fmt::format("cannot compare {} and {}", lt->str(), rt->str()));
  const Type *t = promoteNumeric(tc_, lt, rt);
  if (lt->isBool() && rt->isBool()) t = tc_.boolean();
  BinOp bop = BinOp::Eq;
  switch (op) {
  case ast::CmpOp::Lt: bop = BinOp::Lt; break;
  case ast::CmpOp::Gt: bop = BinOp::Gt; break;
  case ast::CmpOp::Le: bop = BinOp::Le; break;
  case ast::CmpOp::Ge: bop = BinOp::Ge; break;
  case ast::CmpOp::Eq: bop = BinOp::Eq; break;
  case ast::CmpOp::Ne: bop = BinOp::Ne; break;
  default: break;
  }
  if (t->isComplex() && bop != BinOp::Eq && bop != BinOp::Ne)
    return typingError(loc, fmt::format("'{}' is not supported between complex numbers", ast::spelling(op)));
  auto *b = make<Binary>(loc);
  b->op = bop;
  // Mixed signed/unsigned 64-bit comparisons compare as float64 (promotion).
  b->lhs = castTo(l, t);
  b->rhs = castTo(r, t);
  b->type = tc_.boolean();
  return b;
}

Expr *FunctionTyper::compare(const ast::CompareExpr *c) {
  // a < b < c  ==  (a < b) and (b < c), with b evaluated once: the middle
  // operands are simple enough in practice that re-evaluation is avoided by
  // the typer only for calls; kernels rarely chain calls.
  Expr *lhs = expr(c->lhs);
  Expr *result = nullptr;
  for (size_t i = 0; i < c->ops.size(); ++i) {
    Expr *rhs = expr(c->comparators[i]);
    Expr *cmp = compareOne(c->ops[i], lhs, rhs, c->loc);
    if (!known(cmp)) return cmp;
    if (!result) {
      result = cmp;
    } else {
      auto *lg = make<Logical>(c->loc);
      lg->isAnd = true;
      lg->lhs = result;
      lg->lhsTruth = result;
      lg->operand = result;
      lg->rhs = cmp;
      lg->type = tc_.boolean();
      result = lg;
    }
    lhs = rhs;
  }
  return result;
}

Expr *FunctionTyper::boolOp(const ast::BoolOpExpr *b) {
  // Python returns one of the operands; the result type unifies them.
  std::vector<Expr *> vals;
  for (const ast::Expr *x : b->values) {
    Expr *v = expr(x);
    if (!known(v)) return unknown(b->loc);
    vals.push_back(v);
  }
  const Type *t = vals[0]->type;
  for (Expr *v : vals) {
    const Type *u = unify(tc_, t, v->type);
    if (!u || !u->isRuntime())
      return typingError(b->loc, fmt::format("cannot unify {} and {} in '{}'", t->str(),
                                             v->type->str(), ast::spelling(b->op)));
    t = u;
  }
  Expr *acc = castTo(vals.back(), t);
  for (size_t i = vals.size() - 1; i-- > 0;) {
    auto *lg = make<Logical>(b->loc);
    lg->isAnd = b->op == ast::BoolOp::And;
    lg->lhs = castTo(vals[i], t);
    lg->lhsTruth = truth(vals[i]);
    lg->operand = vals[i];
    if (!known(lg->lhsTruth)) return lg->lhsTruth;
    lg->rhs = acc;
    lg->type = t;
    acc = lg;
  }
  return acc;
}

Expr *FunctionTyper::ifExpr(const ast::IfExpr *e) {
  Expr *c = truth(expr(e->test));
  Expr *a = expr(e->body);
  Expr *b = expr(e->orelse);
  if (!known(c) || !known(a) || !known(b)) return unknown(e->loc);
  const Type *t = unify(tc_, a->type, b->type);
  if (!t || !t->isRuntime())
    return typingError(e->loc, fmt::format("cannot unify {} and {} in the conditional expression",
                                           a->type->str(), b->type->str()));
  return select(c, a, b, e->loc);
}

Expr *FunctionTyper::select(Expr *cond, Expr *a, Expr *b, SourceLoc loc) {
  const Type *t = unify(tc_, a->type, b->type);
  auto *s = make<Select>(loc);
  s->cond = cond;
  s->ifTrue = castTo(a, t);
  s->ifFalse = castTo(b, t);
  s->type = t;
  return s;
}

Expr *FunctionTyper::attribute(const ast::AttributeExpr *a) {
  Expr *v = expr(a->value);
  if (!known(v)) return v;
  const Type *t = v->type;
  if (t->kind() == TypeKind::Module) {
    if (t->symbol().rfind("kjit.cuda", 0) == 0) {
      if (Expr *e = typeCudaAttribute(*this, t->symbol(), a->attr, a->loc, cudaTarget())) return e;
    }
    std::optional<GlobalValue> g = moduleAttribute(t->symbol(), a->attr);
    if (!g)
      return typingError(a->loc, fmt::format("module '{}' has no attribute '{}' that kernels can "
                                             "use",
                                             t->symbol(), a->attr));
    return fromGlobal(*g, t->symbol() + "." + a->attr, a->loc);
  }
  if (t->isArray()) {
    auto shapeOf = [&](unsigned d) {
      auto *in = make<Intrinsic>(a->loc);
      in->id = IntrinsicId::ArrayShape;
      in->args = {v, constInt(d, a->loc)};
      in->type = tc_.int64();
      return in;
    };
    if (a->attr == "shape" || a->attr == "strides") {
      auto *tm = make<TupleMake>(a->loc);
      std::vector<const Type *> types;
      for (unsigned d = 0; d < t->ndim(); ++d) {
        if (a->attr == "shape") {
          tm->elems.push_back(shapeOf(d));
        } else {
          auto *in = make<Intrinsic>(a->loc);
          in->id = IntrinsicId::ArrayStride;
          in->args = {v, constInt(d, a->loc)};
          in->type = tc_.int64();
          tm->elems.push_back(in);
        }
        types.push_back(tc_.int64());
      }
      tm->type = tc_.tuple(types);
      return tm;
    }
    if (a->attr == "size") {
      Expr *n = constInt(1, a->loc);
      for (unsigned d = 0; d < t->ndim(); ++d) n = binary(ast::BinaryOp::Mul, n, shapeOf(d), a->loc);
      return n;
    }
    if (a->attr == "ndim") return constInt(t->ndim(), a->loc);
    if (a->attr == "itemsize") return constInt(t->dtype()->bits() / 8, a->loc);
    if (a->attr == "nbytes") {
      Expr *n = constInt(t->dtype()->bits() / 8, a->loc);
      for (unsigned d = 0; d < t->ndim(); ++d) n = binary(ast::BinaryOp::Mul, n, shapeOf(d), a->loc);
      return n;
    }
    if (a->attr == "dtype") return constOf(tc_.dtypeOf(t->dtype()), a->loc);
    if (a->attr == "T") {
      if (t->ndim() < 2) return v;
      auto *in = make<Intrinsic>(a->loc);
      in->id = IntrinsicId::ArrayTranspose;
      in->args = {v};
      Layout l = t->layout() == Layout::C ? Layout::F : t->layout() == Layout::F ? Layout::C : Layout::A;
      in->type = tc_.array(t->dtype(), t->ndim(), l, t->readonly());
      return in;
    }
    // Methods: a.sum() etc. are typed at the call.
    return constOf(tc_.function("array." + a->attr), a->loc);
  }
  if (t->isComplex() || t->isFloat() || t->isInt() || t->isBool()) {
    if (a->attr == "real" || a->attr == "imag") {
      if (!t->isComplex()) {
        if (a->attr == "real") return v;
        return castTo(constInt(0, a->loc), t->isBool() ? tc_.int64() : t);
      }
      auto *in = make<Intrinsic>(a->loc);
      in->id = a->attr == "real" ? IntrinsicId::Real : IntrinsicId::Imag;
      in->args = {v};
      in->type = t->complexPart();
      return in;
    }
    if (a->attr == "conjugate") return constOf(tc_.function("number.conjugate"), a->loc);
  }
  return typingError(a->loc, fmt::format("{} has no attribute '{}'", t->str(), a->attr));
}

Expr *FunctionTyper::subscript(const ast::SubscriptExpr *s) {
  Expr *v = expr(s->value);
  if (!known(v)) {
    expr(s->index);
    return v;
  }
  const Type *t = v->type;
  std::vector<const ast::Expr *> idx;
  if (auto *tu = ast::dyn_cast<ast::TupleExpr>(s->index); tu && !tu->parenthesized)
    idx.assign(tu->elts.begin(), tu->elts.end());
  else if (auto *tu2 = ast::dyn_cast<ast::TupleExpr>(s->index))
    idx.assign(tu2->elts.begin(), tu2->elts.end());
  else
    idx.push_back(s->index);

  if (t->isTuple()) {
    if (idx.size() != 1 || ast::isa<ast::SliceExpr>(idx[0]))
      return unsupported(s->loc, "tuples can only be indexed by one constant integer in kernels");
    Expr *i = expr(idx[0]);
    if (!known(i)) return i;
    auto *c = dyn_cast<Const>(i);
    if (!c && t->isHomogeneousTuple() && (i->type->isInt() || i->type->isBool())) {
      // t[i] at run time: the tuple's elements share one type.
      auto *g = make<TupleGet>(s->loc);
      g->tuple = v;
      g->dynIndex = castTo(i, tc_.int64());
      g->type = t->elements()[0];
      return g;
    }
    if (!c || !i->type->isInt())
      return unsupported(idx[0]->loc, fmt::format("a tuple ({}) can only be indexed by a constant "
                                                  "integer, or by any integer when its elements share "
                                                  "one type",
                                                  t->str()));
    int64_t k = c->i;
    int64_t n = int64_t(t->elements().size());
    if (k < 0) k += n;
    if (k < 0 || k >= n) return typingError(idx[0]->loc, fmt::format("tuple index {} out of range for {}", c->i, t->str()));
    auto *g = make<TupleGet>(s->loc);
    g->tuple = v;
    g->index = unsigned(k);
    g->type = t->elements()[size_t(k)];
    return g;
  }
  if (!t->isArray()) return typingError(s->loc, fmt::format("{} is not subscriptable", t->str()));
  if (idx.size() > t->ndim())
    return typingError(s->loc, fmt::format("too many indices for an array of {} dimensions: {}",
                                           t->ndim(), idx.size()));
  bool allInts = idx.size() == t->ndim();
  std::vector<SliceSpec> specs;
  std::vector<Expr *> ints;
  for (const ast::Expr *ie : idx) {
    SliceSpec sp;
    if (auto *sl = ast::dyn_cast<ast::SliceExpr>(ie)) {
      allInts = false;
      auto bound = [&](const ast::Expr *b) -> Expr * {
        if (!b) return nullptr;
        return intIndex(b, expr(b));
      };
      sp.start = bound(sl->lower);
      sp.stop = bound(sl->upper);
      sp.step = bound(sl->step);
      if ((sl->lower && !known(sp.start)) || (sl->upper && !known(sp.stop)) ||
          (sl->step && !known(sp.step)))
        return unknown(s->loc);
    } else {
      Expr *i = expr(ie);
      if (!known(i)) return i;
      if (i->type->isArray())
        return unsupported(ie->loc, "indexing an array with an array (fancy indexing) is not "
                                    "supported in kernels yet");
      i = intIndex(ie, i);
      if (!known(i)) return i;
      sp.isIndex = true;
      sp.start = i;
      ints.push_back(i);
    }
    specs.push_back(sp);
  }
  if (allInts) {
    auto *ld = make<ArrayLoad>(s->loc);
    ld->array = v;
    ld->indices = ints;
    ld->type = t->dtype();
    ld->boundscheck = boundscheck();
    return ld;
  }
  unsigned dropped = 0;
  for (const SliceSpec &sp : specs) dropped += sp.isIndex;
  auto *view = make<ArrayView>(s->loc);
  view->array = v;
  view->specs = std::move(specs);
  view->boundscheck = boundscheck();
  // Numba's rule: a C array stays C when the indices are integers followed
  // by at most one slice without a step, as the last explicit index.
  Layout l = Layout::A;
  if (t->layout() == Layout::C) {
    bool keeps = true;
    for (size_t k = 0; k < view->specs.size(); ++k) {
      const SliceSpec &sp = view->specs[k];
      if (!sp.isIndex && (sp.step || k + 1 != view->specs.size())) keeps = false;
    }
    if (keeps) l = Layout::C;
  }
  view->type = tc_.array(t->dtype(), t->ndim() - dropped, l, t->readonly());
  return view;
}

Expr *FunctionTyper::call(const ast::CallExpr *c) {
  Expr *callee = expr(c->func);
  if (!known(callee)) {
    for (const ast::Expr *a : c->args) expr(a);
    return unknown(c->loc);
  }
  std::vector<Expr *> args;
  std::vector<std::pair<std::string, Expr *>> kwargs;
  bool ok = true;
  for (const ast::Expr *a : c->args) {
    Expr *v = expr(a);
    ok &= known(v);
    args.push_back(v);
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
      (ft->symbol().rfind("array.", 0) == 0 || ft->symbol().rfind("number.", 0) == 0)) {
    if (auto *attr = ast::dyn_cast<ast::AttributeExpr>(c->func)) {
      Expr *recv = expr(attr->value);
      args.insert(args.begin(), recv);
    }
  }
  if (ft->kind() == TypeKind::Function && ft->symbol().rfind("jit:", 0) == 0) {
    auto src = prog_.jitFunctions.find(ft);
    const ast::FunctionDef *def = src != prog_.jitFunctions.end() ? prog_.definition(*src->second) : nullptr;
    if (!def && !kwargs.empty())
      return unsupported(c->loc, "keyword arguments in calls of this kjit function are not supported");
    if (def && (!kwargs.empty() || args.size() < def->params.size())) {
      // Keyword arguments and defaults bound to positions, as Python does;
      // a default must be a constant (a number, a bool, None or a string).
      const std::string &fname = src->second->name;
      std::vector<Expr *> bound(std::max(args.size(), def->params.size()), nullptr);
      std::copy(args.begin(), args.end(), bound.begin());
      for (auto &[name, v] : kwargs) {
        size_t k = 0;
        while (k < def->params.size() && def->params[k].name != name) ++k;
        if (k == def->params.size())
          return typingError(v->loc, fmt::format("{}() got an unexpected keyword argument '{}'", fname, name));
        if (bound[k])
          return typingError(v->loc, fmt::format("{}() got multiple values for argument '{}'", fname, name));
        bound[k] = v;
      }
      for (size_t k = 0; k < def->params.size(); ++k) {
        if (bound[k]) continue;
        const ast::Expr *d = def->params[k].defaultValue;
        if (!d) {
          size_t missing = 0;
          for (size_t j = k; j < def->params.size(); ++j) missing += !bound[j] && !def->params[j].defaultValue;
          Expr *err = typingError(c->loc, fmt::format("{}() missing {} required positional argument{}: '{}'", fname,
                                                      missing, missing == 1 ? "" : "s", def->params[k].name));
          ctx_.diags.note(def->loc, fmt::format("'{}' is defined here", fname));
          return err;
        }
        const ast::Expr *lit = d;
        if (auto *u = ast::dyn_cast<ast::UnaryExpr>(d)) lit = u->operand;
        if (!ast::isa<ast::IntLit>(lit) && !ast::isa<ast::FloatLit>(lit) && !ast::isa<ast::ImagLit>(lit) &&
            !ast::isa<ast::BoolLit>(lit) && !ast::isa<ast::NoneLit>(lit))
          return unsupported(c->loc, fmt::format("the default of parameter '{}' of {}() must be a constant "
                                                 "number, bool or None for kernels; pass the argument",
                                                 def->params[k].name, fname));
        bound[k] = expr(d);
        if (!known(bound[k])) return unknown(c->loc);
      }
      args = std::move(bound);
    }
    std::vector<const Type *> types;
    for (Expr *a : args) {
      if (!a->type->isRuntime())
        return typingError(a->loc, fmt::format("cannot pass {} to a kjit function", a->type->str()));
      types.push_back(a->type);
    }
    Function *f = specializeCallee(ft, types, c->loc);
    if (!f) return unknown(c->loc);
    if (!f->returnType) {
      return typingError(c->loc, fmt::format("recursive call of '{}' needs an explicit signature "
                                             "in the decorator",
                                             f->name));
    }
    auto *call = make<Call>(c->loc);
    call->callee = f;
    call->args = std::move(args);
    call->type = f->returnType;
    return call;
  }
  CallSite site{c->loc, std::move(args), std::move(kwargs), c};
  return typeBuiltinCall(*this, ft, site);
}

}  // namespace typing

using namespace ir;
using typing::ProgramTyper;
using typing::SpecKey;
using typing::FunctionTyper;
using typing::typeListKey;


// ---------------------------------------------------------------------------

const ast::FunctionDef *ProgramTyper::definition(const FunctionSource &fn) {
  if (auto it = definitions.find(fn.identity); it != definitions.end()) return it->second;
  ParseOptions opts;
  opts.onlyFunction = fn.name;
  opts.lambdas = fn.name == "<lambda>";
  ast::Module m = ctx.parse(fn.filename, fn.text, fn.firstLine, opts);
  const ast::FunctionDef *def = m.findFunction(fn.name);
  if (opts.lambdas) {
    // The lambda whose parameters are the function's.
    def = nullptr;
    for (const ast::FunctionDef *cand : m.functions) {
      std::vector<std::string> names;
      for (const ast::Param &p : cand->params) names.push_back(p.name);
      if (names == fn.paramNames) {
        def = cand;
        break;
      }
    }
  }
  definitions[fn.identity] = def;
  return def;
}

Function *ProgramTyper::specialize(std::shared_ptr<FunctionSource> fn,
                                   const std::vector<const Type *> &args, SourceLoc callLoc,
                                   const Type *declaredReturn) {
  SpecKey key{fn->identity, typeListKey(args)};
  if (auto it = done.find(key); it != done.end()) return it->second;
  if (failed.count(key)) return nullptr;
  if (inProgress.count(key)) {
    // Recursion: the call is typed from the declared return type, if any.
    Function *f = inProgressFunctions[key];
    if (f && f->returnType) return f;
    failed.insert(key);
    ctx.diags.error(DiagCategory::Typing, callLoc,
                    fmt::format("recursive call of '{}' needs an explicit signature in the "
                                "decorator",
                                fn->name));
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
  if (args.size() != def->params.size()) {
    size_t n = def->params.size(), m = args.size();
    ctx.diags.error(DiagCategory::Typing, callLoc.valid() ? callLoc : def->loc,
                    m < n ? fmt::format("{}() missing {} required positional argument{}: '{}'", fn->name,
                                        n - m, n - m == 1 ? "" : "s", def->params[m].name)
                          : fmt::format("{}() takes {} positional argument{} but {} {} given", fn->name,
                                        n, n == 1 ? "" : "s", m, m == 1 ? "was" : "were"));
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
  if (declaredReturn)
    f->returnType = declaredReturn->kind() == TypeKind::Void ? ctx.types.none() : declaredReturn;
  inProgressFunctions[key] = f;
  FunctionTyper typer(*this, fn, *def, args, f, declaredReturn);
  typer.isKernel_ = kernel && order.empty() && inProgress.size() == 1;
  bool ok = typer.run();
  inProgress.erase(key);
  if (!ok) {
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
  ProgramTyper prog(ctx, target);
  prog.kernel = kernel;
  TypedProgram out;
  out.target = target;
  out.kernel = kernel;
  out.entry = prog.specialize(std::move(fn), argTypes, SourceLoc{}, declaredReturn);
  if (ctx.diags.hasErrors()) out.entry = nullptr;
  out.functions = prog.order;
  return out;
}

}  // namespace kjit
