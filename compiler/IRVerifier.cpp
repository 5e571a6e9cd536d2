// IRVerifier.cpp - ir::verify: the typed IR's semantics (IR.h), checked.
// The walk is IR.def's child lists (forEachSlot); what each node requires
// of its children is ir::checkNode (IRChecks.cpp, shared with ir::Builder);
// this file adds what needs the function around a node: its variables,
// the loops a break is in, the return type.
#include <fmt/format.h>

#include "compiler/IR.h"

namespace kjit::ir {

namespace {

std::string str(const Type *t) { return t ? t->str() : "no type"; }

class Verifier {
 public:
  explicit Verifier(const Function &f) : f_(f) {}

  std::vector<Problem> run() {
    for (size_t i = 0; i < f_.vars.size(); ++i)
      if (f_.vars[i]->id != i)
        problem(f_.vars[i]->loc, fmt::format("variable '{}' has id {} at position {}",
                                             f_.vars[i]->name, f_.vars[i]->id, i));
    if (!f_.returnType) problem(f_.loc, fmt::format("function '{}' has no return type", f_.name));
    block(f_.body);
    return std::move(problems_);
  }

 private:
  const Function &f_;
  std::vector<Problem> problems_;
  unsigned loopDepth_ = 0;

  void problem(SourceLoc loc, std::string message) {
    problems_.push_back({loc, std::move(message)});
  }

  // `v` is one of this function's variables.
  bool ownVar(const Var *v, SourceLoc loc, const char *what) {
    if (!v) {
      problem(loc, fmt::format("{} without a variable", what));
      return false;
    }
    if (v->id >= f_.vars.size() || f_.vars[v->id].get() != v) {
      problem(loc, fmt::format("{} of variable '{}', which is not one of function '{}'", what,
                               v->name, f_.name));
      return false;
    }
    return true;
  }

  void expr(const Expr *e) {
    if (!isa<Expr>(e)) {
      problem(e->loc,
              fmt::format("{} is a statement kind, found as an expression", kindName(e->kind())));
      return;
    }
    if (!e->type) problem(e->loc, fmt::format("{} expression without a type", kindName(e->kind())));
    forEachSlot(e, [&](const Expr *c) { expr(c); }, [&](const Block &) {});
    if (!e->type) return;
    if (auto *r = dyn_cast<VarRef>(e); r && !ownVar(r->var, e->loc, "a reference")) return;
    checkNode(*e, problems_);
  }

  void block(const Block &b) {
    for (const Stmt *s : b) {
      if (!s) {
        problem(f_.loc, "a null statement in a block");
        continue;
      }
      stmt(s);
    }
  }

  void stmt(const Stmt *s) {
    const char *what = kindName(s->kind());
    if (!isa<Stmt>(s)) {
      problem(s->loc, fmt::format("{} is an expression kind, found as a statement", what));
      return;
    }
    // The expressions first; the node's own rules; the blocks after, with
    // loop depth for the bodies.
    forEachSlot(s, [&](const Expr *c) { expr(c); }, [&](const Block &) {});
    if (auto *a = dyn_cast<Assign>(s); a && !ownVar(a->var, s->loc, "an assignment")) return;
    if (auto *f = dyn_cast<ForRange>(s)) ownVar(f->var, s->loc, "a loop");
    checkNode(*s, problems_);
    switch (s->kind()) {
    case Kind::If: {
      auto *i = cast<If>(s);
      block(i->then);
      block(i->otherwise);
      return;
    }
    case Kind::Try: {
      auto *t = cast<Try>(s);
      block(t->body);
      block(t->handler);
      block(t->orelse);
      return;
    }
    case Kind::While: {
      auto *w = cast<While>(s);
      ++loopDepth_;
      block(w->body);
      --loopDepth_;
      block(w->orelse);  // a break in `else:` leaves the enclosing loop
      return;
    }
    case Kind::ForRange: {
      auto *f = cast<ForRange>(s);
      ++loopDepth_;
      block(f->body);
      --loopDepth_;
      block(f->orelse);
      return;
    }
    case Kind::Break:
    case Kind::Continue:
      if (loopDepth_ == 0) problem(s->loc, fmt::format("{} outside a loop body", what));
      return;
    case Kind::Return: {
      auto *r = cast<Return>(s);
      if (!f_.returnType) return;
      if (!r->value) {
        if (f_.returnType->isRuntime() && !f_.returnType->isNone())
          problem(s->loc, fmt::format("Return without a value in a function that returns {}",
                                      str(f_.returnType)));
        return;
      }
      if (r->value->type && r->value->type != f_.returnType)
        problem(r->value->loc, fmt::format("the value of Return is {}, expected {}",
                                           str(r->value->type), str(f_.returnType)));
      return;
    }
    default: return;
    }
  }
};

}  // namespace

std::vector<Problem> verify(const Function &f) { return Verifier(f).run(); }

}  // namespace kjit::ir
