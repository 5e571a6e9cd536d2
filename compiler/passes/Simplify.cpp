// Simplify.cpp - constant folding and tuple-element forwarding.
#include <cmath>

#include "compiler/passes/Passes.h"

namespace kjit::passes {

using namespace ir;

bool isPure(const Expr *e) {
  switch (e->kind()) {
  case Kind::Const:
  case Kind::VarRef: return true;
  case Kind::Cast: return isPure(cast<Cast>(e)->value);
  case Kind::Unary: return isPure(cast<Unary>(e)->operand);
  case Kind::Binary: {
    auto *b = cast<Binary>(e);
    bool canRaise = b->op == BinOp::Div || b->op == BinOp::FloorDiv || b->op == BinOp::Mod ||
                    b->op == BinOp::LShift || b->op == BinOp::RShift;
    return !canRaise && isPure(b->lhs) && isPure(b->rhs);
  }
  case Kind::TupleMake:
    for (const Expr *x : cast<TupleMake>(e)->elems)
      if (!isPure(x)) return false;
    return true;
  case Kind::TupleGet: {
    auto *g = cast<TupleGet>(e);
    return isPure(g->tuple) && !g->dynIndex;  // a run-time index may raise
  }
  case Kind::Intrinsic: {  // Intrinsics.def's columns
    auto *in = cast<Intrinsic>(e);
    if (!intrinsicInfo(in->id).pure()) return false;
    for (const Expr *a : in->args)
      if (!isPure(a)) return false;
    return true;
  }
  default: return false;
  }
}

namespace {

class Simplifier : public Mutator {
 public:
  using Mutator::mutate;
  explicit Simplifier(Builder &ir) : ir(ir) {}
  Builder &ir;
  bool changed = false;

  Const *intConst(const Type *t, int64_t v, SourceLoc loc) {
    if (t->isInt() && t->bits() < 64) {
      uint64_t mask = (uint64_t(1) << t->bits()) - 1;
      uint64_t u = uint64_t(v) & mask;
      if (t->isSigned() && (u >> (t->bits() - 1))) u |= ~mask;
      v = int64_t(u);
    }
    return ir.constInt(v, t, loc);
  }

  Expr *foldBinary(Binary *b) {
    auto *l = dyn_cast<Const>(b->lhs), *r = dyn_cast<Const>(b->rhs);
    if (!l || !r) return b;
    const Type *t = b->lhs->type;
    if (t->isInt() || t->isBool()) {
      uint64_t x = uint64_t(l->i), y = uint64_t(r->i);
      bool s = t->isInt() ? t->isSigned() : false;
      switch (b->op) {
      case BinOp::Add: return intConst(b->type, int64_t(x + y), b->loc);
      case BinOp::Sub: return intConst(b->type, int64_t(x - y), b->loc);
      case BinOp::Mul: return intConst(b->type, int64_t(x * y), b->loc);
      case BinOp::BitAnd: return intConst(b->type, int64_t(x & y), b->loc);
      case BinOp::BitOr: return intConst(b->type, int64_t(x | y), b->loc);
      case BinOp::BitXor: return intConst(b->type, int64_t(x ^ y), b->loc);
      case BinOp::Lt: return intConst(b->type, s ? l->i < r->i : x < y, b->loc);
      case BinOp::Gt: return intConst(b->type, s ? l->i > r->i : x > y, b->loc);
      case BinOp::Le: return intConst(b->type, s ? l->i <= r->i : x <= y, b->loc);
      case BinOp::Ge: return intConst(b->type, s ? l->i >= r->i : x >= y, b->loc);
      case BinOp::Eq: return intConst(b->type, x == y, b->loc);
      case BinOp::Ne: return intConst(b->type, x != y, b->loc);
      default: return b;  // division, shifts: lowering's checks stay
      }
    }
    if (t->isFloat() && b->type->isFloat()) {
      double v;
      switch (b->op) {
      case BinOp::Add: v = l->f + r->f; break;
      case BinOp::Sub: v = l->f - r->f; break;
      case BinOp::Mul: v = l->f * r->f; break;
      default: return b;
      }
      return ir.constFloat(roundToFloatType(t, v), b->type, b->loc);
    }
    return b;
  }

  // Folds `e` once its children are folded; returns what replaces it.
  Expr *mutate(Expr *e) override {
    mutateChildren(e);
    Expr *out = e;
    if (auto *b = dyn_cast<Binary>(e))
      out = foldBinary(b);
    else if (auto *g = dyn_cast<TupleGet>(e))
      out = forwardElement(g);
    if (out != e) changed = true;
    return out;
  }

  void mutate(Stmt *s) override {
    mutateChildren(s);
    if (auto *f = dyn_cast<ForRange>(s))
      if (auto *c = dyn_cast<Const>(f->step); c && !f->constStep) f->constStep = c->i;
  }

  // (a, b, c)[k] -> the k-th element, when the others have no effects.
  Expr *forwardElement(TupleGet *g) {
    if (g->dynIndex) return g;
    auto *tm = dyn_cast<TupleMake>(g->tuple);
    if (!tm) return g;
    for (size_t i = 0; i < tm->elems.size(); ++i)
      if (i != g->index && !isPure(tm->elems[i])) return g;
    return tm->elems[g->index];
  }
};

}  // namespace

bool simplify(Function &f, Builder &ir) {
  Simplifier s(ir);
  s.mutate(f);
  return s.changed;
}

}  // namespace kjit::passes
