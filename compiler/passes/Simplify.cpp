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
  case Kind::Intrinsic: {
    auto *in = cast<Intrinsic>(e);
    if (in->id != IntrinsicId::ArrayShape && in->id != IntrinsicId::ArrayStride) return false;
    return isPure(in->args[0]);
  }
  default: return false;
  }
}

namespace {

class Simplifier {
public:
  explicit Simplifier(IRArena &arena) : arena(arena) {}
  IRArena &arena;
  bool changed = false;

  Const *intConst(const Type *t, int64_t v, SourceLoc loc) {
    Const *c = arena.make<Const>(loc);
    c->type = t;
    if (t->isInt() && t->bits() < 64) {
      uint64_t mask = (uint64_t(1) << t->bits()) - 1;
      uint64_t u = uint64_t(v) & mask;
      if (t->isSigned() && (u >> (t->bits() - 1))) u |= ~mask;
      v = int64_t(u);
    }
    c->i = v;
    return c;
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
      if (t->bits() == 32) v = double(float(v));
      Const *c = arena.make<Const>(b->loc);
      c->type = b->type;
      c->f = v;
      return c;
    }
    return b;
  }

  Expr *expr(Expr *e) {
    if (!e) return e;
    Expr *out = e;
    switch (e->kind()) {
    case Kind::Cast: cast<Cast>(e)->value = expr(cast<Cast>(e)->value); break;
    case Kind::Unary: cast<Unary>(e)->operand = expr(cast<Unary>(e)->operand); break;
    case Kind::Binary: {
      auto *b = cast<Binary>(e);
      b->lhs = expr(b->lhs);
      b->rhs = expr(b->rhs);
      out = foldBinary(b);
      break;
    }
    case Kind::Logical: {
      auto *l = cast<Logical>(e);
      // lhs, lhsTruth and operand share nodes: simplify the shared node once.
      if (l->operand) l->operand = expr(l->operand);
      l->rhs = expr(l->rhs);
      break;
    }
    case Kind::Select: {
      auto *s = cast<Select>(e);
      s->cond = expr(s->cond);
      s->ifTrue = expr(s->ifTrue);
      s->ifFalse = expr(s->ifFalse);
      break;
    }
    case Kind::ArrayLoad: {
      auto *l = cast<ArrayLoad>(e);
      l->array = expr(l->array);
      for (Expr *&i : l->indices) i = expr(i);
      break;
    }
    case Kind::ArrayView: {
      auto *v = cast<ArrayView>(e);
      v->array = expr(v->array);
      for (SliceSpec &sp : v->specs) {
        sp.start = expr(sp.start);
        sp.stop = expr(sp.stop);
        sp.step = expr(sp.step);
      }
      break;
    }
    case Kind::TupleMake:
      for (Expr *&x : cast<TupleMake>(e)->elems) x = expr(x);
      break;
    case Kind::TupleGet: {
      auto *g = cast<TupleGet>(e);
      g->tuple = expr(g->tuple);
      if (g->dynIndex) {
        g->dynIndex = expr(g->dynIndex);
        break;
      }
      if (auto *tm = dyn_cast<TupleMake>(g->tuple)) {
        bool othersPure = true;
        for (size_t i = 0; i < tm->elems.size(); ++i)
          if (i != g->index && !isPure(tm->elems[i])) othersPure = false;
        if (othersPure) out = tm->elems[g->index];
      }
      break;
    }
    case Kind::Call:
      for (Expr *&x : cast<Call>(e)->args) x = expr(x);
      break;
    case Kind::Intrinsic:
      for (Expr *&x : cast<Intrinsic>(e)->args) x = expr(x);
      break;
    default: break;
    }
    if (out != e) changed = true;
    return out;
  }

  void block(Block &b) {
    for (Stmt *s : b) stmt(s);
  }

  void stmt(Stmt *s) {
    switch (s->kind()) {
    case Kind::Assign: cast<Assign>(s)->value = expr(cast<Assign>(s)->value); break;
    case Kind::Store: {
      auto *st = cast<Store>(s);
      st->array = expr(st->array);
      for (Expr *&i : st->indices) i = expr(i);
      st->value = expr(st->value);
      break;
    }
    case Kind::If: {
      auto *i = cast<If>(s);
      i->cond = expr(i->cond);
      block(i->then);
      block(i->otherwise);
      break;
    }
    case Kind::While: {
      auto *w = cast<While>(s);
      w->cond = expr(w->cond);
      block(w->body);
      block(w->orelse);
      break;
    }
    case Kind::ForRange: {
      auto *f = cast<ForRange>(s);
      f->start = expr(f->start);
      f->stop = expr(f->stop);
      f->step = expr(f->step);
      if (auto *c = dyn_cast<Const>(f->step); c && !f->constStep) f->constStep = c->i;
      block(f->body);
      block(f->orelse);
      break;
    }
    case Kind::Return: cast<Return>(s)->value = expr(cast<Return>(s)->value); break;
    case Kind::Eval: cast<Eval>(s)->value = expr(cast<Eval>(s)->value); break;
    default: break;
    }
  }
};

}  // namespace

bool simplify(Function &f, IRArena &arena) {
  Simplifier s(arena);
  s.block(f.body);
  return s.changed;
}

}  // namespace kjit::passes
