// TypeRecords.cpp - typing records (NumPy structured dtypes, Numba's
// Record): field reads and writes (r.a, r['a'], r[0]), the fields of arrays
// of records (ary.a), and Numba's alignment rule for CUDA. The rest of the
// typer calls these from attributes, subscripts and assignments
// (TypeExpressions.cpp, TypeSubscripts.cpp, TypeAssignments.cpp).
//
// A record value is a reference to its bytes (compiler/Types.h): reading
// ary[i] gives a reference into the array, so `ary[i].a = v` writes the
// array, as in Numba.
#include "compiler/TyperImpl.h"

namespace kjit::typing {

namespace {

std::string fieldList(const Type *rec) {
  std::string s;
  for (const RecordField &f : rec->fields()) s += (s.empty() ? "" : ", ") + f.name;
  return s.empty() ? "none" : s;
}

}  // namespace

const Type *FunctionTyper::fieldValueType(const RecordField &f, bool readonly) {
  if (f.shape.empty()) return f.dtype;
  return tc_.array(f.dtype, unsigned(f.shape.size()), Layout::C, readonly);
}

const RecordField *FunctionTyper::findField(const Type *rec, const std::string &name,
                                            SourceLoc loc) {
  const RecordField *f = rec->field(name);
  if (!f) {
    typingError(loc, fmt::format("{} has no field '{}'; its fields are {}", rec->str(), name,
                                 fieldList(rec)));
    return nullptr;
  }
  // numba-cuda's rule (BaseContext.sentry_record_alignment): on the GPU a
  // field must sit at an offset its type's alignment divides.
  if (cudaTarget() && !f->dtype->isRecord() && f->offset % dtypeAlign(f->dtype) != 0) {
    typingError(
        loc, fmt::format("{}.{} of type {} is not aligned", rec->str(), f->name, f->dtype->str()));
    return nullptr;
  }
  return f;
}

std::optional<std::string> FunctionTyper::fieldNameOf(const Type *rec, Expr *index, SourceLoc loc) {
  if (!known(index)) return std::nullopt;
  if (index->type->kind() == TypeKind::StringLit) return index->type->symbol();
  auto *c = dyn_cast<Const>(index);
  if (c && index->type->isInt()) {
    // Numba's static_getitem: the field at this position (in offset order).
    int64_t n = int64_t(rec->fields().size()), k = c->i < 0 ? c->i + n : c->i;
    if (k < 0 || k >= n) {
      typingError(loc, fmt::format("index {} is out of range for {}, which has {} fields", c->i,
                                   rec->str(), n));
      return std::nullopt;
    }
    return rec->fields()[size_t(k)].name;
  }
  typingError(loc, fmt::format("a record is indexed by a constant field name or position, not {}",
                               index->type->str()));
  return std::nullopt;
}

Expr *FunctionTyper::recordGet(Expr *rec, const std::string &name, SourceLoc loc) {
  const RecordField *f = findField(rec->type, name, loc);
  if (!f) return unknown(loc);
  return ir_.intrinsic(IntrinsicId::RecordGet, {rec}, fieldValueType(*f, false), loc, SubOp::None,
                       name);
}

Expr *FunctionTyper::recordArrayField(Expr *ary, const std::string &name, SourceLoc loc) {
  const Type *at = ary->type;
  const RecordField *f = at->dtype()->field(name);
  if (!f) return nullptr;
  const Type *t =
      tc_.array(f->dtype, at->ndim() + unsigned(f->shape.size()), Layout::A, at->readonly());
  return ir_.intrinsic(IntrinsicId::RecordArrayField, {ary}, t, loc, SubOp::None, name);
}

void FunctionTyper::recordSet(Expr *rec, const std::string &name, Expr *value, SourceLoc loc,
                              Block &out) {
  if (!known(rec) || !known(value)) return;
  // A reference into a read-only array (a read-only argument, a global or
  // constant array) is not written.
  if (auto *l = dyn_cast<ArrayLoad>(rec); l && l->array->type->readonly()) {
    typingError(loc, fmt::format("cannot assign to a field of an element of a read-only array ({})",
                                 l->array->type->str()));
    return;
  }
  const RecordField *f = findField(rec->type, name, loc);
  if (!f) return;
  const Type *vt = value->type;
  auto refuse = [&]() {
    typingError(loc, fmt::format("cannot store a value of type {} into field '{}' ({}) of {}",
                                 vt->str(), name, fieldTypeName(*f), rec->type->str()));
  };
  Expr *converted = value;
  if (f->dtype->isRecord() && f->shape.empty()) {
    if (vt != f->dtype) return refuse();
  } else if (!f->shape.empty()) {
    // A nested array takes an array of its shape (checked when it runs),
    // element by element.
    if (!vt->isArray() || vt->ndim() != f->shape.size() || !vt->dtype()->isNumber() ||
        !f->dtype->isNumber() || (vt->dtype()->isComplex() && !f->dtype->isComplex()))
      return refuse();
  } else {
    if (!vt->isNumber() || (vt->isComplex() && !f->dtype->isComplex())) return refuse();
    converted = castTo(value, f->dtype);
  }
  out.push_back(ir_.eval(
      ir_.intrinsic(IntrinsicId::RecordSet, {rec, converted}, tc_.none(), loc, SubOp::None, name),
      loc));
}

Expr *FunctionTyper::recordSubscript(Expr *rec, const ast::SubscriptExpr *s) {
  if (ast::isa<ast::SliceExpr>(s->index) || ast::isa<ast::TupleExpr>(s->index))
    return typingError(s->index->loc,
                       "a record is indexed by a constant field name or position, not a slice or "
                       "a tuple");
  std::optional<std::string> name = fieldNameOf(rec->type, expr(s->index), s->index->loc);
  if (!name) return unknown(s->loc);
  return recordGet(rec, *name, s->loc);
}

bool FunctionTyper::recordTarget(const ast::Expr *target, Expr *&rec, std::string &name) {
  if (auto *a = ast::dyn_cast<ast::AttributeExpr>(target)) {
    if (!rec) rec = expr(a->value);
    if (!known(rec) || !rec->type->isRecord()) return false;
    name = a->attr;
    return true;
  }
  auto *s = ast::dyn_cast<ast::SubscriptExpr>(target);
  if (!s) return false;
  if (!rec) rec = expr(s->value);
  if (!known(rec) || !rec->type->isRecord()) return false;
  if (ast::isa<ast::SliceExpr>(s->index) || ast::isa<ast::TupleExpr>(s->index)) {
    typingError(s->index->loc,
                "a record is indexed by a constant field name or position, not a slice or a tuple");
    rec = unknown(s->loc);
    return true;
  }
  std::optional<std::string> n = fieldNameOf(rec->type, expr(s->index), s->index->loc);
  if (!n) {
    rec = unknown(s->loc);
    return true;
  }
  name = *n;
  return true;
}

}  // namespace kjit::typing
