// IRChecks.cpp - ir::checkNode: what each node kind requires of its own type
// and of its children's types (IR.h's semantics, one node at a time).
// ir::verify (IRVerifier.cpp) applies it to every node of a function, and
// ir::Builder (IRBuilder.cpp) to each node it makes: one set of rules.
#include <fmt/format.h>

#include "compiler/IR.h"

namespace kjit::ir {

namespace {

std::string str(const Type *t) { return t ? t->str() : "no type"; }

bool isInt64(const Type *t) { return t && t->isInt() && t->bits() == 64 && t->isSigned(); }

class NodeChecker {
 public:
  explicit NodeChecker(std::vector<Problem> &out) : out_(out) {}

  void node(const Node &n) {
    if (auto *e = dyn_cast<Expr>(&n)) {
      if (e->type) expr(*e);  // an expression without a type is the verifier's to report
    } else {
      stmt(*cast<Stmt>(&n));
    }
  }

 private:
  std::vector<Problem> &out_;

  void problem(SourceLoc loc, std::string message) { out_.push_back({loc, std::move(message)}); }

  // `e` (a child of `what`) has type `t`.
  void expect(const Expr *e, const Type *t, const char *what, const char *role) {
    if (e && t && e->type && e->type != t)
      problem(e->loc, fmt::format("{} of {} is {}, expected {}", role, what, str(e->type), str(t)));
  }
  void expectInt64(const Expr *e, const char *what, const char *role) {
    if (e && e->type && !isInt64(e->type))
      problem(e->loc, fmt::format("{} of {} is {}, expected int64", role, what, str(e->type)));
  }
  void expectBool(const Expr *e, const char *what, const char *role) {
    if (e && e->type && !e->type->isBool())
      problem(e->loc, fmt::format("{} of {} is {}, expected bool", role, what, str(e->type)));
  }
  void missing(const Node &n, const void *child, const char *role) {
    if (!child) problem(n.loc, fmt::format("{} without {}", kindName(n.kind()), role));
  }
  // An array access: `array` is an array, one int64 index per dimension.
  // Returns the dtype, or null.
  const Type *arrayAccess(const Node &n, const Expr *array, const std::vector<Expr *> &indices) {
    const char *what = kindName(n.kind());
    missing(n, array, "an array");
    if (!array || !array->type) return nullptr;
    if (!array->type->isArray()) {
      problem(array->loc,
              fmt::format("the array of {} is {}, expected an array", what, str(array->type)));
      return nullptr;
    }
    if (indices.size() != array->type->ndim())
      problem(n.loc, fmt::format("{} has {} indices into a {}-d array, expected one per dimension",
                                 what, indices.size(), array->type->ndim()));
    for (const Expr *i : indices) {
      missing(n, i, "an index");
      expectInt64(i, what, "an index");
    }
    return array->type->dtype();
  }

