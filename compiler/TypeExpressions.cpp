// TypeExpressions.cpp - typing expressions: names, operators (NumPy/Numba
// promotion), comparisons, and/or, conditional expressions, attributes,
// subscripts and calls. Statements are in TypeStatements.cpp, the typer's
// driver and conversions in TypeInference.cpp.
#include <fmt/format.h>

#include <functional>
#include <map>
#include <set>

#include "compiler/ArrayExprs.h"
#include "compiler/Builtins.h"
#include "compiler/Conversion.h"
#include "compiler/JitClass.h"
#include "compiler/NumpyLib.h"
#include "compiler/Signature.h"
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

static BinOp toBinOp(ast::BinaryOp op) {
  switch (op) {
  case ast::BinaryOp::Add: return BinOp::Add;
  case ast::BinaryOp::Sub: return BinOp::Sub;
  case ast::BinaryOp::Mul: return BinOp::Mul;
  case ast::BinaryOp::Div: return BinOp::Div;
  case ast::BinaryOp::FloorDiv: return BinOp::FloorDiv;
  case ast::BinaryOp::Mod: return BinOp::Mod;
  case ast::BinaryOp::Pow: return BinOp::Pow;
  case ast::BinaryOp::LShift: return BinOp::LShift;
  case ast::BinaryOp::RShift: return BinOp::RShift;
  case ast::BinaryOp::BitAnd: return BinOp::BitAnd;
  case ast::BinaryOp::BitOr: return BinOp::BitOr;
  case ast::BinaryOp::BitXor: return BinOp::BitXor;
  case ast::BinaryOp::MatMul: return BinOp::Mul;
  }
  return BinOp::Add;
}

// A negative integer constant: -3 (a Const, or the negation of one).
static bool isNegativeConstant(const Expr *e) {
  if (auto *c = dyn_cast<Const>(e)) return c->type->isInt() && c->i < 0;
  if (auto *u = dyn_cast<Unary>(e))
    if (u->op == UnOp::Neg)
      if (auto *c = dyn_cast<Const>(u->operand)) return c->type->isInt() && c->i > 0;
  return false;
}

Expr *FunctionTyper::binaryInto(ast::BinaryOp aop, Expr *l, Expr *r, Expr *out, SourceLoc loc) {
  if (!known(l) || !known(r) || (out && !known(out))) return unknown(loc);
  if (aop == ast::BinaryOp::MatMul || (!l->type->isArray() && !l->type->isNumber()) ||
      (!r->type->isArray() && !r->type->isNumber()))
    return typingError(
        loc, fmt::format("unsupported operand types for {}{}: {} and {}", ast::spelling(aop),
                         out ? "=" : "", l->type->str(), r->type->str()));
  return arrayOperation(
      *this, aop == ast::BinaryOp::Div ? UfuncKind::FloatMath : UfuncKind::Arithmetic,
      fmt::format("({{0}} {} {{1}})", ast::spelling(aop)), {l, r},
      [&](std::vector<Expr *> e) { return binary(aop, e[0], e[1], loc); }, loc, out);
}

namespace {

std::string int128Text(__int128 v) {
  bool neg = v < 0;
  unsigned __int128 u =
      neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string out;
  do {
    out.insert(out.begin(), char('0' + int(u % 10)));
    u /= 10;
  } while (u);
  return neg ? "-" + out : out;
}

}  // namespace

// Integer constants (int64, as literals are) combined as Python combines
// them: exactly. A result that fits is the constant; one that no 64-bit
// integer holds (2 ** 100, 1 << 70, 2 ** 62 * 4) is a located error, never
// a wrapped value. nullptr: not constants, or not folded here.
Expr *FunctionTyper::foldIntConstants(ast::BinaryOp aop, Expr *l, Expr *r, SourceLoc loc) {
  auto *a = dyn_cast<Const>(l), *b = dyn_cast<Const>(r);
  auto wide = [&](const Type *t) { return t == tc_.int64() || t == tc_.intTy(64, false); };
  if (!a || !b || !wide(l->type) || !wide(r->type)) return nullptr;
  using I = __int128;
  const I lim = I(1) << 64;  // beyond any 64-bit integer, also as an intermediate
  auto value = [&](const Const *c) {
    return c->type == tc_.intTy(64, false) ? I(uint64_t(c->i)) : I(c->i);
  };
  I x = value(a), y = value(b), v = 0;
  bool huge = false;
  switch (aop) {
  case ast::BinaryOp::Add: v = x + y; break;
  case ast::BinaryOp::Sub: v = x - y; break;
  case ast::BinaryOp::Mul: v = x * y; break;
  case ast::BinaryOp::LShift:
    if (y < 0) return nullptr;  // (a ValueError at run time, as Python's)
    if (x == 0) break;
    if (y >= 64) {
      huge = true;
      break;
    }
    v = x * (I(1) << int(y));
    break;
  case ast::BinaryOp::Pow: {
    if (y < 0) return nullptr;  // (an integer result by Numba's rule, or ZeroDivisionError)
    v = 1;
    for (I k = 0; k < y && !huge; ++k) {
      v *= x;
      huge = v >= lim || v <= -lim;
      if (v == 0 || v == 1 || (v == -1 && x == -1 && y - k > 2)) {
        // 0 ** n, 1 ** n and (-1) ** n: no need to go on.
        if (x == -1) v = (y % 2) ? -1 : 1;
        break;
      }
    }
    break;
  }
  default: return nullptr;
  }
  if (huge || v >= lim || v < I(INT64_MIN))
    return typingError(
        loc, fmt::format("the constant {} {} {} is {}, which no 64-bit integer holds (Python's "
                         "integers are unbounded, kjit's and Numba's are 64-bit): write it as a "
                         "float, or keep it smaller",
                         int128Text(x), ast::spelling(aop), int128Text(y),
                         huge ? std::string("2**64 or more") : int128Text(v)));
  if (v > I(INT64_MAX)) {
    // As the literal CPython folds it to: Numba types it uint64 (2 ** 63).
    Const *c = constOf(tc_.intTy(64, false), loc);
    c->i = int64_t(uint64_t(v));
    return c;
  }
  return constInt(int64_t(v), loc);
}

