// TypeStatements.cpp - typing statements: the dispatch over statement
// kinds, control flow (if, while, try), return, raise and assert.
// Assignments are in TypeAssignments.cpp, for loops in TypeLoops.cpp,
// expressions in TypeExpressions.cpp.
#include "compiler/TyperImpl.h"

namespace kjit::typing {

// Statements after one that ends the block (a return, raise, break or
// continue, also one that an `if` known at compile time left) are not
// reached: they are not typed, as Numba never sees them.
void FunctionTyper::block(const ast::StmtList &in, Block &out) {
  for (const ast::Stmt *s : in) {
    if (!out.empty() && (isa<Return>(out.back()) || isa<Raise>(out.back()) ||
                         isa<Break>(out.back()) || isa<Continue>(out.back())))
      return;
    stmt(s, out);
  }
}

// The value of a condition known at compile time: a constant, a comparison
// of two integer or float constants, or `not` of one; nullopt otherwise.
static std::optional<bool> constantTruth(const Expr *e) {
  if (!e || !e->type) return std::nullopt;
  if (auto *c = dyn_cast<Const>(e)) {
    if (c->type->isBool() || c->type->isInt()) return c->i != 0;
    return std::nullopt;
  }
  if (auto *u = dyn_cast<Unary>(e); u && u->op == UnOp::Not) {
    if (std::optional<bool> v = constantTruth(u->operand)) return !*v;
    return std::nullopt;
  }
  auto *b = dyn_cast<Binary>(e);
  if (!b || !isComparison(b->op)) return std::nullopt;
  auto *l = dyn_cast<Const>(b->lhs), *r = dyn_cast<Const>(b->rhs);
  if (!l || !r || l->type != r->type ||
      !(l->type->isInt() || l->type->isBool() || l->type->isFloat()))
    return std::nullopt;
  // Both of one type (`-2 != 0.5` compares two float64 constants): an
  // unsigned one (uint64 as its bit pattern) compares unsigned.
  auto compare = [&](auto x, auto y) -> std::optional<bool> {
    switch (b->op) {
    case BinOp::Lt: return x < y;
    case BinOp::Gt: return x > y;
    case BinOp::Le: return x <= y;
    case BinOp::Ge: return x >= y;
    case BinOp::Eq: return x == y;
    case BinOp::Ne: return x != y;
    default: return std::nullopt;
    }
  };
  if (l->type->isFloat()) return compare(l->f, r->f);
  if (l->type->isInt() && !l->type->isSigned()) return compare(uint64_t(l->i), uint64_t(r->i));
  return compare(l->i, r->i);
}

void FunctionTyper::stmt(const ast::Stmt *s, Block &out) {
  using NK = ast::NodeKind;
  switch (s->kind()) {
  case NK::PassStmt: return;
  case NK::ExprStmt: {
    const ast::Expr *e = ast::cast<ast::ExprStmt>(s)->value;
    if (ast::isa<ast::StrLit>(e)) return;  // a string statement is a comment
    Expr *v = expr(e);
    if (!known(v)) return;
    if (isa<Const>(v) || isa<VarRef>(v)) return;
    out.push_back(ir_.eval(v, s->loc));
    return;
  }
  case NK::AssignStmt: {
    auto *a = ast::cast<ast::AssignStmt>(s);
    Expr *value = expr(a->value);
    if (a->targets.size() == 1) {
      assignTarget(a->targets[0], value, out);
      return;
    }
    // a = b = v: evaluate v once.
    if (known(value) && value->type->isRuntime() && !isa<Const>(value)) {
      Var *tmp = temp(value, out);
      value = varRef(tmp, value->loc);
    }
    for (const ast::Expr *t : a->targets) assignTarget(t, value, out);
    return;
  }
  case NK::AnnAssignStmt: {
    auto *a = ast::cast<ast::AnnAssignStmt>(s);
    if (!a->value) return;
    assignTarget(a->target, expr(a->value), out);
    return;
  }
  case NK::AugAssignStmt: {
    auto *a = ast::cast<ast::AugAssignStmt>(s);
    if (auto *sub = ast::dyn_cast<ast::SubscriptExpr>(a->target)) {
      // a[i] op= v: evaluate the array and the indices once.
      Expr *arr = expr(sub->value);
      if (known(arr) && arr->type->isRecord()) {
        augAssignField(a, arr, out);
        return;
      }
      Expr *rhs = expr(a->value);
      if (!known(arr) || !known(rhs)) return;
      if (arr->type->isSet()) {
        typingError(sub->loc, "'set' object is not subscriptable");
        return;
      }
      if (arr->type->isDict() || arr->type->isList()) {
        // d[key] op= v, l[i] op= v: the container and the key evaluated
        // once, read and written through the builtins library.
        bool isDict = arr->type->isDict();
        Var *cv = temp(arr, out);
        Expr *k = expr(sub->index);
        if (!known(k)) return;
        if (!isDict && !k->type->isInt() && !k->type->isBool()) {
          typingError(sub->index->loc,
                      fmt::format("list indices must be integers, not {}", k->type->str()));
          return;
        }
        Var *kv = temp(isDict ? k : castTo(k, tc_.int64()), out);
        Expr *cur = listLib(isDict ? "_dict_getitem" : "_list_getitem",
                            {varRef(cv, a->loc), varRef(kv, a->loc)}, a->loc);
        if (!known(cur)) return;
        Expr *result = binary(a->op, cur, rhs, a->loc);
        if (!known(result)) return;
        Expr *r = listLib(isDict ? "_dict_setitem" : "_list_setitem",
                          {varRef(cv, a->loc), varRef(kv, a->loc), result}, a->loc);
        if (known(r)) out.push_back(ir_.eval(r, a->loc));
        return;
      }
      if (!arr->type->isArray()) {
        typingError(sub->value->loc,
                    fmt::format("cannot assign to an item of {}", arr->type->str()));
        return;
      }
      std::vector<const ast::Expr *> idx;
      std::vector<Expr *> typed;
      if (!indexList(sub->index, idx, typed)) return;
      if (!expandEllipsis(idx, typed, arr->type->ndim(), a->loc)) return;
      bool slices = idx.size() != arr->type->ndim();
      for (size_t k = 0; k < idx.size() && !slices; ++k) {
        if (ast::isa<ast::SliceExpr>(idx[k])) {
          slices = true;
          break;
        }
        if (!typed[k]) typed[k] = expr(idx[k]);
        slices = known(typed[k]) && typed[k]->type->isArray();
      }
      if (slices) {
        // a[1:] += b: in place, into the view.
        Expr *view = subscript(sub);
        if (!known(view)) return;
        Expr *r = binaryInto(a->op, view, rhs, view, a->loc);
        if (known(r)) out.push_back(ir_.eval(r, a->loc));
        return;
      }
      std::vector<Expr *> indices;
      // A plain variable is used as it is (a temp copy of it would count as
      // a second reference, and keep its array from being freed early: see
      // compiler/passes/ArrayOwnership.cpp); anything else is evaluated once.
      Var *arrVar = isa<VarRef>(arr) ? cast<VarRef>(arr)->var : temp(arr, out);
      for (size_t k = 0; k < idx.size(); ++k) {
        const ast::Expr *ie = idx[k];
        Expr *v = intIndex(ie, typed[k] ? typed[k] : expr(ie));
        if (!known(v)) return;
        Var *iv = temp(v, out);
        indices.push_back(varRef(iv, ie->loc));
      }
      Expr *load = ir_.arrayLoad(varRef(arrVar, sub->loc), indices, sub->loc, boundscheck());
      Expr *result = binary(a->op, load, rhs, a->loc);
      if (!known(result)) return;
      Expr *array = varRef(arrVar, sub->loc);
      out.push_back(
          ir_.store(array, indices, castTo(result, arr->type->dtype()), a->loc, boundscheck()));
      return;
    }
    if (auto *n = ast::dyn_cast<ast::NameExpr>(a->target)) {
      Expr *cur = name(n);
      Expr *rhs = expr(a->value);
      if (known(cur) && known(rhs) && cur->type->isArray() && !cudaTarget()) {
        // a += b on an array is in place: a's elements change, and every
        // other reference to them (the caller's) sees it, as in NumPy.
        Expr *r = binaryInto(a->op, cur, rhs, cur, a->loc);
        if (known(r)) out.push_back(ir_.eval(r, a->loc));
        return;
      }
      if (known(cur) && known(rhs) && cur->type->isList() && a->op == ast::BinaryOp::Add) {
        // l += items extends l in place, as Python's list does.
        std::vector<Expr *> args{cur, rhs};
        refineList(n, "extend", args);
        if (!cur->type->dtype()) return;
        Expr *r = listLib("_list_extend", {cur, rhs}, a->loc);
        if (known(r)) out.push_back(ir_.eval(r, a->loc));
        return;
      }
      if (known(cur) && known(rhs) && cur->type->isSet() && rhs->type->isSet()) {
        // s |= t ... change s in place, as Python's set does.
        const char *lib = a->op == ast::BinaryOp::BitOr    ? "update"
                          : a->op == ast::BinaryOp::BitAnd ? "intersection_update"
                          : a->op == ast::BinaryOp::Sub    ? "difference_update"
                          : a->op == ast::BinaryOp::BitXor ? "symmetric_difference_update"
                                                           : nullptr;
        if (lib) {
          std::vector<Expr *> args{cur, rhs};
          refineSet(n, "update", args);
          if (hasUndefinedList(cur->type) || hasUndefinedList(rhs->type)) return;
          if (cur->type != rhs->type) {
            typingError(a->loc,
                        fmt::format("unsupported operand types for {}=: {} and {}",
                                    ast::spelling(a->op), cur->type->str(), rhs->type->str()));
            return;
          }
          Expr *r = listLib((std::string("_set_") + lib).c_str(), {cur, rhs}, a->loc);
          if (known(r)) out.push_back(ir_.eval(r, a->loc));
          return;
        }
      }
      assignVar(n->name, binary(a->op, cur, rhs, a->loc), a->loc, out);
      return;
    }
    if (augAssignField(a, nullptr, out)) return;
    unsupported(a->loc,
                "augmented assignment to attributes is not supported in kernels (only "
                "to the fields of records)");
    return;
  }
  case NK::IfStmt: {
    auto *i = ast::cast<ast::IfStmt>(s);
    // `if flag:` on a parameter bound to a literal keeps only the branch
    // taken, as Numba prunes dead branches on literal arguments.
    if (auto *n = ast::dyn_cast<ast::NameExpr>(i->test); n && boundParams_.count(n->name)) {
      if (auto *k = dyn_cast<Const>(expr(i->test)); k && k->type && k->type->isNumber()) {
        block(k->i ? i->body : i->orelse, out);
        return;
      }
    }
    Expr *cond = truth(expr(i->test));
    // A condition known at compile time (`if M is None:` on an argument of
    // type none, `if a.ndim == 1:`, a global flag) keeps only the branch
    // taken, as Numba prunes dead branches: the other is not typed.
    if (std::optional<bool> k = constantTruth(cond)) {
      block(*k ? i->body : i->orelse, out);
      return;
    }
    Block then, otherwise;
    block(i->body, then);
    block(i->orelse, otherwise);
    if (known(cond)) out.push_back(ir_.ifStmt(cond, std::move(then), std::move(otherwise), s->loc));
    return;
  }
  case NK::WhileStmt: {
    auto *w = ast::cast<ast::WhileStmt>(s);
    Expr *cond = truth(expr(w->test));
    Block body, orelse;
    ++loopDepth_;
    block(w->body, body);
    --loopDepth_;
    block(w->orelse, orelse);
    if (known(cond)) out.push_back(ir_.whileStmt(cond, std::move(body), std::move(orelse), s->loc));
    return;
  }
  case NK::ForStmt: forLoop(ast::cast<ast::ForStmt>(s), out); return;
  case NK::TryStmt: tryStmt(ast::cast<ast::TryStmt>(s), out); return;
  case NK::BreakStmt: out.push_back(ir_.breakStmt(s->loc)); return;
  case NK::ContinueStmt: out.push_back(ir_.continueStmt(s->loc)); return;
  case NK::ReturnStmt: returnStmt(ast::cast<ast::ReturnStmt>(s), out); return;
  case NK::RaiseStmt: raiseStmt(ast::cast<ast::RaiseStmt>(s), out); return;
  case NK::AssertStmt: {
    auto *a = ast::cast<ast::AssertStmt>(s);
    Expr *t = truth(expr(a->test));
    if (!known(t)) return;
    std::string message;
    if (a->msg) {
      Expr *m = expr(a->msg);
      if (known(m) && m->type->kind() == TypeKind::StringLit)
        message = m->type->symbol();
      else if (known(m))
        unsupported(a->msg->loc, "the message of an assert must be a constant string");
    }
    out.push_back(ir_.ifStmt(ir_.unary(UnOp::Not, t, s->loc),
                             {ir_.raise("AssertionError", message, s->loc)}, {}, s->loc));
    return;
  }
  case NK::FunctionDef: nestedDef(ast::cast<ast::FunctionDef>(s)); return;
  case NK::ImportStmt: return;  // reported by the parser
  default: unsupported(s->loc, "unsupported statement"); return;
  }
}

// try/except/else: the handler is an if/elif chain over the except clauses
// (each catches its classes and their subclasses, a bare `except:` and
// `except Exception:` everything, as Numba's); no clause: raised on.
void FunctionTyper::tryStmt(const ast::TryStmt *t, Block &out) {
  if (cudaTarget()) {
    unsupported(t->loc,
                "try/except is not supported in kernels; check the condition with 'if' and "
                "raise, or return an error code");
    return;
  }
  Block body, handler, orelse;
  block(t->body, body);
  block(t->orelse, orelse);
  Block *next = &handler;
  for (const ast::ExceptHandler &h : t->handlers) {
    std::string classes;
    if (h.type) {
      std::vector<const Type *> types;
      const ast::TupleExpr *tuple = ast::dyn_cast<ast::TupleExpr>(h.type);
      if (tuple) {
        for (const ast::Expr *e : tuple->elts) {
          Expr *x = expr(e);
          if (!known(x)) return;
          types.push_back(x->type);
        }
      } else {
        Expr *c = expr(h.type);
        if (!known(c)) return;
        types.push_back(c->type);
      }
      for (const Type *ct : types) {
        if (ct->kind() != TypeKind::ExceptionClass) {
          typingError(h.type->loc,
                      fmt::format("an except clause takes exception classes, not {}", ct->str()));
          return;
        }
        classes += (classes.empty() ? "" : "|") + ct->symbol();
      }
    }
    Intrinsic *matches = ir_.intrinsic(IntrinsicId::ExcMatches, {}, tc_.boolean(), h.loc);
    matches->text = classes;
    Block caught;
    caught.push_back(ir_.eval(ir_.intrinsic(IntrinsicId::ExcClear, {}, tc_.none(), h.loc), h.loc));
    block(h.body, caught);
    If *clause = ir_.ifStmt(matches, std::move(caught), {}, h.loc);
    next->push_back(clause);
    next = &clause->otherwise;
  }
  next->push_back(ir_.eval(ir_.intrinsic(IntrinsicId::ExcReraise, {}, tc_.none(), t->loc), t->loc));
  out.push_back(ir_.tryStmt(std::move(body), std::move(handler), std::move(orelse), t->loc));
}

// Whether running `body` can reach its end (and the function return None
// there): structurally, as loops may run no iteration (`while True:`
// without a `break` excepted).
bool canFallOff(const ast::StmtList &body) {
  std::function<bool(const ast::StmtList &, bool &)> reach = [&](const ast::StmtList &b,
                                                                 bool &breaks) -> bool {
    for (const ast::Stmt *s : b) {
      switch (s->kind()) {
      case ast::NodeKind::ReturnStmt:
      case ast::NodeKind::RaiseStmt: return false;
      case ast::NodeKind::BreakStmt: breaks = true; return false;
      case ast::NodeKind::ContinueStmt: return false;
      case ast::NodeKind::IfStmt: {
        auto *i = ast::cast<ast::IfStmt>(s);
        bool a = reach(i->body, breaks), c = reach(i->orelse, breaks);
        if (!a && !c) return false;
        break;
      }
      case ast::NodeKind::WhileStmt: {
        auto *w = ast::cast<ast::WhileStmt>(s);
        bool inner = false;
        reach(w->body, inner);
        auto *lit = ast::dyn_cast<ast::BoolLit>(w->test);
        auto *num = ast::dyn_cast<ast::IntLit>(w->test);
        bool forever = (lit && lit->value) || (num && num->value != 0);
        if (forever && !inner) return false;
        break;
      }
      case ast::NodeKind::TryStmt: {
        auto *t = ast::cast<ast::TryStmt>(s);
        bool any = reach(t->body, breaks) && reach(t->orelse, breaks);
        for (const ast::ExceptHandler &h : t->handlers) any |= reach(h.body, breaks);
        if (!any) return false;
        break;
      }
      default: break;
      }
    }
    return true;
  };
  bool breaks = false;
  return reach(body, breaks);
}

namespace {

// Whether `n` calls a function by a bare name (the function itself, or one
// that may call it back: mutual recursion), which typing may not have seen
// recurse yet.
bool callsByName(const ast::Node *n) {
  if (auto *c = ast::dyn_cast<ast::CallExpr>(n))
    if (ast::isa<ast::NameExpr>(c->func)) return true;
  bool found = false;
  ast::forEachChild(n, [&](const ast::Node *c) { found = found || callsByName(c); });
  return found;
}

}  // namespace

void FunctionTyper::returnStmt(const ast::ReturnStmt *r, Block &out) {
  returnValue(r->value, r->loc, out);
}

void FunctionTyper::returnValue(const ast::Expr *value_, SourceLoc loc, Block &out) {
  // `return a if c else b` is two returns, as in CPython's bytecode (which
  // Numba types), when it may recurse (it calls a function by name, or the
  // function is known to recurse): the branch that does not recurse gives
  // the return type (`return 0 if n == 0 else 1 + f(n - 1)`).
  auto *ie = value_ ? ast::dyn_cast<ast::IfExpr>(value_) : nullptr;
  if (ie && (prog_.recursive.count(key_) || callsByName(ie))) {
    Expr *cond = truth(expr(ie->test));
    if (std::optional<bool> k = constantTruth(cond)) {
      returnValue(*k ? ie->body : ie->orelse, loc, out);
      return;
    }
    Block then, otherwise;
    returnValue(ie->body, loc, then);
    returnValue(ie->orelse, loc, otherwise);
    if (known(cond)) out.push_back(ir_.ifStmt(cond, std::move(then), std::move(otherwise), loc));
    return;
  }
  Expr *v = value_ ? expr(value_) : constOf(tc_.none(), loc);
  Expr *value = nullptr;  // none
  if (known(v) && declared_) {
    if (declared_->kind() == TypeKind::Void || declared_->isNone()) {
      if (!v->type->isNone())
        typingError(loc, fmt::format("the signature declares no return value (void) but {}() "
                                     "returns {}",
                                     def_.name, v->type->str()));
      out.push_back(ir_.returnStmt(value, loc));
      return;
    }
    value = castTo(v, declared_);
    out.push_back(ir_.returnStmt(value, loc));
    return;
  }
  if (known(v)) {
    v = runtimeString(v);
    if (!v->type->isRuntime()) {
      typingError(loc, fmt::format("cannot return {}: it has no run-time value", v->type->str()));
      return;
    }
    if (!returnType_) {
      returnType_ = v->type;
      firstReturnLoc_ = loc;
      changed_ = true;
    } else if (returnType_ != v->type) {
      const Type *u = unify(tc_, returnType_, v->type);
      // A recursive function whose result holds its own last result (a
      // tuple nesting one more level each pass) never converges.
      std::function<bool(const Type *, const Type *)> holds = [&](const Type *t, const Type *x) {
        if (!t) return false;
        for (const Type *e : t->elements())
          if (e == x || holds(e, x)) return true;
        if ((t->isOptional() || t->isList()) && t->dtype())
          return t->dtype() == x || holds(t->dtype(), x);
        return false;
      };
      if (u && prog_.recursive.count(key_) && holds(u, returnType_)) u = nullptr;
      if (!u) {
        if (final_ && prog_.recursive.count(key_)) {
          ctx_.diags.error(DiagCategory::Typing, loc,
                           fmt::format("Return type of recursive function does not converge: "
                                       "'{}' returns {} and {}",
                                       def_.name, returnType_->str(), v->type->str()));
        } else if (final_) {
          ctx_.diags.error(DiagCategory::Typing, loc,
                           fmt::format("cannot unify return types {} and {}", returnType_->str(),
                                       v->type->str()));
          ctx_.diags.note(firstReturnLoc_,
                          fmt::format("the function first returns {} here", returnType_->str()));
        }
        return;
      }
      if (u != returnType_) {
        returnType_ = u;
        changed_ = true;
      }
    }
    value = v->type->isNone() && !returnType_->isOptional() ? nullptr : castTo(v, returnType_);
  }
  out.push_back(ir_.returnStmt(value, loc));
}

void FunctionTyper::raiseStmt(const ast::RaiseStmt *r, Block &out) {
  if (!r->exc) {
    unsupported(r->loc, "a bare 'raise' is not supported in kernels; raise an exception class");
    return;
  }
  const ast::Expr *e = r->exc;
  const ast::Expr *clsExpr = e;
  const ast::CallExpr *call = ast::dyn_cast<ast::CallExpr>(e);
  if (call) clsExpr = call->func;
  Expr *cls = expr(clsExpr);
  if (!known(cls)) return;
  if (cls->type->kind() != TypeKind::ExceptionClass) {
    typingError(e->loc, fmt::format("exceptions must derive from BaseException; found {}",
                                    cls->type->str()));
    return;
  }
  std::string message;
  if (call) {
    if (call->args.size() > 1 || !call->keywords.empty()) {
      unsupported(call->loc, "an exception raised in a kernel takes at most one constant string");
      return;
    }
    if (call->args.size() == 1) {
      Expr *m = expr(call->args[0]);
      if (!known(m)) return;
      if (m->type->kind() == TypeKind::StringLit) {
        message = m->type->symbol();
      } else if (auto *c = dyn_cast<Const>(m); c && m->type->isInt()) {
        message = std::to_string(c->i);
      } else {
        unsupported(call->args[0]->loc,
                    "the argument of an exception raised in a kernel must be a "
                    "constant string");
        return;
      }
    }
  }
  out.push_back(ir_.raise(cls->type->symbol(), message, r->loc));
}

}  // namespace kjit::typing
