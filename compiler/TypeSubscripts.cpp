// TypeSubscripts.cpp - typing subscripts: a[i], a[i, j], slices, views,
// ellipsis and newaxis, masks and index arrays, and the subscripts of
// tuples, lists, strings and records.
#include <fmt/format.h>

#include "compiler/Builtins.h"
#include "compiler/Session.h"
#include "compiler/TyperImpl.h"

namespace kjit::typing {

Expr *FunctionTyper::subscript(const ast::SubscriptExpr *s) {
  Expr *v = unwrapOptional(expr(s->value));
  if (!known(v)) {
    expr(s->index);
    return v;
  }
  const Type *t = v->type;
  std::vector<const ast::Expr *> idx;
  if (auto *tu = ast::dyn_cast<ast::TupleExpr>(s->index); tu && !tu->parenthesized)
    idx.assign(tu->elts.begin(), tu->elts.end());
  else if (auto *tu2 = ast::dyn_cast<ast::TupleExpr>(s->index))
    idx.assign(tu2->elts.begin(), tu2->elts.end());
  else
    idx.push_back(s->index);

  if (t->kind() == TypeKind::EnumClass) {  // Color['red']
    Expr *i = idx.size() == 1 ? expr(idx[0]) : nullptr;
    if (i && !known(i)) return i;
    if (!i || i->type->kind() != TypeKind::StringLit)
      return typingError(s->loc, fmt::format("an enum class ({}) is indexed by a constant member "
                                             "name",
                                             t->symbol()));
    return enumMember(t, i->type->symbol(), s->loc);
  }
  if (t->isList()) return listSubscript(v, idx, s->loc);
  if (t->isSet()) return typingError(s->loc, "'set' object is not subscriptable");
  if (t->isString() || (t->kind() == TypeKind::StringLit && !cudaTarget()))
    return strSubscript(runtimeString(v), idx, s->loc);
  if (t->isDict()) {  // d[key]
    Expr *k = expr(s->index);
    if (!known(k)) return k;
    return listLib("_dict_getitem", {v, k}, s->loc);
  }
  if (t->isTuple()) {
    if (idx.size() != 1 || ast::isa<ast::SliceExpr>(idx[0]))
      return unsupported(s->loc, "tuples can only be indexed by one constant integer in kernels");
    Expr *i = expr(idx[0]);
    if (!known(i)) return i;
    if (!t->isHomogeneousTuple()) i = literalLocal(i);
    auto *c = dyn_cast<Const>(i);
    if (!c && t->isHomogeneousTuple() && (i->type->isInt() || i->type->isBool())) {
      // t[i] at run time: the tuple's elements share one type.
      return ir_.tupleGetDynamic(v, castTo(i, tc_.int64()), s->loc);
    }
    if (!c || !i->type->isInt())
      return unsupported(idx[0]->loc,
                         fmt::format("a tuple ({}) can only be indexed by a constant "
                                     "integer, or by any integer when its elements share "
                                     "one type",
                                     t->str()));
    int64_t k = c->i;
    int64_t n = int64_t(t->elements().size());
    if (k < 0) k += n;
    if (k < 0 || k >= n)
      return typingError(idx[0]->loc,
                         fmt::format("tuple index {} out of range for {}", c->i, t->str()));
    return ir_.tupleGet(v, unsigned(k), s->loc);
  }
  if (t->isRecord()) return recordSubscript(v, s);
  if (t->kind() == TypeKind::Dtype && t->dtype()->isNumber()) {
    // types.float64[:] (an array type, as Dict.empty's value_type): each
    // index a bare `:`, the last may be `::1` (C order) or the first
    // (Fortran order), as in signatures.
    bool ok = true;
    Layout layout = Layout::A;
    for (size_t i = 0; ok && i < idx.size(); ++i) {
      auto *sl = ast::dyn_cast<ast::SliceExpr>(idx[i]);
      ok = sl && !sl->lower && !sl->upper;
      if (ok && sl->step) {
        auto *one = ast::dyn_cast<ast::IntLit>(sl->step);
        ok = one && one->value == 1 && layout == Layout::A && (i + 1 == idx.size() || i == 0);
        layout = i + 1 == idx.size() ? Layout::C : Layout::F;
      }
    }
    if (!ok)
      return typingError(s->loc,
                         fmt::format("an array type is written {}[:], {}[:, :] or "
                                     "{}[:, ::1]: a bare ':' per dimension",
                                     t->dtype()->str(), t->dtype()->str(), t->dtype()->str()));
    const Type *arr = tc_.array(t->dtype(), unsigned(idx.size()), layout);
    return constOf(tc_.dtypeOf(arr), s->loc);
  }
  if (!t->isArray()) return typingError(s->loc, fmt::format("{} is not subscriptable", t->str()));
  if (t->dtype()->isRecord() && ast::isa<ast::StrLit>(s->index)) {
    // ary['field']: as ary.field (Numba's static_getitem on arrays of records).
    const std::string &field = ast::cast<ast::StrLit>(s->index)->value;
    if (Expr *f = recordArrayField(v, field, s->loc)) return f;
    return typingError(s->index->loc,
                       fmt::format("{} has no field '{}'", t->dtype()->str(), field));
  }
  std::vector<Expr *> typed;
  if (!indexList(s->index, idx, typed)) return unknown(s->loc);
  if (!expandEllipsis(idx, typed, t->ndim(), s->loc)) return unknown(s->loc);
  // None / np.newaxis add a dimension of length 1 and take none.
  size_t newAxes = 0;
  for (size_t k = 0; k < idx.size(); ++k) {
    if (ast::isa<ast::SliceExpr>(idx[k])) continue;
    if (!typed[k]) typed[k] = expr(idx[k]);
    if (known(typed[k]) && typed[k]->type->isNone()) ++newAxes;
  }
  if (idx.size() - newAxes > t->ndim())
    return typingError(s->loc, fmt::format("too many indices for an array of {} dimensions: {}",
                                           t->ndim(), idx.size() - newAxes));
  bool allInts = idx.size() == t->ndim() && newAxes == 0;
  std::vector<SliceSpec> specs;
  std::vector<Expr *> ints;
  for (size_t k = 0; k < idx.size(); ++k) {
    const ast::Expr *ie = idx[k];
    SliceSpec sp;
    if (auto *sl = ast::dyn_cast<ast::SliceExpr>(ie)) {
      allInts = false;
      auto bound = [&](const ast::Expr *b) -> Expr * {
        if (!b) return nullptr;
        return intIndex(b, expr(b));
      };
      sp.start = bound(sl->lower);
      sp.stop = bound(sl->upper);
      sp.step = bound(sl->step);
      if ((sl->lower && !known(sp.start)) || (sl->upper && !known(sp.stop)) ||
          (sl->step && !known(sp.step)))
        return unknown(s->loc);
    } else {
      Expr *i = typed[k] ? typed[k] : expr(ie);
      if (!known(i)) return i;
      if (i->type->isNone()) {
        if (cudaTarget())
          return unsupported(ie->loc,
                             "None / np.newaxis in a subscript is not supported in "
                             "kernels yet");
        sp.isNewAxis = true;
        specs.push_back(sp);
        continue;
      }
      if (i->type->isArray()) {
        // a[mask], a[indices] (NumPy's advanced indexing), on the CPU: the
        // library's helpers (compiler/lib/numpy/indexing.kjit).
        if (!cudaTarget() && idx.size() == 1) {
          const char *helper = nullptr;
          if (i->type->dtype()->isBool())
            helper = "_mask_get";
          else if (i->type->dtype()->isInt() && t->ndim() == 1)
            helper = "_take1";
          else if (i->type->dtype()->isInt() && t->ndim() == 2 && i->type->ndim() == 1)
            helper = "_take_rows";
          if (helper) {
            Expr *r = callFunction(ctx_.session().libraryFunction(helper), {v, i}, s->loc);
            return r ? r : unknown(s->loc);
          }
        }
        return unsupported(ie->loc, cudaTarget()
                                        ? "indexing an array with an array (fancy indexing) is "
                                          "not supported in kernels yet"
                                        : "this form of indexing an array with an array is not "
                                          "supported yet (kjit has a[mask] with a boolean "
                                          "array of a's shape, and an integer array into a "
                                          "1-d array or the rows of a 2-d one)");
      }
      i = intIndex(ie, i);
      if (!known(i)) return i;
      sp.isIndex = true;
      sp.start = i;
      ints.push_back(i);
    }
    specs.push_back(sp);
  }
  if (allInts) {
    return ir_.arrayLoad(v, ints, s->loc, boundscheck());
  }
  unsigned dropped = 0;
  for (const SliceSpec &sp : specs) dropped += sp.isIndex;
  // Numba's rule: a C array stays C when the indices are integers followed
  // by at most one slice without a step, as the last explicit index.
  Layout l = Layout::A;
  if (t->layout() == Layout::C && newAxes == 0) {
    bool keeps = true;
    for (size_t k = 0; k < specs.size(); ++k) {
      const SliceSpec &sp = specs[k];
      if (!sp.isIndex && (sp.step || k + 1 != specs.size())) keeps = false;
    }
    if (keeps) l = Layout::C;
  }
  return ir_.arrayView(
      tc_.array(t->dtype(), unsigned(t->ndim() - dropped + newAxes), l, t->readonly()), v,
      std::move(specs), s->loc, boundscheck());
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

}  // namespace kjit::typing