Expr *FunctionTyper::binary(ast::BinaryOp aop, Expr *l, Expr *r, SourceLoc loc) {
  if (!known(l) || !known(r)) return unknown(loc);
  l = unwrapIntEnum(unwrapOptional(l));
  r = unwrapIntEnum(unwrapOptional(r));
  const Type *lt = l->type, *rt = r->type;
  if (aop == ast::BinaryOp::MatMul) {
    if (lt->isArray() && rt->isArray() && !cudaTarget()) {
      // a @ b: np.matmul (compiler/lib/numpy_lib.py).
      Expr *product = callFunction(numpyLibFunction("matmul"), {l, r}, loc);
      return product ? product : unknown(loc);
    }
    return unsupported(loc, "the '@' operator is not supported in kernels yet");
  }
  if ((lt->isArray() || rt->isArray()) && !cudaTarget() && (lt->isArray() || lt->isNumber()) &&
      (rt->isArray() || rt->isNumber()))
    return binaryInto(aop, l, r, nullptr, loc);  // an array expression (ArrayExprs.h)
  if (Expr *folded = foldIntConstants(aop, l, r, loc)) return folded;
  if (!lt->isNumber() || !rt->isNumber()) {
    if (lt->isSet() && rt->isSet()) return setBinary(aop, l, r, loc);
    if (Expr *s = strBinary(aop, l, r, loc)) return s;
    if (aop == ast::BinaryOp::Add && lt->isList() && rt->isList()) {
      if (lt->dtype() && rt->dtype() && lt != rt)
        return typingError(loc, fmt::format("cannot concatenate {} and {}", lt->str(), rt->str()));
      return listLib("_list_concat", {lt->dtype() ? l : r, lt->dtype() ? r : l}, loc);
    }
    if (aop == ast::BinaryOp::Mul && (lt->isList() || rt->isList()) &&
        (lt->isInt() || rt->isInt() || lt->isBool() || rt->isBool())) {
      Expr *list = lt->isList() ? l : r, *times = lt->isList() ? r : l;
      return listLib("_list_repeat", {list, castTo(times, tc_.int64())}, loc);
    }
    if (aop == ast::BinaryOp::Add && lt->isTuple() && rt->isTuple()) {
      std::vector<Expr *> elems;
      for (Expr *side : {l, r})
        for (size_t i = 0; i < side->type->elements().size(); ++i)
          elems.push_back(ir_.tupleGet(side, unsigned(i), loc));
      return ir_.tupleMake(std::move(elems), loc);
    }
    if (lt->isArray() || rt->isArray())
      return unsupported(loc, fmt::format("array expressions ({} {} {}) are not supported in "
                                          "kernels yet; write the loop",
                                          lt->str(), ast::spelling(aop), rt->str()));
    return typingError(loc, fmt::format("unsupported operand types for {}: {} and {}",
                                        ast::spelling(aop), lt->str(), rt->str()));
  }
  BinOp op = toBinOp(aop);
  const Type *t = nullptr;
  bool bothIntLike = (lt->isInt() || lt->isBool()) && (rt->isInt() || rt->isBool());
  switch (op) {
  case BinOp::Div: t = bothIntLike ? tc_.float64() : arithmeticResult(tc_, lt, rt); break;
  case BinOp::BitAnd:
  case BinOp::BitOr:
  case BinOp::BitXor:
    if (lt->isBool() && rt->isBool()) {
      t = tc_.boolean();
      break;
    }
    if (!bothIntLike)
      return typingError(loc, fmt::format("unsupported operand types for {}: {} and {}",
                                          ast::spelling(aop), lt->str(), rt->str()));
    t = arithmeticResult(tc_, lt, rt);
    break;
  case BinOp::LShift:
  case BinOp::RShift: {
    if (!bothIntLike)
      return typingError(loc, fmt::format("unsupported operand types for {}: {} and {}",
                                          ast::spelling(aop), lt->str(), rt->str()));
    t = tc_.intTy(64, !(lt->isInt() && !lt->isSigned()));
    return ir_.binary(op, castTo(l, t), castTo(r, t), loc);
  }
  case BinOp::Pow:
    if (bothIntLike && isNegativeConstant(r) && isa<Const>(l)) {
      // 10 ** -3 is a float, as in Python (CPython folds it before Numba
      // sees it); a ** -3 of a variable is an integer, as Numba's (and as
      // with an exponent known only at run time).
      return ir_.intrinsic(IntrinsicId::Pow, {castTo(l, tc_.float64()), castTo(r, tc_.float64())},
                           tc_.float64(), loc);
    }
    if (bothIntLike) {
      t = arithmeticResult(tc_, lt, rt);
      return ir_.intrinsic(IntrinsicId::IntPow, {castTo(l, t), castTo(r, t)}, t, loc);
    }
    t = arithmeticResult(tc_, lt, rt);
    break;
  default: t = arithmeticResult(tc_, lt, rt); break;
  }
  if (!t) return typingError(loc, "invalid operand types");
  if (t->isComplex() && (op == BinOp::FloorDiv || op == BinOp::Mod))
    return typingError(loc, fmt::format("unsupported operand types for {}: {} and {}",
                                        ast::spelling(aop), lt->str(), rt->str()));
  if (op == BinOp::Pow && (lt->isFloat() && (rt->isInt() || rt->isBool()))) {
    // float ** int by repeated multiplication, in the float's width (Numba:
    // float32 ** int stays float32).
    return ir_.intrinsic(IntrinsicId::PowI, {l, castTo(r, tc_.int64())}, lt, loc);
  }
  if (op == BinOp::Pow) {
    IntrinsicId id = t->isComplex() ? IntrinsicId::ComplexPow : IntrinsicId::Pow;
    return ir_.intrinsic(id, {castTo(l, t), castTo(r, t)}, t, loc);
  }
  return ir_.binary(op, castTo(l, t), castTo(r, t), loc);
}

Expr *FunctionTyper::unary(const ast::UnaryExpr *u) {
  // -9223372036854775808 is one constant in Python (and int64 in Numba), not
  // the negation of the uint64 2**63.
  if (auto *i = ast::dyn_cast<ast::IntLit>(u->operand);
      i && u->op == ast::UnaryOp::Neg && !i->tooLarge && i->value == uint64_t(INT64_MAX) + 1)
    return constInt(INT64_MIN, u->loc);
  return unaryOp(u->op, expr(u->operand), u->loc);
}

