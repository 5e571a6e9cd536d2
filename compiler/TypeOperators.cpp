// TypeOperators.cpp - typing operators: arithmetic (NumPy/Numba promotion,
// exact folding of integer constants), unary operators, comparisons,
// and/or and conditional expressions.
#include <fmt/format.h>

#include <optional>

#include "compiler/ArrayExprs.h"
#include "compiler/Builtins.h"
#include "compiler/Session.h"
#include "compiler/TyperImpl.h"

namespace kjit::typing {

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
  if (auto *c = dyn_cast<Const>(e)) return c->type->isInt() && c->type->isSigned() && c->i < 0;
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

// x op y on 64-bit integers as the machine (and NumPy) computes them:
// wrapping, in the result type's signedness. nullopt: not folded here (a
// shift by 64 or more or a negative count, a zero divisor, INT64_MIN // -1,
// a negative exponent: left to run time, which says what they give).
static std::optional<uint64_t> wrappedFold(ast::BinaryOp aop, uint64_t x, uint64_t y,
                                           bool isSigned) {
  int64_t sx = int64_t(x), sy = int64_t(y);
  bool countOk = isSigned ? (sy >= 0 && sy < 64) : y < 64;
  switch (aop) {
  case ast::BinaryOp::Add: return x + y;
  case ast::BinaryOp::Sub: return x - y;
  case ast::BinaryOp::Mul: return x * y;
  case ast::BinaryOp::BitAnd: return x & y;
  case ast::BinaryOp::BitOr: return x | y;
  case ast::BinaryOp::BitXor: return x ^ y;
  case ast::BinaryOp::LShift: return countOk ? std::optional<uint64_t>(x << y) : std::nullopt;
  case ast::BinaryOp::RShift:
    if (!countOk) return std::nullopt;
    return isSigned ? uint64_t(sx >> sy) : x >> y;
  case ast::BinaryOp::Pow: {
    if (isSigned && sy < 0) return std::nullopt;
    uint64_t v = 1;
    for (uint64_t base = x, e = y; e; e >>= 1, base *= base)
      if (e & 1) v *= base;
    return v;
  }
  case ast::BinaryOp::FloorDiv:
  case ast::BinaryOp::Mod: {
    if (y == 0 || (isSigned && sx == INT64_MIN && sy == -1)) return std::nullopt;
    if (!isSigned) return aop == ast::BinaryOp::FloorDiv ? x / y : x % y;
    int64_t q = sx / sy, m = sx % sy;
    if (m != 0 && ((m < 0) != (sy < 0))) {  // Python's floor
      --q;
      m += sy;
    }
    return uint64_t(aop == ast::BinaryOp::FloorDiv ? q : m);
  }
  default: return std::nullopt;
  }
}

// Integer constants (int64, as literals are) combined as Python combines
// them: exactly. A result that fits is the constant; one that no 64-bit
// integer holds (2 ** 100, 1 << 70, 2 ** 62 * 4) is a located error, never
// a wrapped value. A NumPy-typed constant (np.int64(5), Const::wraps) wraps
// instead, as NumPy and Numba compute it. nullptr: not constants, or not
// folded here.
Expr *FunctionTyper::foldIntConstants(ast::BinaryOp aop, Expr *l, Expr *r, SourceLoc loc) {
  auto *a = dyn_cast<Const>(l), *b = dyn_cast<Const>(r);
  auto wide = [&](const Type *t) { return t == tc_.int64() || t == tc_.intTy(64, false); };
  if (!a || !b || !wide(l->type) || !wide(r->type)) return nullptr;
  if (a->wraps || b->wraps) {
    bool shift = aop == ast::BinaryOp::LShift || aop == ast::BinaryOp::RShift;
    const Type *t =
        shift ? tc_.intTy(64, l->type->isSigned()) : arithmeticResult(tc_, l->type, r->type);
    if (!t || !wide(t)) return nullptr;
    std::optional<uint64_t> v = wrappedFold(aop, uint64_t(a->i), uint64_t(b->i), t->isSigned());
    if (!v) return nullptr;
    Const *c = constOf(t, loc);
    c->i = int64_t(*v);
    c->wraps = true;
    return c;
  }
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
  case ast::BinaryOp::BitAnd: v = x & y; break;
  case ast::BinaryOp::BitOr: v = x | y; break;
  case ast::BinaryOp::BitXor: v = x ^ y; break;
  case ast::BinaryOp::FloorDiv:
  case ast::BinaryOp::Mod: {
    if (y == 0) return nullptr;  // (ZeroDivisionError at run time)
    I q = x / y, m = x % y;
    if (m != 0 && ((m < 0) != (y < 0))) {  // Python's floor
      --q;
      m += y;
    }
    v = aop == ast::BinaryOp::FloorDiv ? q : m;
    break;
  }
  case ast::BinaryOp::RShift:
    if (y < 0) return nullptr;  // (a ValueError at run time, as Python's)
    v = y >= 100 ? (x < 0 ? -1 : 0) : x >> int(y);
    break;
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

// 8-bit floats are storage only: an operation on one is refused, saying
// how to convert it (null when neither operand is one).
static const Type *float8Of(const Type *t) {
  if (t && t->isArray()) t = t->dtype();
  return t && t->isFloat8() ? t : nullptr;
}
Expr *FunctionTyper::float8Operation(const Type *a, const Type *b, SourceLoc loc) {
  const Type *f = float8Of(a) ? float8Of(a) : float8Of(b);
  if (!f) return nullptr;
  return typingError(loc, fmt::format("{} values are storage only: kjit has no arithmetic or "
                                      "comparison on 8-bit floats; convert them first "
                                      "(float32(x), or .astype(np.float32) for an array)",
                                      f->str()));
}

Expr *FunctionTyper::binary(ast::BinaryOp aop, Expr *l, Expr *r, SourceLoc loc) {
  if (!known(l) || !known(r)) return unknown(loc);
  l = unwrapIntEnum(unwrapOptional(l));
  r = unwrapIntEnum(unwrapOptional(r));
  const Type *lt = l->type, *rt = r->type;
  if (Expr *e = float8Operation(lt, rt, loc)) return e;
  if (aop == ast::BinaryOp::MatMul) {
    if (lt->isArray() && rt->isArray() && !cudaTarget()) {
      // a @ b: np.matmul (compiler/lib/numpy/joining.kjit).
      Expr *product = callFunction(ctx_.session().libraryFunction("matmul"), {l, r}, loc);
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

// A bool constant as CPython's compiler folds it: True, False, `not` of one.
static std::optional<bool> foldedBool(const ast::Expr *e) {
  if (auto *b = ast::dyn_cast<ast::BoolLit>(e)) return b->value;
  if (auto *u = ast::dyn_cast<ast::UnaryExpr>(e); u && u->op == ast::UnaryOp::Not)
    if (std::optional<bool> v = foldedBool(u->operand)) return !*v;
  return std::nullopt;
}

Expr *FunctionTyper::unary(const ast::UnaryExpr *u) {
  // ~True is -2, as Python's int.__invert__: CPython folds it before Numba
  // sees it (~ of a bool value is logical not, Numba's np.bool_ rule).
  if (u->op == ast::UnaryOp::Invert)
    if (std::optional<bool> b = foldedBool(u->operand)) return constInt(~int64_t(*b), u->loc);
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
  if (op != ast::UnaryOp::Not)
    if (Expr *e = float8Operation(t, nullptr, loc)) return e;
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
    r->wraps = c->wraps;
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
  if (op != ast::CmpOp::Is && op != ast::CmpOp::IsNot)
    if (Expr *e = float8Operation(l->type, r->type, loc)) return e;
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

}  // namespace kjit::typing
