// TypeStatements.cpp - typing statements: assignments (names, tuples,
// array elements), control flow, loops (range, prange, arrays), return,
// raise and assert. Expressions are in TypeExpressions.cpp.
#include "compiler/ArrayExprs.h"
#include "compiler/NumpyLib.h"
#include "compiler/TyperImpl.h"

namespace kjit::typing {

// After an assignment to `target` failed to type, reads of its names stay
// quiet (the error was reported once).
void FunctionTyper::markFailed(const ast::Expr *target) {
  if (!final_) return;
  std::set<std::string> names;
  collectTargets(target, names);
  for (const std::string &n : names) vars_[n].conflictReported = true;
}

void FunctionTyper::assignVar(const std::string &source, Expr *value, SourceLoc loc, Block &out) {
  const std::string &name = localName(source);
  value = runtimeString(value);  // s = "text": a str (host code)
  VarInfo &info = vars_[name];
  if (final_ && !known(value)) info.conflictReported = true;
  if (known(value)) {
    // Assigned once a module, a function or a dtype: reads are that value.
    // Not a bound method (`m = obj.inc`: its receiver is not in the value),
    // and not a name given two such values (a literal_unroll body is typed
    // once per element): those need a run-time value, which they lack.
    const std::string &sym = value->type->symbol();
    bool method =
        value->type->kind() == TypeKind::Function &&
        (sym.rfind("jitmethod:", 0) == 0 || sym.rfind("list.", 0) == 0 ||
         sym.rfind("dict.", 0) == 0 || sym.rfind("set.", 0) == 0 || sym.rfind("str.", 0) == 0);
    if (isa<Const>(value) && singleDefs_.count(source) && !value->type->isRuntime() &&
        value->type->kind() != TypeKind::StringLit && compileTimeArg(value->type) && !method) {
      auto [it, fresh] = compileTimeLocals_.emplace(name, value->type);
      if (fresh || it->second == value->type) return;
      compileTimeLocals_.erase(it);
    } else {
      compileTimeLocals_.erase(name);
    }
    if (!info.type) {
      info.type = info.firstType = value->type;
      info.firstLoc = loc;
      changed_ = true;
    } else if (info.type != value->type) {
      const Type *u = unify(tc_, info.type, value->type);
      if (!u || !u->isRuntime()) {
        if (final_ && !info.conflictReported) {
          info.conflictReported = true;
          ctx_.diags.error(DiagCategory::Typing, loc,
                           fmt::format("cannot unify {} and {} for variable '{}'",
                                       info.firstType->str(), value->type->str(), name));
          ctx_.diags.note(info.firstLoc,
                          fmt::format("'{}' is first assigned a value of type {} here", name,
                                      info.firstType->str()));
        }
        return;
      }
      if (u != info.type) {
        info.type = u;
        changed_ = true;
      }
    }
    if (!value->type->isRuntime()) {
      if (final_ && !info.conflictReported) {
        info.conflictReported = true;
        ctx_.diags.error(DiagCategory::Typing, loc,
                         fmt::format("cannot assign {} to variable '{}': it has no run-time value; "
                                     "use it directly where it is needed",
                                     value->type->str(), name));
      }
      return;
    }
  }
  if (!final_ && !info.type) return;
  if (!info.var) info.var = newVar(name, info.type, loc);
  info.var->type = info.type;
  out.push_back(ir_.assign(info.var, castTo(value, info.type), loc));
}

// r.a op= v, r['a'] op= v: the record is evaluated once (Python evaluates
// the target's object first, then the value). `object` is the record when
// the caller typed it already. False when the target is not a record's
// field (true when its object could not be typed: an error was reported).
bool FunctionTyper::augAssignField(const ast::AugAssignStmt *a, Expr *object, Block &out) {
  Expr *rec = object;
  std::string field;
  if (!recordTarget(a->target, rec, field)) {
    auto *attr = ast::dyn_cast<ast::AttributeExpr>(a->target);
    if (!attr || !known(rec) || !rec->type->isJitClass()) return !known(rec);
    // obj.attr op= v on a @jitclass instance: read, operate, write back (an
    // array in place, as NumPy's a += b).
    Expr *rhs = expr(a->value);
    if (!known(rhs)) return true;
    Var *objVar = isa<VarRef>(rec) ? cast<VarRef>(rec)->var : temp(rec, out);
    Expr *cur = jitClassGet(varRef(objVar, a->loc), attr->attr, a->target->loc);
    if (!known(cur)) return true;
    if (cur->type->isArray()) {
      Expr *r = binaryInto(a->op, cur, rhs, cur, a->loc);
      if (known(r)) out.push_back(ir_.eval(r, a->loc));
      return true;
    }
    Expr *result = binary(a->op, cur, rhs, a->loc);
    if (!known(result)) return true;
    if (Expr *e = jitClassSet(varRef(objVar, a->loc), attr->attr, result, a->loc))
      out.push_back(ir_.eval(e, a->loc));
    return true;
  }
  Expr *rhs = expr(a->value);
  if (!known(rec) || !known(rhs)) return true;
  Var *recVar = isa<VarRef>(rec) ? cast<VarRef>(rec)->var : temp(rec, out);
  Expr *cur = recordGet(varRef(recVar, a->loc), field, a->target->loc);
  Expr *result = binary(a->op, cur, rhs, a->loc);
  if (known(result)) recordSet(varRef(recVar, a->loc), field, result, a->loc, out);
  return true;
}

void FunctionTyper::block(const ast::StmtList &in, Block &out) {
  for (const ast::Stmt *s : in) stmt(s, out);
}

void FunctionTyper::assignTarget(const ast::Expr *target, Expr *value, Block &out) {
  SourceLoc loc = target->loc;
  if (auto *n = ast::dyn_cast<ast::NameExpr>(target)) {
    assignVar(n->name, value, loc, out);
    return;
  }
  if (auto *tu = ast::dyn_cast<ast::TupleExpr>(target)) {
    if (!known(value)) {
      for (const ast::Expr *e : tu->elts) assignTarget(e, value, out);
      return;
    }
    const Type *vt = value->type;
    if (!vt->isTuple()) {
      typingError(loc, fmt::format("cannot unpack a value of type {} into {} targets", vt->str(),
                                   tu->elts.size()));
      markFailed(target);
      return;
    }
    if (vt->elements().size() != tu->elts.size()) {
      typingError(loc, fmt::format("cannot unpack a tuple of {} values into {} targets",
                                   vt->elements().size(), tu->elts.size()));
      markFailed(target);
      return;
    }
    Var *tmp = temp(value, out);
    for (size_t i = 0; i < tu->elts.size(); ++i) {
      assignTarget(tu->elts[i], ir_.tupleGet(varRef(tmp, loc), unsigned(i), tu->elts[i]->loc), out);
    }
    return;
  }
  if (auto *s = ast::dyn_cast<ast::SubscriptExpr>(target)) {
    Expr *arr = expr(s->value);
    if (!known(arr) || !known(value)) {
      if (auto *sl = ast::dyn_cast<ast::SliceExpr>(s->index)) {  // (its parts' errors only)
        for (const ast::Expr *part : {sl->lower, sl->upper, sl->step})
          if (part) expr(part);
      } else {
        expr(s->index);
      }
      return;
    }
    if (arr->type->isRecord()) {  // r['a'] = v, r[0] = v
      Expr *rec = arr;
      std::string field;
      if (recordTarget(target, rec, field) && known(rec)) recordSet(rec, field, value, loc, out);
      return;
    }
    if (arr->type->isSet()) {
      typingError(loc, "'set' object does not support item assignment");
      return;
    }
    if (arr->type->isDict()) {  // d[key] = value; `{}` takes their types
      Expr *k = expr(s->index);
      if (!known(k)) return;
      refineDict(s->value, k->type, value->type);
      if (hasUndefinedList(arr->type)) return;  // (typed again with them)
      Expr *r = listLib("_dict_setitem", {arr, k, value}, loc);
      if (known(r)) out.push_back(ir_.eval(r, loc));
      return;
    }
    if (arr->type->isList()) {  // l[i] = v
      std::vector<const ast::Expr *> idx;
      std::vector<Expr *> typed;
      if (!indexList(s->index, idx, typed)) return;
      if (idx.size() != 1) {
        typingError(loc, "list indices must be integers or slices, not tuple");
        return;
      }
      if (auto *sl = ast::dyn_cast<ast::SliceExpr>(idx[0])) {  // l[a:b:c] = items
        Expr *r = assignSliceOf(arr, sl, value, loc);
        if (known(r)) out.push_back(ir_.eval(r, loc));
        return;
      }
      Expr *i = typed[0] ? typed[0] : expr(idx[0]);
      if (!known(i)) return;
      if (!i->type->isInt() && !i->type->isBool()) {
        typingError(idx[0]->loc,
                    fmt::format("list indices must be integers, not {}", i->type->str()));
        return;
      }
      Expr *r = listLib("_list_setitem", {arr, castTo(i, tc_.int64()), value}, loc);
      if (known(r)) out.push_back(ir_.eval(r, loc));
      return;
    }
    if (!arr->type->isArray()) {
      typingError(s->value->loc, fmt::format("cannot assign to an item of {}; only arrays support "
                                             "item assignment",
                                             arr->type->str()));
      return;
    }
    if (arr->type->readonly()) {
      typingError(
          loc, fmt::format("cannot assign to an item of a read-only array ({})", arr->type->str()));
      return;
    }
    std::vector<const ast::Expr *> idx;
    std::vector<Expr *> typed;
    if (!indexList(s->index, idx, typed)) return;
    if (!expandEllipsis(idx, typed, arr->type->ndim(), loc)) return;
    bool allInts = idx.size() == arr->type->ndim();
    std::vector<Expr *> indices;
    for (size_t k = 0; k < idx.size(); ++k) {
      const ast::Expr *ie = idx[k];
      if (ast::isa<ast::SliceExpr>(ie)) {
        allInts = false;
        break;
      }
      Expr *v = typed[k] ? typed[k] : expr(ie);
      typed[k] = v;
      if (!known(v)) return;
      if (!v->type->isInt() && !v->type->isBool()) {
        allInts = false;
        break;
      }
      indices.push_back(castTo(v, tc_.int64()));
    }
    if (!allInts && idx.size() == 1 && !cudaTarget() && !ast::isa<ast::SliceExpr>(idx[0])) {
      // a[mask] = v, a[indices] = v: the library's helpers.
      Expr *i = typed[0] ? typed[0] : expr(idx[0]);
      if (known(i) && i->type->isArray()) {
        const char *helper = nullptr;
        if (i->type->dtype()->isBool())
          helper = value->type->isArray() ? "_mask_set_array" : "_mask_set";
        else if (i->type->dtype()->isInt() && arr->type->ndim() == 1 && value->type->isNumber())
          helper = "_put1";
        if (!helper) {
          unsupported(loc,
                      "this form of assignment through an index array is not supported yet "
                      "(kjit has a[mask] = value and a[indices] = number for a 1-d a)");
          return;
        }
        if (Expr *r = callFunction(numpyLibFunction(helper), {arr, i, value}, loc))
          out.push_back(ir_.eval(r, loc));
        return;
      }
    }
    if (!allInts) {
      // a[1:-1] = b[:-2] + b[2:], a[:] = 0, a[i] = row: the elements of
      // the view, from the value's, broadcast (ArrayExprs.h).
      Expr *view = subscript(s);
      if (!known(view)) return;
      if (!view->type->isArray()) {
        unsupported(loc, fmt::format("assignment to a subscript of type {} is not supported yet",
                                     view->type->str()));
        return;
      }
      Expr *fill = arrayAssignment(*this, view, value, loc);
      if (known(fill)) out.push_back(ir_.eval(fill, loc));
      return;
    }
    const Type *dt = arr->type->dtype();
    if (dt->isRecord() || value->type->isRecord()) {
      // a[i] = record: the record's bytes are copied into the element.
      if (value->type != dt) {
        typingError(loc, fmt::format("cannot store a value of type {} into an element of {}",
                                     value->type->str(), arr->type->str()));
        return;
      }
      out.push_back(ir_.store(arr, std::move(indices), value, loc, boundscheck()));
      return;
    }
    if (value->type->isArray() || value->type->isTuple() || !value->type->isNumber()) {
      typingError(loc, fmt::format("cannot store a value of type {} into an element of {}",
                                   value->type->str(), arr->type->str()));
      return;
    }
    if (value->type->isComplex() && !dt->isComplex()) {
      // NumPy refuses it too (it would drop the imaginary part).
      typingError(
          loc,
          fmt::format("cannot store a {} value into an element of {}: take .real, .imag or abs() "
                      "of it first",
                      value->type->str(), arr->type->str()));
      return;
    }
    if (cudaTarget() && dt->isFloat() && dt->bits() == 32 && promotedFloat32(value))
      performanceWarning(value->loc,
                         "this value is computed in float64 and stored into a float32 array: "
                         "a float32 value is promoted to float64 by NumPy's rules (float32 "
                         "with an int64 or float64 operand); convert that operand with "
                         "float32() to stay in single precision");
    out.push_back(ir_.store(arr, std::move(indices), castTo(value, dt), loc, boundscheck()));
    return;
  }
  if (ast::isa<ast::AttributeExpr>(target)) {
    Expr *rec = nullptr;
    std::string field;
    if (recordTarget(target, rec, field)) {  // r.a = v
      if (known(rec) && known(value)) recordSet(rec, field, value, loc, out);
      return;
    }
    if (known(rec) && rec->type->isJitClass()) {  // obj.field = v, obj.prop = v
      if (known(value))
        if (Expr *e = jitClassSet(rec, ast::cast<ast::AttributeExpr>(target)->attr, value, loc))
          out.push_back(ir_.eval(e, loc));
      return;
    }
    if (known(rec))
      unsupported(loc, fmt::format("assignment to attributes is not supported in kernels (only "
                                   "to the fields of records; this is {})",
                                   rec->type->str()));
    return;
  }
  unsupported(loc, "unsupported assignment target");
}

// The value of a condition known at compile time: a constant, a comparison
// of two integer constants, or `not` of one; nullopt otherwise.
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
  if (!l || !r || !(l->type->isInt() || l->type->isBool()) ||
      !(r->type->isInt() || r->type->isBool()) || l->type != r->type)
    return std::nullopt;
  switch (b->op) {
  case BinOp::Lt: return l->i < r->i;
  case BinOp::Gt: return l->i > r->i;
  case BinOp::Le: return l->i <= r->i;
  case BinOp::Ge: return l->i >= r->i;
  case BinOp::Eq: return l->i == r->i;
  case BinOp::Ne: return l->i != r->i;
  default: return std::nullopt;
  }
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

void FunctionTyper::returnStmt(const ast::ReturnStmt *r, Block &out) {
  Expr *v = r->value ? expr(r->value) : constOf(tc_.none(), r->loc);
  Expr *value = nullptr;  // none
  if (known(v) && declared_) {
    if (declared_->kind() == TypeKind::Void || declared_->isNone()) {
      if (!v->type->isNone())
        typingError(r->loc, fmt::format("the signature declares no return value (void) but {}() "
                                        "returns {}",
                                        def_.name, v->type->str()));
      out.push_back(ir_.returnStmt(value, r->loc));
      return;
    }
    value = castTo(v, declared_);
    out.push_back(ir_.returnStmt(value, r->loc));
    return;
  }
  if (known(v)) {
    v = runtimeString(v);
    if (!v->type->isRuntime()) {
      typingError(r->loc,
                  fmt::format("cannot return {}: it has no run-time value", v->type->str()));
      return;
    }
    if (!returnType_) {
      returnType_ = v->type;
      firstReturnLoc_ = r->loc;
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
          ctx_.diags.error(DiagCategory::Typing, r->loc,
                           fmt::format("Return type of recursive function does not converge: "
                                       "'{}' returns {} and {}",
                                       def_.name, returnType_->str(), v->type->str()));
        } else if (final_) {
          ctx_.diags.error(DiagCategory::Typing, r->loc,
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
  out.push_back(ir_.returnStmt(value, r->loc));
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

// The indices of an array subscript: a tuple display's elements, a tuple
// variable's (a[gid] with gid = cuda.grid(2), as Numba), or the one index.
// `typed` holds those already typed (null: type the node in `idx`).
bool FunctionTyper::indexList(const ast::Expr *index, std::vector<const ast::Expr *> &idx,
                              std::vector<Expr *> &typed) {
  if (auto *tu = ast::dyn_cast<ast::TupleExpr>(index)) {
    idx.assign(tu->elts.begin(), tu->elts.end());
    typed.assign(idx.size(), nullptr);
    return true;
  }
  idx.assign(1, index);
  typed.assign(1, nullptr);
  if (ast::isa<ast::SliceExpr>(index) || ast::isa<ast::EllipsisLit>(index)) return true;
  Expr *v = expr(index);
  if (!known(v)) return false;
  typed[0] = v;
  if (!v->type->isTuple()) return true;
  std::vector<Expr *> parts;
  if (auto *ref = dyn_cast<VarRef>(v)) {
    for (size_t k = 0; k < v->type->elements().size(); ++k)
      parts.push_back(ir_.tupleGet(varRef(ref->var, index->loc), unsigned(k), index->loc));
  } else if (auto *mk = dyn_cast<TupleMake>(v)) {
    parts = mk->elems;
  } else {
    unsupported(index->loc, fmt::format("an array index that is a tuple ({}) must be a variable "
                                        "or a tuple display",
                                        v->type->str()));
    return false;
  }
  idx.assign(parts.size(), index);
  typed = std::move(parts);
  return true;
}

// `...` in an array's index: as many full slices as the dimensions the
// other entries (None / np.newaxis aside) leave, as NumPy; false after an
// error.
bool FunctionTyper::expandEllipsis(std::vector<const ast::Expr *> &idx, std::vector<Expr *> &typed,
                                   unsigned ndim, SourceLoc loc) {
  static const ast::SliceExpr fullSlice{SourceLoc{}};
  size_t at = idx.size(), explicitDims = 0;
  for (size_t k = 0; k < idx.size(); ++k) {
    if (ast::isa<ast::EllipsisLit>(idx[k])) {
      if (at != idx.size()) {
        typingError(idx[k]->loc, "an index can only have a single ellipsis ('...')");
        return false;
      }
      at = k;
      continue;
    }
    if (!ast::isa<ast::SliceExpr>(idx[k])) {
      if (!typed[k]) typed[k] = expr(idx[k]);
      if (!known(typed[k])) return false;
      if (typed[k]->type->isNone()) continue;
    }
    ++explicitDims;
  }
  if (at == idx.size()) return true;
  if (explicitDims > ndim) {
    typingError(
        loc, fmt::format("too many indices for an array of {} dimensions: {}", ndim, explicitDims));
    return false;
  }
  size_t n = ndim - explicitDims;
  idx.erase(idx.begin() + long(at));
  typed.erase(typed.begin() + long(at));
  idx.insert(idx.begin() + long(at), n, &fullSlice);
  typed.insert(typed.begin() + long(at), n, nullptr);
  return true;
}

Expr *FunctionTyper::intIndex(const ast::Expr *e, Expr *v) {
  if (!known(v)) return v;
  if (v->type->isInt() || v->type->isBool()) return castTo(v, tc_.int64());
  return typingError(e->loc, fmt::format("array indices must be integers, not {}", v->type->str()));
}

// A prange body runs in chunks on several threads: 'break' and 'return'
// cannot keep their meaning there.
bool FunctionTyper::checkParallelBody(const ast::StmtList &body, unsigned nestedLoops) {
  bool ok = true;
  for (const ast::Stmt *s : body) {
    if (ast::isa<ast::ReturnStmt>(s)) {
      unsupported(s->loc, "'return' is not supported inside a prange loop");
      ok = false;
    } else if (ast::isa<ast::BreakStmt>(s) && nestedLoops == 0) {
      unsupported(s->loc, "'break' is not supported inside a prange loop");
      ok = false;
    } else if (auto *i = ast::dyn_cast<ast::IfStmt>(s)) {
      ok &= checkParallelBody(i->body, nestedLoops) & checkParallelBody(i->orelse, nestedLoops);
    } else if (auto *w = ast::dyn_cast<ast::WhileStmt>(s)) {
      ok &= checkParallelBody(w->body, nestedLoops + 1) & checkParallelBody(w->orelse, nestedLoops);
    } else if (auto *fo = ast::dyn_cast<ast::ForStmt>(s)) {
      ok &=
          checkParallelBody(fo->body, nestedLoops + 1) & checkParallelBody(fo->orelse, nestedLoops);
    }
  }
  return ok;
}

// Arrays and tuples of one element type: what a for loop, enumerate and zip
// walk by index.
bool FunctionTyper::walkable(const Type *t) {
  return t->isArray() || t->isHomogeneousTuple() || (t->isList() && t->dtype());
}

VarRef *FunctionTyper::varRef(Var *v, SourceLoc loc) { return ir_.varRef(v, loc); }

// A loop that counts `iv` from 0 to `stop` by 1.
ForRange *FunctionTyper::indexLoop(Var *iv, Expr *stop, SourceLoc loc) {
  Expr *start = constInt(0, loc);
  return ir_.forRange(iv, start, stop, constInt(1, loc), loc);
}

// The loop's body and else block, then the loop itself into `out`.
void FunctionTyper::loopBody(const ast::ForStmt *f, ForRange *loop, Block &out) {
  ++loopDepth_;
  block(f->body, loop->body);
  --loopDepth_;
  block(f->orelse, loop->orelse);
  out.push_back(loop);
}

// Element `index` of a sequence a loop can walk: an array (along its first
// axis: an element, or a view) or a tuple of one element type.
Expr *FunctionTyper::sequenceElement(Var *seq, Expr *index, SourceLoc loc) {
  VarRef *ref = varRef(seq, loc);
  const Type *t = seq->type;
  if (t->isTuple()) {
    return ir_.tupleGetDynamic(ref, index, loc);
  }
  if (t->isList()) return ir_.intrinsic(IntrinsicId::ListGet, {ref, index}, t->dtype(), loc);
  if (t->ndim() == 1)
    return ir_.arrayLoad(ref, {index}, loc, /*boundscheck=*/false, /*wraparound=*/false);
  SliceSpec sp;
  sp.isIndex = true;
  sp.start = index;
  return ir_.arrayView(tc_.array(t->dtype(), t->ndim() - 1,
                                 t->layout() == Layout::C ? Layout::C : Layout::A, t->readonly()),
                       ref, {sp}, loc);
}

// The length of such a sequence.
Expr *FunctionTyper::sequenceLength(Var *seq, SourceLoc loc) {
  if (seq->type->isTuple()) return constInt(int64_t(seq->type->elements().size()), loc);
  if (seq->type->isList())
    return ir_.intrinsic(IntrinsicId::ListLen, {varRef(seq, loc)}, tc_.int64(), loc);
  return ir_.intrinsic(IntrinsicId::ArrayShape, {varRef(seq, loc), constInt(0, loc)}, tc_.int64(),
                       loc);
}

// for i, x in enumerate(seq[, start]) and for x, y in zip(a, b, ...): an
// index loop over arrays or tuples of one element type (zip: as long as the
// shortest).
// enumerate()'s start: an integer, evaluated once into a temporary; null
// when it does not type (reported).
Var *FunctionTyper::enumerateStart(const ast::Expr *e, Block &out) {
  Expr *s = expr(e);
  if (!known(s)) return nullptr;
  if (!s->type->isInt() && !s->type->isBool()) {
    typingError(s->loc,
                fmt::format("enumerate() start must be an integer, not {}", s->type->str()));
    return nullptr;
  }
  return temp(castTo(s, tc_.int64()), out);
}

void FunctionTyper::enumerateOrZip(const ast::ForStmt *f, const ast::CallExpr *call,
                                   bool isEnumerate, Block &out) {
  const char *name = isEnumerate ? "enumerate" : "zip";
  const ast::Expr *startAst = nullptr;
  for (const auto &k : call->keywords) {
    if (isEnumerate && k.name == "start") {
      startAst = k.value;
      continue;
    }
    unsupported(call->loc,
                fmt::format("{}() takes no keyword argument '{}' in kernels", name, k.name));
    return;
  }
  size_t nargs = call->args.size();
  if (isEnumerate ? (nargs < 1 || nargs > 2 || (nargs == 2 && startAst)) : nargs < 1) {
    typingError(call->loc, isEnumerate ? "enumerate() takes a sequence and an optional start"
                                       : "zip() takes one or more sequences");
    return;
  }
  if (isEnumerate && nargs == 2) startAst = call->args[1];
  Var *startVar = startAst ? enumerateStart(startAst, out) : nullptr;  // evaluated once
  if (startAst && !startVar) return;
  // The sequences walked: enumerate's one, or zip's; enumerate(zip(a, b))
  // walks a and b, its element the pair.
  std::vector<const ast::Expr *> seqAsts(call->args.begin(),
                                         call->args.begin() + (isEnumerate ? 1 : nargs));
  bool zipped = !isEnumerate;
  if (isEnumerate) {
    if (auto *inner = ast::dyn_cast<ast::CallExpr>(call->args[0])) {
      Expr *g = expr(inner->func);
      if (!known(g)) return;
      if (g->type->kind() == TypeKind::Function && g->type->symbol() == "builtins.zip") {
        if (inner->args.empty() || !inner->keywords.empty()) {
          typingError(inner->loc, "zip() takes one or more sequences");
          return;
        }
        seqAsts.assign(inner->args.begin(), inner->args.end());
        zipped = true;
      }
    }
  }
  // zip(enumerate(a), b): that sequence's element is (index + start, a[i]);
  // a start is evaluated after its sequence, in the order Python does.
  std::vector<const ast::Expr *> startAsts(seqAsts.size(), nullptr);
  std::vector<Var *> enumStarts(seqAsts.size(), nullptr);
  std::vector<bool> enumerated(seqAsts.size(), false);
  if (zipped && !isEnumerate) {
    for (size_t k = 0; k < seqAsts.size(); ++k) {
      auto *inner = ast::dyn_cast<ast::CallExpr>(seqAsts[k]);
      if (!inner) continue;
      Expr *g = expr(inner->func);
      if (!known(g)) return;
      if (g->type->kind() != TypeKind::Function || g->type->symbol() != "builtins.enumerate")
        continue;
      const ast::Expr *startAst = inner->args.size() == 2 ? inner->args[1] : nullptr;
      for (const auto &kw : inner->keywords) {
        if (kw.name != "start" || startAst) {
          typingError(inner->loc, "enumerate() takes a sequence and an optional start");
          return;
        }
        startAst = kw.value;
      }
      if (inner->args.empty() || inner->args.size() > 2) {
        typingError(inner->loc, "enumerate() takes a sequence and an optional start");
        return;
      }
      startAsts[k] = startAst;
      enumerated[k] = true;
      seqAsts[k] = inner->args[0];
    }
  }
  std::vector<Var *> seqs;
  for (size_t k = 0; k < seqAsts.size(); ++k) {
    if (auto *rc = ast::dyn_cast<ast::CallExpr>(seqAsts[k])) {
      Expr *g = expr(rc->func);
      if (!known(g)) return;
      if (g->type->kind() == TypeKind::Function && g->type->symbol() == "builtins.range") {
        unsupported(rc->loc,
                    fmt::format("{}() of a range() is not supported yet; loop over the range and "
                                "index the other sequences",
                                zipped ? "zip" : name));
        return;
      }
    }
    Expr *s = expr(seqAsts[k]);
    if (!known(s)) return;
    if (!walkable(s->type)) {
      unsupported(
          s->loc,
          fmt::format("{}() in kernels walks NumPy arrays and tuples of one element type, not {}",
                      name, s->type->str()));
      return;
    }
    seqs.push_back(temp(s, out));
    if (startAsts[k] && !(enumStarts[k] = enumerateStart(startAsts[k], out))) return;
  }
  Var *iv = newVar(fmt::format("$i{}", tempCounter_++), tc_.int64(), f->loc);
  Expr *n = sequenceLength(seqs[0], f->iter->loc);
  for (size_t k = 1; k < seqs.size(); ++k) {
    n = ir_.intrinsic(IntrinsicId::Min, {n, sequenceLength(seqs[k], f->iter->loc)}, tc_.int64(),
                      f->iter->loc);
  }
  ForRange *loop = indexLoop(iv, n, f->loc);
  auto index = [&] { return varRef(iv, f->loc); };
  std::vector<Expr *> elems;
  if (isEnumerate) {
    Expr *i = index();
    if (startVar) i = ir_.binary(BinOp::Add, i, varRef(startVar, f->iter->loc), f->iter->loc);
    elems.push_back(i);
  }
  std::vector<Expr *> innerElems;
  bool nested = isEnumerate && zipped;
  for (size_t k = 0; k < seqs.size(); ++k) {
    Expr *e = sequenceElement(seqs[k], index(), f->target->loc);
    if (enumerated[k]) {
      Expr *i = index();
      if (enumStarts[k])
        i = ir_.binary(BinOp::Add, i, varRef(enumStarts[k], f->iter->loc), f->iter->loc);
      e = ir_.tupleMake({i, e}, f->target->loc);
    }
    (nested ? innerElems : elems).push_back(e);
  }
  if (nested) elems.push_back(ir_.tupleMake(std::move(innerElems), f->target->loc));
  assignTarget(f->target, ir_.tupleMake(std::move(elems), f->target->loc), loop->body);
  loopBody(f, loop, out);
}

void FunctionTyper::forLoop(const ast::ForStmt *f, Block &out) {
  const ast::CallExpr *call = ast::dyn_cast<ast::CallExpr>(f->iter);
  if (call && !call->starred.empty()) {
    unsupported(call->loc,
                "'*' argument unpacking in the iterable of a for loop is not "
                "supported in kernels; pass the arguments");
    return;
  }
  Expr *callee = call ? expr(call->func) : nullptr;
  if (call && !known(callee)) return;  // already reported
  std::string fname = callee && known(callee) && callee->type->kind() == TypeKind::Function
                          ? callee->type->symbol()
                          : "";
  if (fname == "builtins.range" || fname == "kjit.prange" || fname == "numba.prange") {
    if (!call->keywords.empty() || call->args.empty() || call->args.size() > 3) {
      typingError(call->loc, "range() takes 1 to 3 integer arguments");
      return;
    }
    std::vector<Expr *> a;
    for (const ast::Expr *ae : call->args) {
      Expr *v = expr(ae);
      if (!known(v)) return;
      if (!v->type->isInt() && !v->type->isBool()) {
        typingError(ae->loc,
                    fmt::format("range() arguments must be integers, not {}", v->type->str()));
        return;
      }
      a.push_back(castTo(v, tc_.int64()));
    }
    Expr *start = a.size() == 1 ? constInt(0, f->loc) : a[0];
    Expr *stop = a.size() == 1 ? a[0] : a[1];
    Expr *step = a.size() == 3 ? a[2] : constInt(1, f->loc);
    if (auto *c = dyn_cast<Const>(step); c && c->i == 0) {
      typingError(call->args[2]->loc, "range() arg 3 must not be zero");
      return;
    }
    bool parallel = fname != "builtins.range" && src_->parallel;
    if (parallel && !checkParallelBody(f->body, 0)) return;
    auto *target = ast::dyn_cast<ast::NameExpr>(f->target);
    if (!target) {
      unsupported(f->target->loc, "the target of a loop over range() must be a single name");
      return;
    }
    // The loop variable is an int64 local like any other.
    Expr *sample = constInt(0, f->loc);
    assignVar(target->name, sample, f->target->loc, out);
    if (!out.empty() && isa<Assign>(out.back()) && cast<Assign>(out.back())->var &&
        cast<Assign>(out.back())->var->name == target->name)
      out.pop_back();  // the sample assignment only typed the variable
    VarInfo &info = vars_[target->name];
    if (!info.var) {
      if (!info.type) return;
      info.var = newVar(target->name, info.type, f->target->loc);
    }
    Var *loopVar = info.var;
    Block body;
    if (info.type != tc_.int64()) {
      // The variable is also assigned floats elsewhere: iterate on a temp.
      Var *iv = newVar(fmt::format("$i{}", tempCounter_++), tc_.int64(), f->target->loc);
      loopVar = iv;
      assignVar(target->name, varRef(iv, f->target->loc), f->target->loc, body);
    }
    ForRange *loop = ir_.forRange(loopVar, start, stop, step, f->loc);
    loop->parallel = parallel;
    loop->body = std::move(body);
    loopBody(f, loop, out);
    return;
  }
  if (fname == "kjit.literal_unroll" || fname == "numba.literal_unroll" ||
      fname == "kjit.cuda.literal_unroll") {
    literalUnroll(f, call, out);
    return;
  }
  if (fname == "builtins.enumerate" || fname == "builtins.zip") {
    enumerateOrZip(f, call, fname == "builtins.enumerate", out);
    return;
  }
  // for x in an array (along its first axis) or a tuple of one element type.
  Expr *it = callee && fname.empty() ? nullptr : expr(f->iter);
  if (!call) it = expr(f->iter);
  if (it && known(it)) it = runtimeString(it);
  if (it && known(it) && it->type->isString())
    it = listLib("_str_chars", {it}, f->iter->loc);  // for c in s
  if (it && known(it) && it->type->isDict() && !hasUndefinedList(it->type))
    it = listLib(it->type->isSet() ? "_set_items" : "_dict_keys", {it},
                 f->iter->loc);  // for key in d, for x in s
  if (it && known(it) && walkable(it->type)) {
    Var *seq = temp(it, out);
    Var *iv = newVar(fmt::format("$i{}", tempCounter_++), tc_.int64(), f->loc);
    ForRange *loop = indexLoop(iv, sequenceLength(seq, f->iter->loc), f->loc);
    assignTarget(f->target, sequenceElement(seq, varRef(iv, f->loc), f->target->loc), loop->body);
    loopBody(f, loop, out);
    return;
  }
  if (it && !known(it)) return;
  unsupported(f->iter->loc,
              fmt::format("for loops over {} are not supported yet; loop over "
                          "range(), prange(), a NumPy array or a tuple of one element type",
                          it && it->type ? it->type->str() : std::string("this value")));
}

// for x in literal_unroll(tup): the body once per element of the tuple,
// typed for that element (as Numba does), with x a variable of its own in
// each copy. The copies sit in a loop of len(tup) iterations, copy k under
// `if $i == k`, so that break, continue and the else block keep their
// meaning.
void FunctionTyper::literalUnroll(const ast::ForStmt *f, const ast::CallExpr *call, Block &out) {
  if (call->args.size() != 1 || !call->keywords.empty()) {
    typingError(call->loc, "literal_unroll() takes one tuple");
    return;
  }
  Expr *t = expr(call->args[0]);
  if (!known(t)) return;
  if (!t->type->isTuple()) {
    unsupported(call->args[0]->loc,
                fmt::format("literal_unroll() unrolls a tuple, not {}", t->type->str()));
    return;
  }
  Var *seq = temp(t, out);
  size_t n = t->type->elements().size();
  Var *iv = newVar(fmt::format("$i{}", tempCounter_++), tc_.int64(), f->loc);
  ForRange *loop = indexLoop(iv, constInt(int64_t(n), f->iter->loc), f->loc);
  std::set<std::string> names;
  collectTargets(f->target, names);
  std::map<std::string, std::string> saved = renames_;
  ++loopDepth_;
  for (size_t k = 0; k < n; ++k) {
    for (const std::string &nm : names)
      renames_[nm] = fmt::format("{}$u{}.{}.{}", nm, f->target->loc.line, f->target->loc.col, k);
    Block then;
    assignTarget(f->target, ir_.tupleGet(varRef(seq, f->iter->loc), unsigned(k), f->target->loc),
                 then);
    block(f->body, then);
    Expr *cond = ir_.binary(BinOp::Eq, varRef(iv, f->loc), constInt(int64_t(k), f->loc), f->loc);
    loop->body.push_back(ir_.ifStmt(cond, std::move(then), {}, f->loc));
  }
  --loopDepth_;
  renames_ = std::move(saved);
  block(f->orelse, loop->orelse);
  out.push_back(loop);
}

// ---------------------------------------------------------------------------

}  // namespace kjit::typing