Expr *FunctionTyper::unaryOp(ast::UnaryOp op, Expr *v, SourceLoc loc) {
  if (!known(v)) return v;
  if (op != ast::UnaryOp::Not) v = unwrapOptional(v);  // (not None is True)
  v = unwrapIntEnum(v);
  const Type *t = v->type;
  if (t->isArray() && !cudaTarget() && op != ast::UnaryOp::Not) {
    // -a, +a, ~a on an array (ArrayExprs.h); ~ of booleans is logical not.
    bool logical = op == ast::UnaryOp::Invert && t->dtype()->isBool();
    std::string text = logical                      ? "(not {0})"
                       : op == ast::UnaryOp::Neg    ? "(-{0})"
                       : op == ast::UnaryOp::Invert ? "(~{0})"
                                                    : "(+{0})";
    return arrayOperation(
        *this, logical ? UfuncKind::Predicate : UfuncKind::Arithmetic, text, {v},
        [&](std::vector<Expr *> e) { return unaryOp(logical ? ast::UnaryOp::Not : op, e[0], loc); },
        loc);
  }
  if (op == ast::UnaryOp::Not) {
    Expr *b = truth(v);
    if (!known(b)) return b;
    return ir_.unary(UnOp::Not, b, loc);
  }
  if (!t->isNumber())
    return typingError(
        loc, fmt::format("bad operand type for unary {}: {}",
                         ast::spelling(op) + (op == ast::UnaryOp::Invert ? 0 : 1), t->str()));
  const Type *rt = t;
  if (t->isBool() || t->isInt()) rt = tc_.intTy(64, t->isInt() ? t->isSigned() : true);
  if (op == ast::UnaryOp::Pos) return castTo(v, rt);
  if (op == ast::UnaryOp::Invert && t->isBool()) {
    // ~ of a bool is logical not, a bool (Numba's, as NumPy's np.bool_).
    return ir_.unary(UnOp::Not, v, loc);
  }
  if (t->isInt() && t->bits() < 64) {
    // Numba's: -x and ~x of a narrow integer are computed in its own type
    // (wrapping there: -int16(-32768) is -32768, -uint8(3) is 253), then
    // widened to the machine integer of its signedness.
    if (op == ast::UnaryOp::Neg || op == ast::UnaryOp::Invert)
      return castTo(ir_.unary(op == ast::UnaryOp::Neg ? UnOp::Neg : UnOp::Invert, v, loc), rt);
  }
  if (auto *c = dyn_cast<Const>(castTo(v, rt)); c && op == ast::UnaryOp::Neg && !rt->isComplex()) {
    // Fold -constant, so that t[-1] and range(n, 0, -1) see constants.
    Const *r = constOf(rt, loc);
    r->i = int64_t(0 - uint64_t(c->i));
    r->f = -c->f;
    return r;
  }
  if (op == ast::UnaryOp::Invert && !t->isInt())
    return typingError(loc, fmt::format("bad operand type for unary ~: {}", t->str()));
  return ir_.unary(op == ast::UnaryOp::Neg ? UnOp::Neg : UnOp::Invert, castTo(v, rt), loc);
}

Expr *FunctionTyper::compareEnums(ast::CmpOp op, Expr *l, Expr *r, SourceLoc loc) {
  const Type *lt = l->type, *rt = r->type;
  bool identity = op == ast::CmpOp::Is || op == ast::CmpOp::IsNot;
  bool equality = op == ast::CmpOp::Eq || op == ast::CmpOp::Ne;
  bool negated = op == ast::CmpOp::IsNot || op == ast::CmpOp::Ne;
  if (lt == rt && (identity || equality)) {
    // Members of one class: equal values are one member (aliases included).
    Expr *a = enumValue(l), *b = enumValue(r);
    if (!a->type->isTuple())
      return compareOne(negated ? ast::CmpOp::Ne : ast::CmpOp::Eq, a, b, loc);
    Expr *all = constBool(true, loc);
    for (unsigned i = 0; i < a->type->elements().size(); ++i) {
      Expr *eq = compareOne(ast::CmpOp::Eq, ir_.tupleGet(a, i, loc), ir_.tupleGet(b, i, loc), loc);
      if (!known(eq)) return eq;
      all = ir_.binary(BinOp::BitAnd, all, eq, loc);
    }
    return negated ? ir_.unary(UnOp::Not, all, loc) : all;
  }
  if (identity) return constBool(negated, loc);  // different classes, or a member and a value
  if (lt->isIntEnum() || rt->isIntEnum()) {
    // IntEnum members compare as integers (with numbers, and across classes).
    Expr *a = unwrapIntEnum(l), *b = unwrapIntEnum(r);
    if (!a->type->isEnumMember() && !b->type->isEnumMember()) return compareOne(op, a, b, loc);
  }
  if (equality) return constBool(negated, loc);  // an Enum member equals only its own class's
  return typingError(loc, fmt::format("'{}' is not supported between {} and {}", ast::spelling(op),
                                      lt->str(), rt->str()));
}

// The IR comparison of <, >, <=, >=, ==, != (none for is, in ...).
std::optional<BinOp> comparisonOp(ast::CmpOp op) {
  switch (op) {
  case ast::CmpOp::Lt: return BinOp::Lt;
  case ast::CmpOp::Gt: return BinOp::Gt;
  case ast::CmpOp::Le: return BinOp::Le;
  case ast::CmpOp::Ge: return BinOp::Ge;
  case ast::CmpOp::Eq: return BinOp::Eq;
  case ast::CmpOp::Ne: return BinOp::Ne;
  default: return std::nullopt;
  }
}

