// TypeStrings.cpp - typing Python's str in host code (Numba's
// unicode_type): a string constant used as a value becomes a run-time str
// (a constant list of its code points, Intrinsics.def: StrConst); indexing,
// slicing, +, *, comparisons and `in` call the builtins library
// (compiler/lib/builtins/strings.kjit), which also has the methods
// (builtins/Containers.cpp: typeStrMethod). Kernels have no strings but the
// constants that print() and raise take.
#include "compiler/TyperImpl.h"

namespace kjit::typing {

Expr *FunctionTyper::runtimeString(Expr *e) {
  if (!known(e) || cudaTarget() || e->type->kind() != TypeKind::StringLit) return e;
  return ir_.intrinsic(IntrinsicId::StrConst, {e}, tc_.str(), e->loc);
}

// s[i] (a str of one character; IndexError out of range) and s[a:b:c].
Expr *FunctionTyper::strSubscript(Expr *s, const std::vector<const ast::Expr *> &idx,
                                  SourceLoc loc) {
  if (idx.size() != 1) return typingError(loc, "string indices must be integers, not tuple");
  if (auto *sl = ast::dyn_cast<ast::SliceExpr>(idx[0])) return sliceOf(s, sl, loc);
  Expr *i = expr(idx[0]);
  if (!known(i)) return i;
  if (!i->type->isInt() && !i->type->isBool())
    return typingError(idx[0]->loc,
                       fmt::format("string indices must be integers, not {}", i->type->str()));
  return listLib("_str_getitem", {s, castTo(i, tc_.int64())}, loc);
}

// a + b of strings, s * n and n * s; null when these are no strings.
Expr *FunctionTyper::strBinary(ast::BinaryOp op, Expr *l, Expr *r, SourceLoc loc) {
  const Type *lt = l->type, *rt = r->type;
  if (cudaTarget() || (!lt->isText() && !rt->isText())) return nullptr;
  if (op == ast::BinaryOp::Add && lt->isText() && rt->isText())
    return listLib("_str_concat", {runtimeString(l), runtimeString(r)}, loc);
  if (op == ast::BinaryOp::Mul && (lt->isText() || rt->isText())) {
    Expr *s = lt->isText() ? l : r, *n = lt->isText() ? r : l;
    if (n->type->isInt() || n->type->isBool())
      return listLib("_str_repeat", {runtimeString(s), castTo(n, tc_.int64())}, loc);
  }
  return typingError(loc, fmt::format("unsupported operand types for {}: {} and {}",
                                      ast::spelling(op), lt->str(), rt->str()));
}

// ==, !=, <, <=, >, >= of strings: code point order, as Python's.
Expr *FunctionTyper::strCompare(ast::CmpOp op, Expr *l, Expr *r, SourceLoc loc) {
  std::optional<BinOp> bop = comparisonOp(op);
  if (!bop)
    return typingError(loc,
                       fmt::format("'{}' is not supported between strings", ast::spelling(op)));
  Expr *c = listLib("_str_cmp", {runtimeString(l), runtimeString(r)}, loc);
  if (!known(c)) return c;
  return ir_.binary(*bop, c, constInt(0, loc), loc);
}

// part in s: a substring.
Expr *FunctionTyper::strContains(Expr *s, Expr *part, SourceLoc loc) {
  if (!part->type->isText())
    return typingError(loc, fmt::format("'in <string>' requires string as left operand, not {}",
                                        part->type->str()));
  return listLib("_str_contains", {runtimeString(s), runtimeString(part)}, loc);
}

}  // namespace kjit::typing
