// TypeAssignments.cpp - typing assignments: to names (unifying their
// types), tuples, array elements and slices, list and dict items, record
// fields and @jitclass attributes, and r.a op= v.
#include "compiler/ArrayExprs.h"
#include "compiler/Session.h"
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
        if (Expr *r = callFunction(ctx_.session().libraryFunction(helper), {arr, i, value}, loc))
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

}  // namespace kjit::typing