Expr *FunctionTyper::compareOne(ast::CmpOp op, Expr *l, Expr *r, SourceLoc loc) {
  if (!known(l) || !known(r)) return unknown(loc);
  if ((op == ast::CmpOp::Is || op == ast::CmpOp::IsNot) &&
      ((l->type->isOptional() && r->type->isNone()) ||
       (r->type->isOptional() && l->type->isNone()))) {
    // x is None, x is not None of a value or None: at run time.
    Expr *x = l->type->isOptional() ? l : r;
    Expr *valid = ir_.intrinsic(IntrinsicId::OptionalValid, {x}, tc_.boolean(), loc);
    return op == ast::CmpOp::IsNot ? valid : ir_.unary(UnOp::Not, valid, loc);
  }
  l = unwrapOptional(l);
  r = unwrapOptional(r);
  const Type *lt = l->type, *rt = r->type;
  if (lt->isEnumMember() || rt->isEnumMember()) return compareEnums(op, l, r, loc);
  if (op == ast::CmpOp::Is || op == ast::CmpOp::IsNot) {
    // Only identity with None has a meaning here; it is known statically.
    if (lt->isNone() || rt->isNone()) {
      bool same = lt->isNone() && rt->isNone();
      return constBool(op == ast::CmpOp::Is ? same : !same, loc);
    }
    // Numba's rule for immutable values: `is` is `==` between values of one
    // type, False between values of different types.
    if (lt != rt) return constBool(op == ast::CmpOp::IsNot, loc);
    if (!lt->isNumber())
      return unsupported(
          loc, fmt::format("'is' between {} values is not supported in kernels", lt->str()));
    return compareOne(op == ast::CmpOp::Is ? ast::CmpOp::Eq : ast::CmpOp::Ne, l, r, loc);
  }
  if (op == ast::CmpOp::In || op == ast::CmpOp::NotIn) {
    // x in a list, a tuple of one element type or an array: an equal element.
    Expr *found = nullptr;
    if (rt->isList())
      found = listLib("_list_contains", {r, l}, loc);
    else if (rt->isText() && !cudaTarget())
      found = strContains(r, l, loc);
    else if (rt->isSet())
      found = listLib("_set_contains", {r, l}, loc);
    else if (rt->isDict())
      found = listLib("_dict_contains", {r, l}, loc);
    else if (rt->isHomogeneousTuple() || (rt->isArray() && rt->ndim() == 1))
      found = listLib("_contains", {r, l}, loc);
    else if (rt->isTuple() && rt->elements().empty())
      found = constBool(false, loc);
    else
      return unsupported(loc, fmt::format("'in' of {} is not supported", rt->str()));
    if (!known(found) || op == ast::CmpOp::In) return found;
    return unaryOp(ast::UnaryOp::Not, found, loc);
  }
  if (lt->isSet() && rt->isSet() && op != ast::CmpOp::Is && op != ast::CmpOp::IsNot)
    return setCompare(op, l, r, loc);
  if (lt->isList() && rt->isList() && (op == ast::CmpOp::Eq || op == ast::CmpOp::Ne)) {
    Expr *eq = listLib("_list_eq", {l, r}, loc);
    if (!known(eq) || op == ast::CmpOp::Eq) return eq;
    return unaryOp(ast::UnaryOp::Not, eq, loc);
  }
  if (lt->isTuple() && rt->isTuple() &&
      (op == ast::CmpOp::Lt || op == ast::CmpOp::Le || op == ast::CmpOp::Gt ||
       op == ast::CmpOp::Ge)) {
    // Python's order: the first pair of elements that differ decides; a
    // tuple that is a prefix of the other is smaller.
    size_t la = lt->elements().size(), lb = rt->elements().size(), n = std::min(la, lb);
    bool less = op == ast::CmpOp::Lt || op == ast::CmpOp::Le;
    bool byLength = op == ast::CmpOp::Lt   ? la < lb
                    : op == ast::CmpOp::Le ? la <= lb
                    : op == ast::CmpOp::Gt ? la > lb
                                           : la >= lb;
    Expr *result = constBool(byLength, loc);
    for (size_t k = n; k-- > 0;) {
      Expr *a = ir_.tupleGet(l, unsigned(k), loc), *b = ir_.tupleGet(r, unsigned(k), loc);
      Expr *strict = compareOne(less ? ast::CmpOp::Lt : ast::CmpOp::Gt, a, b, loc);
      Expr *equal = compareOne(ast::CmpOp::Eq, a, b, loc);
      if (!known(strict) || !known(equal)) return known(strict) ? equal : strict;
      result = ir_.select(truth(strict), constBool(true, loc),
                          ir_.select(truth(equal), result, constBool(false, loc), loc), loc);
    }
    return result;
  }
  if (lt->isTuple() && rt->isTuple() && (op == ast::CmpOp::Eq || op == ast::CmpOp::Ne)) {
    // Tuples are equal when they have as many elements and each pair is.
    bool eq = op == ast::CmpOp::Eq;
    size_t n = lt->elements().size();
    if (rt->elements().size() != n) return constBool(!eq, loc);
    Expr *all = constBool(true, loc);
    for (size_t k = 0; k < n; ++k) {
      Expr *e = compareOne(ast::CmpOp::Eq, ir_.tupleGet(l, unsigned(k), loc),
                           ir_.tupleGet(r, unsigned(k), loc), loc);
      if (!known(e)) return e;
      all = k == 0 ? truth(e) : binary(ast::BinaryOp::BitAnd, all, truth(e), loc);
    }
    return eq ? all : unaryOp(ast::UnaryOp::Not, all, loc);
  }
  if ((lt->isArray() || rt->isArray()) && !cudaTarget() && (lt->isArray() || lt->isNumber()) &&
      (rt->isArray() || rt->isNumber())) {
    return arrayOperation(
        *this, UfuncKind::Compare, fmt::format("({{0}} {} {{1}})", ast::spelling(op)), {l, r},
        [&](std::vector<Expr *> e) { return compareOne(op, e[0], e[1], loc); }, loc);
  }
  bool ls = lt->kind() == TypeKind::StringLit, rs = rt->kind() == TypeKind::StringLit;
  if (ls && rs) {
    // Constant strings (a literal argument, `value == "1"`): known now, as
    // Python compares them (code point order is the UTF-8 bytes' order).
    int c = lt->symbol().compare(rt->symbol());
    switch (op) {
    case ast::CmpOp::Eq: return constBool(c == 0, loc);
    case ast::CmpOp::Ne: return constBool(c != 0, loc);
    case ast::CmpOp::Lt: return constBool(c < 0, loc);
    case ast::CmpOp::Le: return constBool(c <= 0, loc);
    case ast::CmpOp::Gt: return constBool(c > 0, loc);
    case ast::CmpOp::Ge: return constBool(c >= 0, loc);
    default: break;
    }
  }
  if ((ls || rs) && (op == ast::CmpOp::Eq || op == ast::CmpOp::Ne) &&
      (lt->isNumber() || rt->isNumber() || lt->isNone() || rt->isNone()))
    return constBool(op == ast::CmpOp::Ne, loc);  // a string never equals a number
  if ((lt->isString() || ls) && (rt->isString() || rs) && !cudaTarget())
    return strCompare(op, l, r, loc);
  if (!lt->isNumber() || !rt->isNumber())
    return typingError(loc, fmt::format("cannot compare {} and {}", lt->str(), rt->str()));
  const Type *t = promoteNumeric(tc_, lt, rt);
  if (lt->isBool() && rt->isBool()) t = tc_.boolean();
  BinOp bop = comparisonOp(op).value_or(BinOp::Eq);
  if (t->isComplex() && bop != BinOp::Eq && bop != BinOp::Ne)
    return typingError(
        loc, fmt::format("'{}' is not supported between complex numbers", ast::spelling(op)));
  // Mixed signed/unsigned 64-bit comparisons compare as float64 (promotion).
  return ir_.binary(bop, castTo(l, t), castTo(r, t), loc);
}