  void expr(const Expr &e) {
    const char *what = kindName(e.kind());
    switch (e.kind()) {
    case Kind::Const: return;
    case Kind::VarRef: {
      auto *r = cast<VarRef>(&e);
      if (r->var && r->var->type != e.type)
        problem(e.loc, fmt::format("reference to '{}' is {}, the variable is {}", r->var->name,
                                   str(e.type), str(r->var->type)));
      return;
    }
    case Kind::Cast: {
      auto *c = cast<Cast>(&e);
      missing(e, c->value, "a value");
      if (!c->value || !c->value->type) return;
      const Type *from = c->value->type, *to = e.type;
      bool numeric = from->isNumber() && to->isNumber();
      bool arrayView = from->isArray() && to->isArray() && from->dtype() == to->dtype() &&
                       from->ndim() == to->ndim();
      bool enumValue = (from->isEnumMember() && from->dtype() == to) ||
                       (to->isEnumMember() && to->dtype() == from);
      bool emptyList = from->isList() && to->isList() && !from->dtype();
      bool optional = to->isOptional() || from->isOptional();
      bool dict = (from->isDict() || to->isDict()) && (from->isDict() || from->isTuple()) &&
                  (to->isDict() || to->isTuple());
      optional |= dict;
      if (!numeric && !arrayView && !enumValue && !emptyList && !optional)
        problem(e.loc,
                fmt::format("Cast from {} to {}, expected numbers, arrays of one dtype and ndim, "
                            "an enum member and its value, or [] to a list type",
                            str(from), str(to)));
      return;
    }
    case Kind::Unary: {
      auto *u = cast<Unary>(&e);
      missing(e, u->operand, "an operand");
      if (u->op == UnOp::Not) {
        expectBool(u->operand, what, "the operand");
        if (!e.type->isBool()) problem(e.loc, fmt::format("not is {}, expected bool", str(e.type)));
      } else {
        expect(u->operand, e.type, what, "the operand");
      }
      return;
    }
    case Kind::Binary: {
      auto *b = cast<Binary>(&e);
      missing(e, b->lhs, "a left operand");
      missing(e, b->rhs, "a right operand");
      if (!b->lhs || !b->rhs) return;
      if (isComparison(b->op)) {
        expect(b->rhs, b->lhs->type, what, "the right operand");
        if (!e.type->isBool())
          problem(e.loc,
                  fmt::format("comparison {} is {}, expected bool", spelling(b->op), str(e.type)));
      } else if (b->op == BinOp::LShift || b->op == BinOp::RShift) {
        expect(b->lhs, e.type, what, "the left operand");
      } else {
        expect(b->lhs, e.type, what, "the left operand");
        expect(b->rhs, e.type, what, "the right operand");
      }
      return;
    }
    case Kind::Logical: {
      auto *l = cast<Logical>(&e);
      missing(e, l->lhs, "a left operand");
      missing(e, l->rhs, "a right operand");
      missing(e, l->lhsTruth, "the truth of its left operand");
      expect(l->lhs, e.type, what, "the left operand");
      expect(l->rhs, e.type, what, "the right operand");
      expectBool(l->lhsTruth, what, "the truth of the left operand");
      return;
    }
    case Kind::Select: {
      auto *s = cast<Select>(&e);
      missing(e, s->cond, "a condition");
      missing(e, s->ifTrue, "a true value");
      missing(e, s->ifFalse, "a false value");
      expectBool(s->cond, what, "the condition");
      expect(s->ifTrue, e.type, what, "the true value");
      expect(s->ifFalse, e.type, what, "the false value");
      return;
    }
    case Kind::ArrayLoad: {
      // (An element of an array of records is a reference to it.)
      auto *l = cast<ArrayLoad>(&e);
      if (const Type *dtype = arrayAccess(e, l->array, l->indices); dtype && dtype != e.type)
        problem(e.loc,
                fmt::format("ArrayLoad is {}, the array's dtype is {}", str(e.type), str(dtype)));
      return;
    }
    case Kind::ArrayView: {
      auto *v = cast<ArrayView>(&e);
      missing(e, v->array, "an array");
      if (!v->array || !v->array->type) return;
      if (!v->array->type->isArray()) {
        problem(e.loc, fmt::format("the array of ArrayView is {}, expected an array",
                                   str(v->array->type)));
        return;
      }
      size_t taken = 0;
      for (const SliceSpec &sp : v->specs) taken += !sp.isNewAxis;
      if (taken > v->array->type->ndim())
        problem(e.loc,
                fmt::format("ArrayView has {} subscripts into a {}-d array, expected at most {}",
                            taken, v->array->type->ndim(), v->array->type->ndim()));
      for (const SliceSpec &sp : v->specs) {
        if (sp.isNewAxis) continue;
        if (sp.isIndex) missing(e, sp.start, "an index");
        expectInt64(sp.start, what, sp.isIndex ? "an index" : "a slice start");
        expectInt64(sp.stop, what, "a slice stop");
        expectInt64(sp.step, what, "a slice step");
      }
      return;
    }
    case Kind::TupleMake: {
      auto *t = cast<TupleMake>(&e);
      if (!e.type->isTuple() || e.type->elements().size() != t->elems.size()) {
        problem(e.loc, fmt::format("TupleMake of {} elements is {}, expected a tuple of {}",
                                   t->elems.size(), str(e.type), t->elems.size()));
        return;
      }
      for (size_t i = 0; i < t->elems.size(); ++i) {
        missing(e, t->elems[i], "an element");
        expect(t->elems[i], e.type->elements()[i], what, "an element");
      }
      return;
    }
    case Kind::TupleGet: {
      auto *g = cast<TupleGet>(&e);
      missing(e, g->tuple, "a tuple");
      if (!g->tuple || !g->tuple->type) return;
      const Type *tt = g->tuple->type;
      if (!tt->isTuple()) {
        problem(e.loc, fmt::format("the tuple of TupleGet is {}, expected a tuple", str(tt)));
        return;
      }
      if (g->dynIndex) {
        expectInt64(g->dynIndex, what, "the index");
        if (!tt->isHomogeneousTuple())
          problem(e.loc,
                  fmt::format("TupleGet with a run-time index into {}, expected one element type",
                              str(tt)));
        else
          expect(&e, tt->elements()[0], "the tuple", "TupleGet");
        return;
      }
      if (g->index >= tt->elements().size()) {
        problem(e.loc, fmt::format("TupleGet of element {} of {}, which has {}", g->index, str(tt),
                                   tt->elements().size()));
        return;
      }
      if (tt->elements()[g->index] != e.type)
        problem(e.loc, fmt::format("TupleGet of element {} is {}, the element is {}", g->index,
                                   str(e.type), str(tt->elements()[g->index])));
      return;
    }
    case Kind::Call: {
      auto *c = cast<Call>(&e);
      missing(e, c->callee, "a callee");
      if (!c->callee) return;
      if (c->args.size() != c->callee->params.size()) {
        problem(e.loc, fmt::format("Call of '{}' with {} arguments, expected {}", c->callee->name,
                                   c->args.size(), c->callee->params.size()));
        return;
      }
      for (size_t i = 0; i < c->args.size(); ++i) {
        missing(e, c->args[i], "an argument");
        expect(c->args[i], c->callee->params[i]->type, what, "an argument");
      }
      return;
    }
    case Kind::Intrinsic: {
      auto *in = cast<Intrinsic>(&e);
      int arity = intrinsicArity(in->id);
      if (arity >= 0 && in->args.size() != size_t(arity))
        problem(e.loc, fmt::format("intrinsic {} with {} arguments, expected {}",
                                   intrinsicName(in->id), in->args.size(), arity));
      bool hasSubOps = in->id == IntrinsicId::Atomic || in->id == IntrinsicId::ShflSync ||
                       in->id == IntrinsicId::VoteSync;
      if (in->subOp != SubOp::None && subOpInfo(in->subOp).intrinsic != in->id)
        problem(e.loc, fmt::format("intrinsic {} with the sub-operation {} of {}",
                                   intrinsicName(in->id), subOpInfo(in->subOp).name,
                                   intrinsicName(subOpInfo(in->subOp).intrinsic)));
      else if (hasSubOps && in->subOp == SubOp::None)
        problem(e.loc, fmt::format("intrinsic {} without a sub-operation", intrinsicName(in->id)));
      if (in->id >= IntrinsicId::RecordGet && in->id <= IntrinsicId::RecordArrayField &&
          !in->args.empty() && in->args[0] && in->args[0]->type) {
        const Type *rt = in->args[0]->type;
        if (in->id == IntrinsicId::RecordArrayField) rt = rt->isArray() ? rt->dtype() : nullptr;
        if (!rt || !rt->isRecord())
          problem(e.loc, fmt::format("intrinsic {} of {}, expected {}", intrinsicName(in->id),
                                     str(in->args[0]->type),
                                     in->id == IntrinsicId::RecordArrayField ? "an array of records"
                                                                             : "a record"));
        else if (!rt->field(in->text))
          problem(e.loc, fmt::format("intrinsic {} of field '{}', which {} does not have",
                                     intrinsicName(in->id), in->text, str(rt)));
      }
      return;
    }
    default:
      problem(e.loc, fmt::format("{} is a statement kind, found as an expression", what));
      return;
    }
  }

