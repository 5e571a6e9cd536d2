// ArrayOwnership.cpp - which array variables own their arrays outright.
//
// Arrays allocated during a call live until it returns (the call's arena),
// so that
//     for i in range(n):
//         t = np.ones(m)
// would hold n arrays. A variable owns its arrays when every value assigned
// to it is a new array (np.empty/zeros/ones/arange/copy ...), outside prange
// bodies, and its value is only read through in ways that keep no reference:
// element loads and stores, shape and strides, reductions, copies, and
// calls of functions that return no array (a kjit function can keep an
// array only by returning it). Such an array is freed when the variable is
// assigned the next one (lowering, on the host). Anything else (another
// variable, a view, a tuple, a return, ...) keeps the array to the end of the
// call.
#include <algorithm>

#include "compiler/passes/Passes.h"

namespace kjit::passes {

using namespace ir;

namespace {

class ArrayOwnership {
 public:
  explicit ArrayOwnership(const Function &f) {
    unsigned n = 0;
    for (const auto &v : f.vars) n = std::max(n, v->id + 1);
    owned.assign(n, 0);
    for (const auto &v : f.vars)
      if (v->type && v->type->isArray() && !v->isParam) owned[v->id] = 1;
    block(f.body, false);
  }
  std::vector<char> owned;

 private:
  static bool fresh(const Expr *e) {
    auto *in = dyn_cast<Intrinsic>(e);
    if (!in) return false;
    switch (in->id) {
    case IntrinsicId::ArrayAlloc:
    case IntrinsicId::ArrayCopy:
    case IntrinsicId::ArrayArange: return true;
    case IntrinsicId::ArrayFill: return fresh(in->args[0]);
    default: return false;
    }
  }
  // (A record may be a reference into an array.)
  static bool holdsArray(const Type *t) {
    if (!t) return false;
    if (t->isArray() || t->isRecord()) return true;
    if (t->isTuple())
      for (const Type *e : t->elements())
        if (holdsArray(e)) return true;
    return false;
  }
  // Intrinsics that read their first argument (an array) and keep no
  // reference to it.
  static bool readsArray(IntrinsicId id) {
    switch (id) {
    case IntrinsicId::ArrayShape:
    case IntrinsicId::ArrayStride:
    case IntrinsicId::ArrayCopy: return true;
    default: return isArrayReduction(id);
    }
  }
  // Every child of `n` keeps a reference to what it reads.
  void children(const Node *n) {
    forEachSlot(n, [&](const Expr *c) { expr(c, false); }, [](const Block &) {});
  }
  void expr(const Expr *e, bool keepsNoReference) {
    if (!e) return;
    switch (e->kind()) {
    case Kind::VarRef:
      if (!keepsNoReference) owned[cast<VarRef>(e)->var->id] = 0;
      return;
    case Kind::ArrayLoad:  // an element of an array of records refers to the array
      expr(cast<ArrayLoad>(e)->array, !e->type || !e->type->isRecord());
      for (const Expr *i : cast<ArrayLoad>(e)->indices) expr(i, false);
      return;
    case Kind::Call: {
      auto *c = cast<Call>(e);
      bool keeps = c->callee && !holdsArray(c->callee->returnType);
      for (const Expr *a : c->args) expr(a, keeps);
      return;
    }
    case Kind::Intrinsic: {
      auto *in = cast<Intrinsic>(e);
      bool reads = readsArray(in->id);
      for (size_t k = 0; k < in->args.size(); ++k) expr(in->args[k], reads && k == 0);
      return;
    }
    default: children(e); return;  // casts, operators, views, tuples keep references
    }
  }
  void block(const Block &b, bool parallel) {
    for (const Stmt *s : b) stmt(s, parallel);
  }
  void stmt(const Stmt *s, bool parallel) {
    switch (s->kind()) {
    case Kind::Assign: {
      auto *a = cast<Assign>(s);
      if (a->var->id < owned.size() && (parallel || !fresh(a->value))) owned[a->var->id] = 0;
      expr(a->value, false);
      return;
    }
    case Kind::Store: {
      auto *st = cast<ir::Store>(s);
      expr(st->array, true);
      for (const Expr *i : st->indices) expr(i, false);
      expr(st->value, false);
      return;
    }
    case Kind::ForRange: {
      auto *f = cast<ForRange>(s);
      expr(f->start, false), expr(f->stop, false), expr(f->step, false);
      block(f->body, parallel || f->parallel), block(f->orelse, parallel);
      return;
    }
    case Kind::Eval: {
      auto *in = dyn_cast<Intrinsic>(cast<Eval>(s)->value);
      if (in && in->id == IntrinsicId::ArrayFill) {  // a.fill(v): its result unused
        expr(in->args[0], true), expr(in->args[1], false);
        return;
      }
      expr(cast<Eval>(s)->value, true);
      return;
    }
    default:  // if, while, return: their expressions keep references
      forEachSlot(
          s, [&](const Expr *c) { expr(c, false); }, [&](const Block &b) { block(b, parallel); });
      return;
    }
  }
};

}  // namespace

bool arrayOwnership(Function &f) {
  std::vector<char> owned = ArrayOwnership(f).owned;
  bool changed = owned != f.ownsArray;
  f.ownsArray = std::move(owned);
  return changed;
}

}  // namespace kjit::passes