Expr *FunctionTyper::compare(const ast::CompareExpr *c) {
  // a < b < c  ==  (a < b) and (b < c), with b evaluated once: the middle
  // operands are simple enough in practice that re-evaluation is avoided by
  // the typer only for calls; kernels rarely chain calls.
  Expr *lhs = expr(c->lhs);
  Expr *result = nullptr;
  for (size_t i = 0; i < c->ops.size(); ++i) {
    Expr *rhs = expr(c->comparators[i]);
    Expr *cmp = compareOne(c->ops[i], lhs, rhs, c->loc);
    if (!known(cmp)) return cmp;
    if (!result) {
      result = cmp;
    } else {
      result = ir_.logical(true, result, result, result, cmp, c->loc);
    }
    lhs = rhs;
  }
  return result;
}

Expr *FunctionTyper::boolOp(const ast::BoolOpExpr *b) {
  // Python returns one of the operands; the result type unifies them.
  std::vector<Expr *> vals;
  for (const ast::Expr *x : b->values) {
    Expr *v = expr(x);
    if (!known(v)) return unknown(b->loc);
    vals.push_back(v);
  }
  const Type *t = vals[0]->type;
  for (Expr *v : vals) {
    const Type *u = unify(tc_, t, v->type);
    if (!u || !u->isRuntime())
      return typingError(b->loc, fmt::format("cannot unify {} and {} in '{}'", t->str(),
                                             v->type->str(), ast::spelling(b->op)));
    t = u;
  }
  Expr *acc = castTo(vals.back(), t);
  for (size_t i = vals.size() - 1; i-- > 0;) {
    Expr *lhs = castTo(vals[i], t);
    Expr *lhsTruth = truth(vals[i]);
    if (!known(lhsTruth)) return lhsTruth;
    acc = ir_.logical(b->op == ast::BoolOp::And, vals[i], lhs, lhsTruth, acc, b->loc);
  }
  return acc;
}

Expr *FunctionTyper::ifExpr(const ast::IfExpr *e) {
  Expr *c = truth(expr(e->test));
  Expr *a = expr(e->body);
  Expr *b = expr(e->orelse);
  if (!known(c) || !known(a) || !known(b)) return unknown(e->loc);
  const Type *t = unify(tc_, a->type, b->type);
  if (!t || !t->isRuntime())
    return typingError(e->loc, fmt::format("cannot unify {} and {} in the conditional expression",
                                           a->type->str(), b->type->str()));
  return select(c, a, b, e->loc);
}

Expr *FunctionTyper::select(Expr *cond, Expr *a, Expr *b, SourceLoc loc) {
  const Type *t = unify(tc_, a->type, b->type);
  Expr *ifTrue = castTo(a, t);
  return ir_.select(cond, ifTrue, castTo(b, t), loc);
}

