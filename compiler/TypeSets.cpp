// TypeSets.cpp - typing Python's sets: displays, set(), the element type of
// set() (refined by the first add, as Numba refines an empty set), and the
// operators. What sets do at run time is the builtins library's
// (compiler/lib/builtins/sets.kjit): Numba's hash table, so that a set
// iterates in the order Numba's does.
#include "compiler/Builtins.h"
#include "compiler/TyperImpl.h"

namespace kjit::typing {

namespace {

// A number, a negated number or a tuple of them: what CPython folds into a
// constant.
bool isConstantDisplayItem(const ast::Expr *x) {
  auto number = [](const ast::Expr *e) {
    return ast::isa<ast::IntLit>(e) || ast::isa<ast::FloatLit>(e) || ast::isa<ast::BoolLit>(e);
  };
  if (number(x)) return true;
  if (auto *u = ast::dyn_cast<ast::UnaryExpr>(x))
    return u->op != ast::UnaryOp::Not && number(u->operand);
  if (auto *t = ast::dyn_cast<ast::TupleExpr>(x)) {
    for (const ast::Expr *e : t->elts)
      if (!isConstantDisplayItem(e)) return false;
    return true;
  }
  return false;
}

}  // namespace

// {a, b, c}: the elements unified (numbers promote); set() has an undefined
// element type until an add gives it one.
Expr *FunctionTyper::setLiteral(const ast::DictExpr *d) {
  if (cudaTarget()) return unsupported(d->loc, "sets are not supported in kernels");
  if (d->keys.empty()) return emptyDict(tc_.set(nullptr), d->loc);
  std::vector<Expr *> elems;
  const Type *t = nullptr;
  for (const ast::Expr *x : d->keys) {
    Expr *v = expr(x);
    if (!known(v)) return unknown(d->loc);
    v = runtimeString(v);
    if (!v->type->isNumber() && !v->type->isTuple() && !v->type->isString())
      return unsupported(x->loc, fmt::format("a set of {} is not supported; set elements are "
                                             "numbers, strings or tuples of numbers",
                                             v->type->str()));
    const Type *u = t ? unify(tc_, t, v->type) : v->type;
    if (!u || !u->isRuntime())
      return typingError(
          x->loc, fmt::format("cannot unify {} and {} in a set display", t->str(), v->type->str()));
    t = u;
    elems.push_back(v);
  }
  for (Expr *&v : elems) v = castTo(v, t);
  // More than two constants: CPython's bytecode has them as a frozenset,
  // and Numba's set takes its order from it (compiler/lib/builtins/sets.kjit).
  bool consts = d->keys.size() > 2;
  for (const ast::Expr *x : d->keys) consts &= isConstantDisplayItem(x);
  return listLib(consts ? "_set_from_consts" : "_set_from_tuple",
                 {ir_.tupleMake(std::move(elems), d->loc)}, d->loc);
}

// set() and set(seq).
Expr *FunctionTyper::setCall(const ast::CallExpr *c) {
  if (cudaTarget()) return unsupported(c->loc, "sets are not supported in kernels");
  if (!c->keywords.empty()) return typingError(c->loc, "set() takes no keyword arguments");
  if (c->args.empty()) return emptyDict(tc_.set(nullptr), c->loc);
  if (c->args.size() > 1)
    return typingError(c->loc,
                       fmt::format("set expected at most 1 argument, got {}", c->args.size()));
  Expr *seq = rangeList(c->args[0]);
  if (!seq) seq = expr(c->args[0]);
  if (!known(seq)) return seq;
  if (hasUndefinedList(seq->type)) return unknown(c->loc);  // (typed again with it)
  const Type *e = iteratedType(seq->type);
  if (!e)
    return typingError(c->args[0]->loc,
                       fmt::format("set() of {} is not supported; it takes a list, a set, a 1-d "
                                   "array or a tuple of one element type",
                                   seq->type->str()));
  if (!e->isNumber() && !e->isTuple() && !e->isString())
    return unsupported(c->args[0]->loc,
                       fmt::format("a set of {} is not supported; set elements are numbers or "
                                   "tuples of numbers",
                                   e->str()));
  return listLib("_set_fill", {emptyDict(tc_.set(e), c->loc), seq}, c->loc);
}

// `s.add(x)` (or update) on a variable whose set has no element type yet:
// the value gives it one (the passes repeat with it).
void FunctionTyper::refineSet(const ast::Expr *receiver, const std::string &method,
                              const std::vector<Expr *> &args) {
  auto *n = ast::dyn_cast<ast::NameExpr>(receiver);
  if (!n || args.size() != 2 || !known(args[0]) || !known(args[1])) return;
  VarInfo &info = vars_[localName(n->name)];
  if (!info.type || !info.type->isSet() || info.type->keyType()) return;
  const Type *elem = nullptr;
  if (method == "add") elem = args[1]->type;
  if (method == "update" && !hasUndefinedList(args[1]->type)) elem = iteratedType(args[1]->type);
  if (elem && elem->kind() == TypeKind::StringLit) elem = tc_.str();
  if (!elem || (!elem->isNumber() && !elem->isTuple() && !elem->isString())) return;
  info.type = tc_.set(elem);
  changed_ = true;
}

// a | b, a & b, a - b, a ^ b: new sets.
Expr *FunctionTyper::setBinary(ast::BinaryOp op, Expr *l, Expr *r, SourceLoc loc) {
  const char *lib = op == ast::BinaryOp::BitOr    ? "_set_union"
                    : op == ast::BinaryOp::BitAnd ? "_set_intersection"
                    : op == ast::BinaryOp::Sub    ? "_set_difference"
                    : op == ast::BinaryOp::BitXor ? "_set_symmetric_difference"
                                                  : nullptr;
  if (!lib || l->type != r->type) {
    if (hasUndefinedList(l->type) || hasUndefinedList(r->type)) return unknown(loc);
    return typingError(loc, fmt::format("unsupported operand types for {}: {} and {}",
                                        ast::spelling(op), l->type->str(), r->type->str()));
  }
  if (hasUndefinedList(l->type)) return unknown(loc);
  return listLib(lib, {l, r}, loc);
}

// a == b, a != b, a <= b (subset), a < b (proper subset), a >= b, a > b.
Expr *FunctionTyper::setCompare(ast::CmpOp op, Expr *l, Expr *r, SourceLoc loc) {
  if (hasUndefinedList(l->type) || hasUndefinedList(r->type)) return unknown(loc);
  if (l->type != r->type) {
    if (op == ast::CmpOp::Eq || op == ast::CmpOp::Ne) return constBool(op == ast::CmpOp::Ne, loc);
    return typingError(loc, fmt::format("unsupported operand types for {}: {} and {}",
                                        ast::spelling(op), l->type->str(), r->type->str()));
  }
  switch (op) {
  case ast::CmpOp::Eq: return listLib("_set_eq", {l, r}, loc);
  case ast::CmpOp::Ne: {
    Expr *eq = listLib("_set_eq", {l, r}, loc);
    return known(eq) ? unaryOp(ast::UnaryOp::Not, eq, loc) : eq;
  }
  case ast::CmpOp::Le: return listLib("_set_issubset", {l, r}, loc);
  case ast::CmpOp::Ge: return listLib("_set_issubset", {r, l}, loc);
  case ast::CmpOp::Lt: return listLib("_set_issubset", {l, r, constBool(true, loc)}, loc);
  case ast::CmpOp::Gt: return listLib("_set_issubset", {r, l, constBool(true, loc)}, loc);
  default:
    return typingError(loc, fmt::format("unsupported operand types for {}: {} and {}",
                                        ast::spelling(op), l->type->str(), r->type->str()));
  }
}

}  // namespace kjit::typing