  void stmt(const Stmt &s) {
    const char *what = kindName(s.kind());
    switch (s.kind()) {
    case Kind::Assign: {
      auto *a = cast<Assign>(&s);
      missing(s, a->value, "a value");
      if (a->var) expect(a->value, a->var->type, what, "the value");
      return;
    }
    case Kind::Store: {
      auto *st = cast<ir::Store>(&s);
      missing(s, st->value, "a value");
      if (const Type *dtype = arrayAccess(s, st->array, st->indices))
        expect(st->value, dtype, what, "the value");
      return;
    }
    case Kind::If:
      missing(s, cast<If>(&s)->cond, "a condition");
      expectBool(cast<If>(&s)->cond, what, "the condition");
      return;
    case Kind::While:
      missing(s, cast<While>(&s)->cond, "a condition");
      expectBool(cast<While>(&s)->cond, what, "the condition");
      return;
    case Kind::ForRange: {
      auto *f = cast<ForRange>(&s);
      missing(s, f->start, "a start");
      missing(s, f->stop, "a stop");
      missing(s, f->step, "a step");
      if (f->var && !isInt64(f->var->type))
        problem(s.loc,
                fmt::format("the variable of ForRange is {}, expected int64", str(f->var->type)));
      expectInt64(f->start, what, "the start");
      expectInt64(f->stop, what, "the stop");
      expectInt64(f->step, what, "the step");
      return;
    }
    case Kind::Break:
    case Kind::Continue:
    case Kind::Return:
    case Kind::Try:
    case Kind::Raise: return;
    case Kind::Eval: missing(s, cast<Eval>(&s)->value, "a value"); return;
    default:
      problem(s.loc, fmt::format("{} is an expression kind, found as a statement", what));
      return;
    }
  }
};

}  // namespace

void checkNode(const Node &n, std::vector<Problem> &out) { NodeChecker(out).node(n); }

}  // namespace kjit::ir
