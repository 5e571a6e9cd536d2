// IRBuilder.cpp - the checked factories of ir::Builder.
#include "compiler/IRBuilder.h"

#include <cassert>
#include <cstdio>

#include "frontend/support/Options.h"

namespace kjit::ir {

namespace {
const Type *typeOf(const Expr *e) { return e ? e->type : nullptr; }
}  // namespace

bool checksRequested() {
#ifndef NDEBUG
  return true;
#else
  return envFlag("KJIT_VERIFY");
#endif
}

void Builder::check(const Node &n) {
  if (!checking_) return;
  std::vector<Problem> problems;
  checkNode(n, problems);
  if (problems.empty()) return;
  if (onProblem_) {
    onProblem_(n, problems);
    return;
  }
  for (const Problem &p : problems)
    std::fprintf(stderr, "kjit: internal error: ir::Builder made an invalid %s at %u:%u: %s\n",
                 kindName(n.kind()), p.loc.line, p.loc.col, p.message.c_str());
  assert(false && "ir::Builder made a node that breaks IR.h's semantics");
}

// ---- expressions ----

Const *Builder::constant(const Type *t, SourceLoc loc) {
  auto *c = arena_.make<Const>(loc);
  c->type = t;
  return c;
}
Const *Builder::constInt(int64_t v, const Type *t, SourceLoc loc) {
  Const *c = constant(t, loc);
  c->i = v;
  return c;
}
Const *Builder::constFloat(double v, const Type *t, SourceLoc loc) {
  Const *c = constant(t, loc);
  c->f = v;
  return c;
}
Const *Builder::constBool(bool v, SourceLoc loc) { return constInt(v, types_.boolean(), loc); }

VarRef *Builder::varRef(Var *v, SourceLoc loc) {
  auto *r = arena_.make<VarRef>(loc);
  r->var = v;
  r->type = v ? v->type : nullptr;
  return checked(r);
}

Cast *Builder::cast(const Type *to, Expr *value, SourceLoc loc) {
  auto *c = arena_.make<Cast>(loc);
  c->value = value;
  c->type = to;
  return checked(c);
}

Unary *Builder::unary(UnOp op, Expr *operand, SourceLoc loc) {
  auto *u = arena_.make<Unary>(loc);
  u->op = op;
  u->operand = operand;
  u->type = op == UnOp::Not ? types_.boolean() : typeOf(operand);
  return checked(u);
}

Binary *Builder::binary(BinOp op, Expr *lhs, Expr *rhs, SourceLoc loc) {
  auto *b = arena_.make<Binary>(loc);
  b->op = op;
  b->lhs = lhs;
  b->rhs = rhs;
  b->type = isComparison(op) ? types_.boolean() : typeOf(lhs);
  return checked(b);
}

Logical *Builder::logical(bool isAnd, Expr *operand, Expr *lhs, Expr *lhsTruth, Expr *rhs,
                          SourceLoc loc) {
  auto *l = arena_.make<Logical>(loc);
  l->isAnd = isAnd;
  l->operand = operand;
  l->lhs = lhs;
  l->lhsTruth = lhsTruth;
  l->rhs = rhs;
  l->type = typeOf(lhs);
  return checked(l);
}

Select *Builder::select(Expr *cond, Expr *ifTrue, Expr *ifFalse, SourceLoc loc) {
  auto *s = arena_.make<Select>(loc);
  s->cond = cond;
  s->ifTrue = ifTrue;
  s->ifFalse = ifFalse;
  s->type = typeOf(ifTrue);
  return checked(s);
}

ArrayLoad *Builder::arrayLoad(Expr *array, std::vector<Expr *> indices, SourceLoc loc,
                              bool boundscheck, bool wraparound) {
  auto *l = arena_.make<ArrayLoad>(loc);
  l->array = array;
  l->indices = std::move(indices);
  l->boundscheck = boundscheck;
  l->wraparound = wraparound;
  const Type *at = typeOf(array);
  l->type = at && at->isArray() ? at->dtype() : nullptr;
  return checked(l);
}

ArrayView *Builder::arrayView(const Type *type, Expr *array, std::vector<SliceSpec> specs,
                              SourceLoc loc, bool boundscheck) {
  auto *v = arena_.make<ArrayView>(loc);
  v->array = array;
  v->specs = std::move(specs);
  v->boundscheck = boundscheck;
  v->type = type;
  return checked(v);
}

TupleMake *Builder::tupleMake(std::vector<Expr *> elems, SourceLoc loc) {
  auto *t = arena_.make<TupleMake>(loc);
  std::vector<const Type *> types;
  bool known = true;
  for (const Expr *e : elems) {
    known &= typeOf(e) != nullptr;
    types.push_back(typeOf(e));
  }
  t->elems = std::move(elems);
  t->type = known ? types_.tuple(std::move(types)) : nullptr;
  return checked(t);
}

TupleGet *Builder::tupleGet(Expr *tuple, unsigned index, SourceLoc loc) {
  auto *g = arena_.make<TupleGet>(loc);
  g->tuple = tuple;
  g->index = index;
  const Type *tt = typeOf(tuple);
  g->type = tt && tt->isTuple() && index < tt->elements().size() ? tt->elements()[index] : nullptr;
  return checked(g);
}

TupleGet *Builder::tupleGetDynamic(Expr *tuple, Expr *index, SourceLoc loc) {
  auto *g = arena_.make<TupleGet>(loc);
  g->tuple = tuple;
  g->dynIndex = index;
  const Type *tt = typeOf(tuple);
  g->type = tt && tt->isTuple() && !tt->elements().empty() ? tt->elements()[0] : nullptr;
  return checked(g);
}

Call *Builder::call(Function *callee, std::vector<Expr *> args, SourceLoc loc) {
  auto *c = arena_.make<Call>(loc);
  c->callee = callee;
  c->args = std::move(args);
  c->type = callee ? callee->returnType : nullptr;
  return checked(c);
}

Intrinsic *Builder::intrinsic(IntrinsicId id, std::vector<Expr *> args, const Type *type,
                              SourceLoc loc, SubOp subOp, std::string text) {
  auto *in = arena_.make<Intrinsic>(loc);
  in->id = id;
  in->args = std::move(args);
  in->subOp = subOp;
  in->type = type;
  in->text = std::move(text);
  return checked(in);
}

// ---- statements ----

Assign *Builder::assign(Var *var, Expr *value, SourceLoc loc) {
  auto *a = arena_.make<Assign>(loc);
  a->var = var;
  a->value = value;
  return checked(a);
}

Store *Builder::store(Expr *array, std::vector<Expr *> indices, Expr *value, SourceLoc loc,
                      bool boundscheck, bool wraparound) {
  auto *s = arena_.make<Store>(loc);
  s->array = array;
  s->indices = std::move(indices);
  s->value = value;
  s->boundscheck = boundscheck;
  s->wraparound = wraparound;
  return checked(s);
}

If *Builder::ifStmt(Expr *cond, Block then, Block otherwise, SourceLoc loc) {
  auto *i = arena_.make<If>(loc);
  i->cond = cond;
  i->then = std::move(then);
  i->otherwise = std::move(otherwise);
  return checked(i);
}

Try *Builder::tryStmt(Block body, Block handler, Block orelse, SourceLoc loc) {
  auto *t = arena_.make<Try>(loc);
  t->body = std::move(body);
  t->handler = std::move(handler);
  t->orelse = std::move(orelse);
  return checked(t);
}

While *Builder::whileStmt(Expr *cond, Block body, Block orelse, SourceLoc loc) {
  auto *w = arena_.make<While>(loc);
  w->cond = cond;
  w->body = std::move(body);
  w->orelse = std::move(orelse);
  return checked(w);
}

ForRange *Builder::forRange(Var *var, Expr *start, Expr *stop, Expr *step, SourceLoc loc) {
  auto *f = arena_.make<ForRange>(loc);
  f->var = var;
  f->start = start;
  f->stop = stop;
  f->step = step;
  if (auto *c = step ? dyn_cast<Const>(step) : nullptr; c && c->type && c->type->isInt())
    f->constStep = c->i;
  return checked(f);
}

Break *Builder::breakStmt(SourceLoc loc) { return arena_.make<Break>(loc); }
Continue *Builder::continueStmt(SourceLoc loc) { return arena_.make<Continue>(loc); }

Return *Builder::returnStmt(Expr *value, SourceLoc loc) {
  auto *r = arena_.make<Return>(loc);
  r->value = value;
  return r;  // the return type is the function's: verify() checks it
}

Raise *Builder::raise(std::string excClass, std::string message, SourceLoc loc) {
  auto *r = arena_.make<Raise>(loc);
  r->excClass = std::move(excClass);
  r->message = std::move(message);
  return r;
}

Eval *Builder::eval(Expr *value, SourceLoc loc) {
  auto *e = arena_.make<Eval>(loc);
  e->value = value;
  return checked(e);
}

}  // namespace kjit::ir
