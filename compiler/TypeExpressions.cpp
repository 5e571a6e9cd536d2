// TypeExpressions.cpp - typing expressions: the dispatch over expression
// kinds, names and attributes. Operators are in TypeOperators.cpp,
// subscripts in TypeSubscripts.cpp, calls in TypeCalls.cpp; statements in
// TypeStatements.cpp, the typer's driver and conversions in
// TypeInference.cpp.
#include <fmt/format.h>

#include "compiler/Builtins.h"
#include "compiler/TyperImpl.h"

namespace kjit::typing {

Expr *FunctionTyper::name(const ast::NameExpr *n) {
  if (auto b = boundParams_.find(n->name); b != boundParams_.end())
    return boundParam(b->second, n->loc);
  if (auto f = nestedFns_.find(n->name); f != nestedFns_.end())
    return f->second ? constOf(f->second, n->loc) : unknown(n->loc);
  if (locals_.count(n->name)) {
    const std::string &nm = localName(n->name);
    if (auto c = compileTimeLocals_.find(nm); c != compileTimeLocals_.end())
      return constOf(c->second, n->loc);
    VarInfo &info = vars_[nm];
    if (!info.type || info.conflictReported) {
      if (final_ && !info.type && !info.conflictReported && !unboundReported_.count(n->name))
        return typingError(n->loc, fmt::format("local variable '{}' is used before it is "
                                               "assigned a value",
                                               n->name));
      return unknown(n->loc);
    }
    if (!info.var) info.var = newVar(nm, info.type, n->loc);
    if (auto l = literalLocals_.find(n->name); l != literalLocals_.end())
      literalVars_[info.var] = &l->second;
    return ir_.varRef(info.var, n->loc);
  }
  std::optional<GlobalValue> g = lookupGlobal(n->name);
  if (!g) return typingError(n->loc, fmt::format("NameError: name '{}' is not defined", n->name));
  return fromGlobal(*g, n->name, n->loc);
}

Expr *FunctionTyper::expr(const ast::Expr *e) {
  using NK = ast::NodeKind;
  switch (e->kind()) {
  case NK::NameExpr: return name(ast::cast<ast::NameExpr>(e));
  case NK::IntLit: {
    auto *i = ast::cast<ast::IntLit>(e);
    if (i->tooLarge)
      return typingError(e->loc,
                         fmt::format("integer literal {} does not fit in 64 bits", i->text));
    if (i->value > uint64_t(INT64_MAX))
      return constInt(int64_t(i->value), e->loc, tc_.intTy(64, false));
    return constInt(int64_t(i->value), e->loc);
  }
  case NK::FloatLit: return constFloat(ast::cast<ast::FloatLit>(e)->value, e->loc);
  case NK::ImagLit: {
    Const *c = constOf(tc_.complexTy(128), e->loc);
    c->im = ast::cast<ast::ImagLit>(e)->value;
    return c;
  }
  case NK::BoolLit: return constBool(ast::cast<ast::BoolLit>(e)->value, e->loc);
  case NK::NoneLit: return constOf(tc_.none(), e->loc);
  case NK::StrLit: {
    auto *s = ast::cast<ast::StrLit>(e);
    if (s->isBytes) return unsupported(e->loc, "bytes literals are not supported in kernels");
    return constOf(tc_.stringLit(s->value), e->loc);
  }
  case NK::EllipsisLit:
    return unsupported(e->loc, "'...' (Ellipsis) is only supported in an array's subscript");
  case NK::UnaryExpr: return unary(ast::cast<ast::UnaryExpr>(e));
  case NK::BinaryExpr: {
    auto *b = ast::cast<ast::BinaryExpr>(e);
    Expr *l = expr(b->lhs);
    Expr *r = expr(b->rhs);
    return binary(b->op, l, r, e->loc);
  }
  case NK::BoolOpExpr: return boolOp(ast::cast<ast::BoolOpExpr>(e));
  case NK::CompareExpr: return compare(ast::cast<ast::CompareExpr>(e));
  case NK::IfExpr: return ifExpr(ast::cast<ast::IfExpr>(e));
  case NK::CallExpr: return call(ast::cast<ast::CallExpr>(e));
  case NK::AttributeExpr: return attribute(ast::cast<ast::AttributeExpr>(e));
  case NK::SubscriptExpr: return subscript(ast::cast<ast::SubscriptExpr>(e));
  case NK::TupleExpr: {
    auto *t = ast::cast<ast::TupleExpr>(e);
    std::vector<Expr *> elems;
    bool ok = true;
    for (const ast::Expr *x : t->elts) {
      Expr *v = runtimeString(expr(x));  // ("a", 1): a str in host code
      ok &= known(v);
      if (!ok) continue;
      if (!v->type->isRuntime()) {
        // Tuples of dtypes etc. only matter as call arguments (shapes).
        return typingError(x->loc, fmt::format("a tuple cannot hold {}", v->type->str()));
      }
      elems.push_back(v);
    }
    if (!ok) return unknown(e->loc);
    return ir_.tupleMake(std::move(elems), e->loc);
  }
  case NK::ListExpr: return listLiteral(ast::cast<ast::ListExpr>(e));
  case NK::DictExpr: {
    auto *d = ast::cast<ast::DictExpr>(e);
    return d->isSet ? setLiteral(d) : dictLiteral(d);
  }
  case NK::SliceExpr: return unsupported(e->loc, "a slice can only appear in an array subscript");
  case NK::LambdaExpr:
    return unsupported(e->loc,
                       "lambda is only supported as the argument of cuda.reduce and "
                       "vectorize-style factories");
  case NK::ErrorExpr: return unknown(e->loc);
  default: return unsupported(e->loc, "unsupported expression");
  }
}

Expr *FunctionTyper::attribute(const ast::AttributeExpr *a) {
  Expr *v = unwrapOptional(expr(a->value));
  if (!known(v)) return v;
  const Type *t = v->type;
  if (t->kind() == TypeKind::Module) {
    if (t->symbol().rfind("kjit.cuda", 0) == 0) {
      if (Expr *e = typeCudaAttribute(*this, t->symbol(), a->attr, a->loc, cudaTarget())) return e;
    }
    std::optional<GlobalValue> g = moduleAttribute(ctx_.session(), t->symbol(), a->attr);
    if (!g)
      return typingError(a->loc, fmt::format("module '{}' has no attribute '{}' that kernels can "
                                             "use",
                                             t->symbol(), a->attr));
    return fromGlobal(*g, t->symbol() + "." + a->attr, a->loc);
  }
  if (t->kind() == TypeKind::Function &&
      ((t->symbol() == "kjit.typed.List" && a->attr == "empty_list") ||
       (t->symbol() == "kjit.typed.Dict" && a->attr == "empty")))
    return constOf(tc_.function(t->symbol() + "." + a->attr), a->loc);  // List.empty_list
  if (t->isArray()) {
    auto shapeOf = [&](unsigned d) {
      return ir_.intrinsic(IntrinsicId::ArrayShape, {v, constInt(d, a->loc)}, tc_.int64(), a->loc);
    };
    if (a->attr == "shape" || a->attr == "strides") {
      std::vector<Expr *> elems;
      for (unsigned d = 0; d < t->ndim(); ++d)
        elems.push_back(a->attr == "shape"
                            ? shapeOf(d)
                            : ir_.intrinsic(IntrinsicId::ArrayStride, {v, constInt(d, a->loc)},
                                            tc_.int64(), a->loc));
      return ir_.tupleMake(std::move(elems), a->loc);
    }
    if (a->attr == "size") {
      Expr *n = constInt(1, a->loc);
      for (unsigned d = 0; d < t->ndim(); ++d)
        n = binary(ast::BinaryOp::Mul, n, shapeOf(d), a->loc);
      return n;
    }
    if (a->attr == "ndim") return constInt(t->ndim(), a->loc);
    if (a->attr == "itemsize") return constInt(itemSize(t->dtype()), a->loc);
    if (a->attr == "nbytes") {
      Expr *n = constInt(itemSize(t->dtype()), a->loc);
      for (unsigned d = 0; d < t->ndim(); ++d)
        n = binary(ast::BinaryOp::Mul, n, shapeOf(d), a->loc);
      return n;
    }
    if (a->attr == "dtype") return constOf(tc_.dtypeOf(t->dtype()), a->loc);
    if ((a->attr == "real" || a->attr == "imag") && t->dtype()->isComplex()) {
      // Views of the parts, as NumPy's (writable: cuda.atomic.add(a.real, i, 1))
      const Type *part = t->dtype()->complexPart();
      return ir_.intrinsic(IntrinsicId::ArrayPart, {v, constInt(a->attr == "imag", a->loc)},
                           tc_.array(part, t->ndim(), Layout::A, t->readonly()), a->loc);
    }
    if (a->attr == "real") return v;  // a real array's real part is itself
    if (a->attr == "T") {
      if (t->ndim() < 2) return v;
      Layout l = t->layout() == Layout::C   ? Layout::F
                 : t->layout() == Layout::F ? Layout::C
                                            : Layout::A;
      return ir_.intrinsic(IntrinsicId::ArrayTranspose, {v},
                           tc_.array(t->dtype(), t->ndim(), l, t->readonly()), a->loc);
    }
    // The field of every element of an array of records (Numba's ary.field).
    if (t->dtype()->isRecord())
      if (Expr *f = recordArrayField(v, a->attr, a->loc)) return f;
    // Methods: a.sum() etc. are typed at the call.
    return constOf(tc_.function("array." + a->attr), a->loc);
  }
  if (t->isRecord()) return recordGet(v, a->attr, a->loc);
  if (t->isJitClass()) return jitClassGet(v, a->attr, a->loc);
  if (t->kind() == TypeKind::Function && t->symbol().rfind("jitclass:", 0) == 0)
    return jitClassAttribute(t->symbol().substr(9), a->attr, a->loc);
  if (t->isList()) return constOf(tc_.function("list." + a->attr), a->loc);  // a method
  if (t->isSet()) return constOf(tc_.function("set." + a->attr), a->loc);
  if (t->isText() && !cudaTarget())
    return constOf(tc_.function("str." + a->attr), a->loc);  // a method
  if (t->isDict()) return constOf(tc_.function("dict." + a->attr), a->loc);
  if (t->kind() == TypeKind::EnumClass) return enumMember(t, a->attr, a->loc);
  if (t->isTuple())  // a named tuple's field
    for (size_t i = 0; i < t->fieldNames().size(); ++i)
      if (t->fieldNames()[i] == a->attr) return ir_.tupleGet(v, unsigned(i), a->loc);
  if (t->isEnumMember()) {
    if (a->attr == "value") return enumValue(v);
    if (a->attr == "name")
      return unsupported(a->loc,
                         "the name of an enum member is a string, which kernels cannot use");
    if (t->isIntEnum()) v = enumValue(v), t = v->type;  // int's attributes
  }
  if (t->isComplex() || t->isFloat() || t->isInt() || t->isBool()) {
    if (a->attr == "real" || a->attr == "imag") {
      if (!t->isComplex()) {
        if (a->attr == "real") return v;
        return castTo(constInt(0, a->loc), t->isBool() ? tc_.int64() : t);
      }
      return ir_.intrinsic(a->attr == "real" ? IntrinsicId::Real : IntrinsicId::Imag, {v},
                           t->complexPart(), a->loc);
    }
    if (a->attr == "conjugate") return constOf(tc_.function("number.conjugate"), a->loc);
    if (a->attr == "bit_count" && t->isInt())
      return constOf(tc_.function("number.bit_count"), a->loc);
  }
  return typingError(a->loc, fmt::format("{} has no attribute '{}'", t->str(), a->attr));
}

}  // namespace kjit::typing
