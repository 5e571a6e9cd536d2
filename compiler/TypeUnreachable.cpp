// TypeUnreachable.cpp - dropUnreachable: the statements that no path
// reaches are removed from a function's body before it is typed, as
// CPython's compiler removes them before Numba reads the bytecode.
#include <optional>

#include "compiler/TyperImpl.h"

namespace kjit::typing {

namespace {

// The truth of a test that CPython's compiler knows: True, False, None, an
// integer literal, `not` of one (`if 0:` and `while True:`).
std::optional<bool> literalTruth(const ast::Expr *e) {
  if (auto *b = ast::dyn_cast<ast::BoolLit>(e)) return b->value;
  if (auto *i = ast::dyn_cast<ast::IntLit>(e)) return i->tooLarge || i->value != 0;
  if (ast::isa<ast::NoneLit>(e)) return false;
  if (auto *u = ast::dyn_cast<ast::UnaryExpr>(e); u && u->op == ast::UnaryOp::Not)
    if (std::optional<bool> v = literalTruth(u->operand)) return !*v;
  return std::nullopt;
}

// Removes from `body` what follows a statement that cannot complete
// (return, raise, break, continue, an if whose branches all end so, a
// `while True:` without a break), the branch of an `if` on a literal that
// is not taken, and the body of a `while` on a false literal. Returns
// whether the end of `body` is reached; `breaks` is set when a break of the
// innermost enclosing loop is reached.
bool prune(ast::StmtList &body, bool &breaks) {
  for (size_t k = 0; k < body.size(); ++k) {
    ast::Stmt *s = body[k];
    bool completes = true;
    switch (s->kind()) {
    case ast::NodeKind::ReturnStmt:
    case ast::NodeKind::RaiseStmt:
    case ast::NodeKind::ContinueStmt: completes = false; break;
    case ast::NodeKind::BreakStmt:
      breaks = true;
      completes = false;
      break;
    case ast::NodeKind::IfStmt: {
      auto *i = ast::cast<ast::IfStmt>(s);
      std::optional<bool> taken = literalTruth(i->test);
      if (taken) (*taken ? i->orelse : i->body).clear();
      bool a = prune(i->body, breaks), b = prune(i->orelse, breaks);
      completes = taken ? (*taken ? a : b) : (a || b);
      break;
    }
    case ast::NodeKind::WhileStmt: {
      auto *w = ast::cast<ast::WhileStmt>(s);
      std::optional<bool> truth = literalTruth(w->test);
      if (truth && !*truth) {
        w->body.clear();  // never entered; the else clause runs
        completes = prune(w->orelse, breaks);
        break;
      }
      bool inner = false;
      prune(w->body, inner);
      if (truth) {
        w->orelse.clear();  // only a break leaves `while True:`
        completes = inner;
      } else {
        completes = prune(w->orelse, breaks) || inner;
      }
      break;
    }
    case ast::NodeKind::ForStmt: {
      auto *f = ast::cast<ast::ForStmt>(s);
      bool inner = false;
      prune(f->body, inner);
      prune(f->orelse, breaks);
      break;
    }
    case ast::NodeKind::TryStmt: {
      auto *t = ast::cast<ast::TryStmt>(s);
      bool bodyEnds = prune(t->body, breaks);
      if (!bodyEnds) t->orelse.clear();
      completes = bodyEnds && prune(t->orelse, breaks);
      for (ast::ExceptHandler &h : t->handlers) completes |= prune(h.body, breaks);
      break;
    }
    case ast::NodeKind::FunctionDef: {
      bool inner = false;
      prune(ast::cast<ast::FunctionDef>(s)->body, inner);
      break;
    }
    default: break;
    }
    if (!completes) {
      body.resize(k + 1);
      return false;
    }
  }
  return true;
}

}  // namespace

void dropUnreachable(ast::FunctionDef &def) {
  bool breaks = false;
  prune(def.body, breaks);
}

}  // namespace kjit::typing