Expr *FunctionTyper::attribute(const ast::AttributeExpr *a) {
  Expr *v = unwrapOptional(expr(a->value));
  if (!known(v)) return v;
  const Type *t = v->type;
  if (t->kind() == TypeKind::Module) {
    if (t->symbol().rfind("kjit.cuda", 0) == 0) {
      if (Expr *e = typeCudaAttribute(*this, t->symbol(), a->attr, a->loc, cudaTarget())) return e;
    }
    std::optional<GlobalValue> g = moduleAttribute(t->symbol(), a->attr);
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
        // library's helpers (compiler/lib/numpy_lib.py).
        if (!cudaTarget() && idx.size() == 1) {
          const char *helper = nullptr;
          if (i->type->dtype()->isBool())
            helper = "_mask_get";
          else if (i->type->dtype()->isInt() && t->ndim() == 1)
            helper = "_take1";
          else if (i->type->dtype()->isInt() && t->ndim() == 2 && i->type->ndim() == 1)
            helper = "_take_rows";
          if (helper) {
            Expr *r = callFunction(numpyLibFunction(helper), {v, i}, s->loc);
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

// A call of a device function declared with signatures: the arguments
// convert to the signature they fit best (Numba's rating,
// compiler/Conversion.h; of two alike, the one declared first, as Numba
// takes), which is the one compiled; none is a typing error.
Expr *FunctionTyper::callDeclared(const std::string &name, const Type *fnType,
                                  const std::vector<std::string> &signatures,
                                  std::vector<Expr *> args, SourceLoc loc) {
  std::vector<Signature> sigs(signatures.size());
  std::vector<const std::vector<const Type *> *> candidates;
  for (size_t i = 0; i < signatures.size(); ++i) {
    std::string error;
    if (!parseSignature(tc_, signatures[i], sigs[i], error))
      return typingError(loc, fmt::format("device function '{}': {}", name, error));
    candidates.push_back(&sigs[i].args);
  }
  std::vector<const Type *> actual;
  std::string described;
  for (Expr *a : args) {
    actual.push_back(a->type);
    described += (described.empty() ? "" : ", ") + a->type->str();
  }
  std::vector<int> best = bestOverloads(actual, candidates);
  auto list = [&] {
    std::string s;
    for (const std::string &sig : signatures) s += (s.empty() ? "" : ", ") + sig;
    return s;
  };
  if (best.empty())
    return typingError(
        loc, fmt::format("Invalid use of type(CUDADispatcher({})) with parameters ({}): device "
                         "function '{}' was declared for {}, and these arguments convert to none",
                         name, described, name, list()));
  const Signature &sig = sigs[size_t(best[0])];
  for (size_t i = 0; i < args.size(); ++i) {
    args[i] = castTo(args[i], sig.args[i]);
    if (!known(args[i])) return unknown(loc);
  }
  auto it = prog_.jitFunctions.find(fnType);
  Function *f = prog_.specialize(it->second, sig.args, loc, sig.ret);
  if (!f || !f->returnType) return unknown(loc);
  return ir_.call(f, std::move(args), loc);
}

// np.array([[1, 2], [3, 4]]), np.array((x, y, z), dtype=np.float32): a new
// C array of the elements, their NumPy type promoted unless dtype says.
Expr *FunctionTyper::arrayLiteral(const ast::CallExpr *c, const std::string &fname) {
  std::vector<int64_t> shape;
  std::vector<Expr *> leaves;
  bool ok = true;
  std::function<void(const ast::Expr *, size_t)> walk = [&](const ast::Expr *e, size_t depth) {
    const std::vector<ast::Expr *> *elts = nullptr;
    if (auto *l = ast::dyn_cast<ast::ListExpr>(e)) elts = &l->elts;
    if (auto *t = ast::dyn_cast<ast::TupleExpr>(e)) elts = &t->elts;
    if (elts) {
      if (depth == shape.size()) {
        if (depth > 0 && !leaves.empty()) {
          ok = false;
          unsupported(e->loc, fmt::format("{}() of nested sequences of different depths", fname));
          return;
        }
        shape.push_back(int64_t(elts->size()));
      } else if (depth > shape.size() || shape[depth] != int64_t(elts->size())) {
        ok = false;
        typingError(e->loc,
                    fmt::format("{}(): the nested sequences have different lengths (NumPy's "
                                "\"inhomogeneous shape\")",
                                fname));
        return;
      }
      for (const ast::Expr *x : *elts) walk(x, depth + 1);
      return;
    }
    if (depth != shape.size()) {
      ok = false;
      typingError(e->loc, fmt::format("{}(): the nested sequences have different depths", fname));
      return;
    }
    Expr *v = expr(e);
    if (!known(v)) {
      ok = false;
      return;
    }
    if (!v->type->isNumber()) {
      ok = false;
      unsupported(e->loc, fmt::format("{}() of a list takes numbers in kernels, not {}", fname,
                                      v->type->str()));
      return;
    }
    leaves.push_back(v);
  };
  walk(c->args[0], 0);
  const Type *dt = nullptr;
  const ast::Expr *dtypeAst = c->args.size() > 1 ? c->args[1] : nullptr;
  for (const ast::Keyword &k : c->keywords) {
    if (k.name == "dtype") {
      dtypeAst = k.value;
    } else {
      ok = false;
      unsupported(k.value->loc,
                  fmt::format("{}() takes the keyword argument dtype only in kernels", fname));
    }
  }
  if (c->args.size() > 2) {
    ok = false;
    unsupported(c->args[2]->loc, fmt::format("{}() takes a sequence and a dtype", fname));
  }
  if (dtypeAst) {
    Expr *d = expr(dtypeAst);
    if (!known(d)) return unknown(c->loc);
    if (d->type->kind() == TypeKind::Dtype) {
      dt = d->type->dtype();
    } else if (d->type->kind() == TypeKind::Function && d->type->symbol() == "builtins.float") {
      dt = tc_.float64();
    } else if (d->type->kind() == TypeKind::Function && d->type->symbol() == "builtins.int") {
      dt = tc_.int64();
    } else if (d->type->kind() == TypeKind::Function && d->type->symbol() == "builtins.bool") {
      dt = tc_.boolean();
    } else if (d->type->kind() == TypeKind::Function && d->type->symbol() == "builtins.complex") {
      dt = tc_.complexTy(128);
    } else {
      return typingError(d->loc, fmt::format("dtype must be a NumPy type such as np.float32, "
                                             "not {}",
                                             d->type->str()));
    }
  }
  if (!ok) return unknown(c->loc);
  if (!dt) {
    for (Expr *v : leaves) {
      const Type *t = v->type->isInt() && !isa<Const>(v) ? v->type : v->type;
      dt = dt ? promoteNumeric(tc_, dt, t) : t;
    }
    if (!dt) dt = tc_.float64();  // np.array([]) is float64
  }
  std::string text;
  for (size_t k = 0; k < shape.size(); ++k) text += (k ? "," : "") + std::to_string(shape[k]);
  std::vector<Expr *> args;
  for (Expr *v : leaves) args.push_back(castTo(v, dt));
  Intrinsic *r = ir_.intrinsic(IntrinsicId::ArrayLiteral, std::move(args),
                               tc_.array(dt, unsigned(shape.size()), Layout::C), c->loc);
  r->text = text;
  return r;
}

// range(...) as the argument of list() or set(): the list of its numbers
// (a range is no value here); null when `e` is no call of range.
Expr *FunctionTyper::rangeList(const ast::Expr *e) {
  auto *inner = ast::dyn_cast<ast::CallExpr>(e);
  if (!inner || !inner->keywords.empty() || inner->args.empty() || inner->args.size() > 3)
    return nullptr;
  Expr *f = expr(inner->func);
  if (!known(f) || f->type->kind() != TypeKind::Function || f->type->symbol() != "builtins.range")
    return nullptr;
  std::vector<Expr *> r;
  for (const ast::Expr *x : inner->args) {
    Expr *v = expr(x);
    if (!known(v)) return v;
    if (!v->type->isInt() && !v->type->isBool())
      return typingError(x->loc, fmt::format("range() takes integers, not {}", v->type->str()));
    r.push_back(castTo(v, tc_.int64()));
  }
  if (r.size() == 1) r.insert(r.begin(), constInt(0, e->loc));
  if (r.size() == 2) r.push_back(constInt(1, e->loc));
  return listLib("_list_range", std::move(r), e->loc);
}

Expr *FunctionTyper::call(const ast::CallExpr *c) {
  Expr *callee = expr(c->func);
  if (!known(callee)) {
    for (const ast::Expr *a : c->args) expr(a);
    return unknown(c->loc);
  }
  if (callee->type->kind() == TypeKind::Function && !c->args.empty() &&
      (callee->type->symbol() == "numpy.array" || callee->type->symbol() == "numpy.asarray") &&
      (ast::isa<ast::ListExpr>(c->args[0]) || ast::isa<ast::TupleExpr>(c->args[0]))) {
    if (cudaTarget())
      return unsupported(c->loc, "np.array() allocates memory, which kernels cannot do");
    return arrayLiteral(c, callee->type->symbol() == "numpy.array" ? "np.array" : "np.asarray");
  }
  if (callee->type->kind() == TypeKind::Function && callee->type->symbol() == "builtins.dict" &&
      c->args.empty() && c->keywords.empty() && !cudaTarget())
    return emptyDict(tc_.dict(nullptr, nullptr), c->loc);
  if (callee->type->kind() == TypeKind::Function && callee->type->symbol() == "builtins.dict" &&
      c->args.size() == 1 && c->keywords.empty() && !cudaTarget()) {
    // dict(d): a copy of a dict.
    Expr *d = expr(c->args[0]);
    if (!known(d)) return d;
    if (!d->type->isDict() || d->type->isSet())
      return typingError(
          c->args[0]->loc,
          fmt::format("dict() of {} is not supported; it takes a dict", d->type->str()));
    if (hasUndefinedList(d->type)) return unknown(c->loc);
    return listLib("_dict_copy", {d}, c->loc);
  }
  if (callee->type->kind() == TypeKind::Function && callee->type->symbol() == "builtins.set")
    return setCall(c);
  if (callee->type->kind() == TypeKind::Function &&
      callee->type->symbol().rfind("kjit.typed.", 0) == 0)
    return typedContainer(c, callee->type->symbol());
  if (callee->type->kind() == TypeKind::Function && callee->type->symbol() == "builtins.list" &&
      c->args.size() == 1 && c->keywords.empty() && !cudaTarget())
    if (Expr *numbers = rangeList(c->args[0])) return numbers;
  std::vector<Expr *> args;
  std::vector<std::pair<std::string, Expr *>> kwargs;
  bool ok = true;
  for (size_t i = 0; i < c->args.size(); ++i) {
    Expr *v = expr(c->args[i]);
    ok &= known(v);
    if (!known(v) || !c->isStarred(i)) {
      args.push_back(v);
      continue;
    }
    // f(*t): the tuple's elements, read from t (a variable, a constant or a
    // tuple display, so that reading each element evaluates nothing twice).
    if (!v->type->isTuple()) {
      ok = false;
      unsupported(v->loc, fmt::format("'*' argument unpacking in kernels takes a tuple, not {}",
                                      v->type->str()));
      continue;
    }
    if (auto *t = dyn_cast<TupleMake>(v)) {
      args.insert(args.end(), t->elems.begin(), t->elems.end());
      continue;
    }
    if (!isa<VarRef>(v) && !isa<Const>(v) &&
        !(isa<TupleGet>(v) && !cast<TupleGet>(v)->dynIndex &&
          isa<VarRef>(cast<TupleGet>(v)->tuple))) {
      ok = false;
      unsupported(v->loc,
                  "'*' argument unpacking in kernels takes a variable or a tuple "
                  "display; assign the value to a variable first");
      continue;
    }
    for (size_t k = 0; k < v->type->elements().size(); ++k)
      args.push_back(ir_.tupleGet(v, unsigned(k), v->loc));
  }
  for (const ast::Keyword &k : c->keywords) {
    Expr *v = expr(k.value);
    ok &= known(v);
    kwargs.emplace_back(k.name, v);
  }
  if (!ok) return unknown(c->loc);
  const Type *ft = callee->type;
  // The receiver of a method call: a.sum() -> array.sum with a first.
  if (ft->kind() == TypeKind::Function &&
      (ft->symbol().rfind("array.", 0) == 0 || ft->symbol().rfind("number.", 0) == 0 ||
       ft->symbol().rfind("list.", 0) == 0 || ft->symbol().rfind("dict.", 0) == 0 ||
       ft->symbol().rfind("set.", 0) == 0 || ft->symbol().rfind("str.", 0) == 0)) {
    if (auto *attr = ast::dyn_cast<ast::AttributeExpr>(c->func)) {
      Expr *recv = expr(attr->value);
      args.insert(args.begin(), recv);
      if (ft->symbol().rfind("list.", 0) == 0)
        refineList(attr->value, ft->symbol().substr(5), args);
      if (ft->symbol().rfind("set.", 0) == 0) refineSet(attr->value, ft->symbol().substr(4), args);
    }
  }
  // @jitclass: the class (its constructor), a method (the instance first),
  // a static method, the allocation in a constructor.
  if (ft->kind() == TypeKind::Function) {
    const std::string &sym = ft->symbol();
    if (sym.rfind("kjit.jitclass_new:", 0) == 0) {
      std::string error;
      const Type *t = jitClassType(tc_, sym.substr(18), error);
      if (!t) return typingError(c->loc, error);
      return ir_.intrinsic(IntrinsicId::ListNew, {constInt(1, c->loc)}, t, c->loc);
    }
    if (sym.rfind("jitclass:", 0) == 0 || sym.rfind("jitmethod:", 0) == 0 ||
        sym.rfind("jitstatic:", 0) == 0) {
      std::shared_ptr<FunctionSource> target = jitClassFunction(sym, c->loc);
      if (!target) return unknown(c->loc);
      if (sym.rfind("jitmethod:", 0) == 0) {
        auto *attr = ast::dyn_cast<ast::AttributeExpr>(c->func);
        if (!attr)  // the method without its instance: never a silent nothing
          return unsupported(c->loc,
                             "a method of a jitclass is called on its instance "
                             "(obj.method(...)), not through another name");
        Expr *recv = expr(attr->value);
        if (!known(recv)) return unknown(c->loc);
        args.insert(args.begin(), recv);
      }
      ft = prog_.jitFunctionType(target);
    }
  }
  if (ft->kind() == TypeKind::Function && ft->symbol().rfind("jit:", 0) == 0) {
    auto src = prog_.jitFunctions.find(ft);
    const ast::FunctionDef *def =
        src != prog_.jitFunctions.end() ? prog_.definition(*src->second) : nullptr;
    if (!def && !kwargs.empty())
      return unsupported(c->loc,
                         "keyword arguments in calls of this kjit function are not supported");
    // *args: the positional arguments past the others, packed in a tuple.
    bool varargs = def && !def->params.empty() && def->params.back().varargs;
    size_t named = def ? def->params.size() - (varargs ? 1 : 0) : 0;
    Expr *packed = nullptr;
    if (varargs) {
      std::vector<Expr *> extra;
      if (args.size() > named) {
        extra.assign(args.begin() + long(named), args.end());
        args.resize(named);
      }
      packed = ir_.tupleMake(std::move(extra), c->loc);
    }
    if (def && (!kwargs.empty() || args.size() < named)) {
      // Keyword arguments and defaults bound to positions, as Python does;
      // a default must be a constant (a number, a bool, None or a string).
      const std::string &fname = src->second->name;
      std::vector<Expr *> bound(std::max(args.size(), named), nullptr);
      std::copy(args.begin(), args.end(), bound.begin());
      for (auto &[name, v] : kwargs) {
        size_t k = 0;
        while (k < named && def->params[k].name != name) ++k;
        if (k == named)
          return typingError(
              v->loc, fmt::format("{}() got an unexpected keyword argument '{}'", fname, name));
        if (bound[k])
          return typingError(
              v->loc, fmt::format("{}() got multiple values for argument '{}'", fname, name));
        bound[k] = v;
      }
      for (size_t k = 0; k < named; ++k) {
        if (bound[k]) continue;
        const ast::Expr *d = def->params[k].defaultValue;
        if (!d) {
          size_t missing = 0;
          for (size_t j = k; j < named; ++j) missing += !bound[j] && !def->params[j].defaultValue;
          Expr *err = typingError(
              c->loc, fmt::format("{}() missing {} required positional argument{}: '{}'", fname,
                                  missing, missing == 1 ? "" : "s", def->params[k].name));
          ctx_.diags.note(def->loc, fmt::format("'{}' is defined here", fname));
          return err;
        }
        const ast::Expr *lit = d;
        if (auto *u = ast::dyn_cast<ast::UnaryExpr>(d)) lit = u->operand;
        if (!ast::isa<ast::IntLit>(lit) && !ast::isa<ast::FloatLit>(lit) &&
            !ast::isa<ast::ImagLit>(lit) && !ast::isa<ast::BoolLit>(lit) &&
            !ast::isa<ast::NoneLit>(lit) && !ast::isa<ast::StrLit>(d))
          return unsupported(c->loc,
                             fmt::format("the default of parameter '{}' of {}() must be a constant "
                                         "number, bool, string or None for kernels; pass the "
                                         "argument",
                                         def->params[k].name, fname));
        bound[k] = expr(d);
        if (!known(bound[k])) return unknown(c->loc);
      }
      args = std::move(bound);
    }
    if (packed) args.push_back(packed);
    if (auto d = prog_.declaredSignatures.find(ft); d != prog_.declaredSignatures.end())
      return callDeclared(src->second->name, ft, d->second, std::move(args), c->loc);
    // Compile-time values (dtypes, functions) and integer literals are
    // passed by specialising the callee on them, as Numba types them as
    // constants; only run-time values are passed at run time.
    std::vector<const Type *> types;
    std::vector<const Expr *> literals;
    std::vector<Expr *> runtimeArgs;
    for (Expr *a : args)
      if (hasUndefinedList(a->type) && !final_) return unknown(c->loc);
    for (Expr *a : args) {
      if (!a->type->isRuntime() && !compileTimeArg(a->type))
        return typingError(a->loc,
                           fmt::format("cannot pass {} to a kjit function", a->type->str()));
      types.push_back(a->type);
      literals.push_back(literalArg(a) ? a : nullptr);
      if (a->type->isRuntime()) runtimeArgs.push_back(a);
    }
    unsigned errorsBefore = ctx_.diags.errorCount();
    prog_.unresolved.clear();
    Function *f = specializeCallee(ft, types, c->loc, literals);
    // A recursive call whose return type is not known yet: typed in a later
    // pass, from the returns that do not recurse.
    for (const SpecKey &k : prog_.unresolved)
      if (!(k.identity == key_.identity && k.args == key_.args)) waitsFor_.insert(k);
    if (!prog_.unresolved.empty() && (!f || !f->returnType || final_)) {
      prog_.unresolved.clear();
      // After another error (a callee that failed to type leaves its
      // callers without a return type) this would only repeat it.
      if (final_ && ctx_.diags.errorCount() == 0)
        typingError(c->loc, fmt::format("cannot type infer runaway recursion: every path of "
                                        "'{}' calls itself before it returns a value",
                                        def_.name));
      return unknown(c->loc);
    }
    if (!f) {
      // An error in the callee's body (not at this call: arity, typing): say
      // where it was called.
      const auto &diags = ctx_.diags.diagnostics();
      if (ctx_.diags.errorCount() > errorsBefore && !diags.empty() &&
          (diags.back().loc.line != c->loc.line || diags.back().loc.col != c->loc.col))
        ctx_.diags.note(c->loc, fmt::format("resolving callee type: type({}(<function {}>)), "
                                            "called here",
                                            cudaTarget() ? "CUDADispatcher" : "CPUDispatcher",
                                            src->second->name));
      return unknown(c->loc);
    }
    prog_.unresolved.clear();
    if (!f) return unknown(c->loc);
    return ir_.call(f, std::move(runtimeArgs), c->loc);
  }
  // Builtins take the value of a value-or-None (TypeError when it is None).
  for (Expr *&a : args) a = unwrapOptional(a);
  for (auto &kw : kwargs) kw.second = unwrapOptional(kw.second);
  CallSite site{c->loc, std::move(args), std::move(kwargs), c};
  return typeBuiltinCall(*this, ft, site);
}

}  // namespace kjit::typing
