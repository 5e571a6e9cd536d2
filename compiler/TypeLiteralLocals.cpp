// TypeLiteralLocals.cpp - locals typed as literals (Numba's
// Literal[int]): found before the passes, read as constants where a
// constant is required.
#include <functional>
#include <map>
#include <set>

#include "compiler/TyperImpl.h"

namespace kjit::typing {

// ---------------------------------------------------------------------------
// Literal locals (Numba types `n = 16` as Literal[int](16) when n has one
// definition; cuda.shared.array(n, ...) then compiles).

void FunctionTyper::findLiteralLocals() {
  std::map<std::string, int> defs;
  std::map<std::string, const ast::Expr *> values;
  for (const ast::Param &p : def_.params) defs[p.name] += 2;  // never a literal
  std::function<void(const ast::Expr *, const ast::Expr *)> target = [&](const ast::Expr *t,
                                                                         const ast::Expr *value) {
    if (auto *n = ast::dyn_cast<ast::NameExpr>(t)) {
      ++defs[n->name];
      if (value) values[n->name] = value;
    } else if (auto *tu = ast::dyn_cast<ast::TupleExpr>(t)) {
      for (const ast::Expr *e : tu->elts) target(e, nullptr);
    } else if (auto *l = ast::dyn_cast<ast::ListExpr>(t)) {
      for (const ast::Expr *e : l->elts) target(e, nullptr);
    }
  };
  std::function<void(const ast::StmtList &)> walk = [&](const ast::StmtList &body) {
    for (const ast::Stmt *s : body) {
      switch (s->kind()) {
      case ast::NodeKind::AssignStmt: {
        auto *a = ast::cast<ast::AssignStmt>(s);
        for (const ast::Expr *t : a->targets) target(t, a->value);
        break;
      }
      case ast::NodeKind::AugAssignStmt:
        target(ast::cast<ast::AugAssignStmt>(s)->target, nullptr);
        target(ast::cast<ast::AugAssignStmt>(s)->target, nullptr);
        break;
      case ast::NodeKind::AnnAssignStmt:  // typed by its annotation: not a literal
        target(ast::cast<ast::AnnAssignStmt>(s)->target, nullptr);
        target(ast::cast<ast::AnnAssignStmt>(s)->target, nullptr);
        break;
      case ast::NodeKind::ForStmt: {
        auto *f = ast::cast<ast::ForStmt>(s);
        target(f->target, nullptr);
        walk(f->body);
        walk(f->orelse);
        break;
      }
      case ast::NodeKind::WhileStmt:
        walk(ast::cast<ast::WhileStmt>(s)->body);
        walk(ast::cast<ast::WhileStmt>(s)->orelse);
        break;
      case ast::NodeKind::IfStmt:
        walk(ast::cast<ast::IfStmt>(s)->body);
        walk(ast::cast<ast::IfStmt>(s)->orelse);
        break;
      case ast::NodeKind::TryStmt: {
        auto *t = ast::cast<ast::TryStmt>(s);
        walk(t->body);
        for (const ast::ExceptHandler &h : t->handlers) walk(h.body);
        walk(t->orelse);
        break;
      }
      case ast::NodeKind::FunctionDef: defs[ast::cast<ast::FunctionDef>(s)->name] += 2; break;
      default: break;
      }
    }
  };
  walk(def_.body);

  std::set<std::string> visiting;
  // The integer `e` stands for, when it is a literal one.
  std::function<std::optional<int64_t>(const ast::Expr *)> scalar;
  std::function<const LiteralLocal *(const std::string &)> resolve =
      [&](const std::string &name) -> const LiteralLocal * {
    if (auto it = literalLocals_.find(name); it != literalLocals_.end()) return &it->second;
    auto d = defs.find(name);
    auto v = values.find(name);
    if (d == defs.end() || d->second != 1 || v == values.end() || !visiting.insert(name).second)
      return nullptr;
    LiteralLocal lit;
    bool ok = true;
    if (auto *tu = ast::dyn_cast<ast::TupleExpr>(v->second)) {
      lit.tuple = true;
      for (const ast::Expr *e : tu->elts) {
        std::optional<int64_t> x = scalar(e);
        if (!x) {
          ok = false;
          break;
        }
        lit.values.push_back(*x);
      }
    } else if (std::optional<int64_t> x = scalar(v->second)) {
      lit.values.push_back(*x);
    } else {
      ok = false;
    }
    visiting.erase(name);
    return ok ? &(literalLocals_[name] = std::move(lit)) : nullptr;
  };
  scalar = [&](const ast::Expr *e) -> std::optional<int64_t> {
    if (auto *i = ast::dyn_cast<ast::IntLit>(e)) {
      if (i->tooLarge || i->value > uint64_t(INT64_MAX)) return std::nullopt;
      return int64_t(i->value);
    }
    if (auto *u = ast::dyn_cast<ast::UnaryExpr>(e); u && u->op == ast::UnaryOp::Neg) {
      auto *i = ast::dyn_cast<ast::IntLit>(u->operand);
      if (!i || i->tooLarge || i->value > uint64_t(INT64_MAX)) return std::nullopt;
      return -int64_t(i->value);
    }
    auto *n = ast::dyn_cast<ast::NameExpr>(e);
    if (!n) return std::nullopt;
    if (locals_.count(n->name)) {
      const LiteralLocal *l = resolve(n->name);
      if (!l || l->tuple) return std::nullopt;
      return l->values[0];
    }
    std::optional<GlobalValue> g = lookupGlobal(n->name);
    if (g && g->kind == GlobalValue::Kind::Int && !g->isUnsigned) return g->i;
    return std::nullopt;
  };
  for (auto &[name, n] : defs) {
    if (n == 1) singleDefs_.insert(name);
    if (n == 1 && values.count(name)) resolve(name);
  }
}

Expr *FunctionTyper::literalLocal(Expr *e) {
  auto *ref = e ? dyn_cast<VarRef>(e) : nullptr;
  if (!ref) return e;
  auto it = literalVars_.find(ref->var);
  if (it == literalVars_.end()) return e;
  const LiteralLocal &lit = *it->second;
  if (!lit.tuple) return constInt(lit.values[0], e->loc, tc_.int64());
  std::vector<Expr *> elems;
  for (int64_t v : lit.values) elems.push_back(constInt(v, e->loc, tc_.int64()));
  return ir_.tupleMake(std::move(elems), e->loc);
}

}  // namespace kjit::typing
