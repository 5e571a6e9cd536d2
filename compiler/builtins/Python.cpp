// Python.cpp - Python's builtins (print, len, abs, min, max, int, round ...),
// the operator module, and the methods of numbers.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "compiler/builtins/BuiltinCall.h"

namespace kjit {

using namespace ir;

namespace {

class PythonCall : public BuiltinCall {
 public:
  explicit PythonCall(BuiltinCall &c) : BuiltinCall(c) {}
  Expr *print();
  Expr *sequence();
  Expr *loopOnly() {
    return unsupported(f + "() can only be used as the iterable of a for loop in kernels");
  }
  Expr *iterableOnly() {
    return unsupported(fmt::format("{}() can only be used as the iterable of a for loop", f));
  }
  Expr *tuple();
  Expr *tupleSetitem();
  Expr *len();
  Expr *abs();
  Expr *min() { return minMax(false, f); }
  Expr *max() { return minMax(true, f); }
  Expr *strings();
  Expr *isinstance();
  Expr *type();
  Expr *numberType();
  Expr *round();
  Expr *divmod();
  Expr *pow();
  Expr *notInKernels() { return unsupported(fmt::format("{}() is not supported in kernels", f)); }
  // A name the family has no row for (a Python global naming another
  // function of the module): its keyword and arity rules, then refused.
  Expr *otherBuiltin() {
    if (!noKeywords(name)) return none();
    return notInKernels();
  }
  Expr *otherOperator() {
    if (!noKeywords(name) || !arity(name, 2, 2)) return none();
    return unsupported(fmt::format("{}() is not supported in kernels", name));
  }

  // The operator module.
  Expr *operatorUnary();
  Expr *operatorTruth();
  Expr *operatorCompare();
  Expr *operatorBinary();

  // Methods of numbers.
  Expr *conjugate();
  Expr *bitCount();
};

// kjit.tuple_setitem(t, i, v) (Numba's numba.cpython.unsafe.tuple.tuple_setitem):
// a copy of t with element i replaced by v, converted to the element's
// type. i may be computed at run time when the elements have one type (in
// a loop kjit unrolls, it becomes a constant: the tuple stays in registers).
Expr *PythonCall::tupleSetitem() {
  if (!arity(name, 3, 3)) return none();
  Expr *t = site.args[0], *i = site.args[1], *v = site.args[2];
  auto located = [&](Expr *at, std::string msg) {
    return ts.error(DiagCategory::Typing, at->loc, std::move(msg));
  };
  auto typeText = [](Expr *e) { return e->type ? e->type->str() : std::string("nothing"); };
  if (!t->type->isTuple() || t->type->elements().empty())
    return located(t,
                   fmt::format("{}(): the first argument is a tuple, not {}", name, typeText(t)));
  if (!i->type->isInt())
    return located(i, fmt::format("{}(): the index is an integer, not {}", name, typeText(i)));
  const std::vector<const Type *> &elems = t->type->elements();
  auto n = int64_t(elems.size());
  std::optional<int64_t> k = constInt(i);
  if (k && (*k < -n || *k >= n))
    return located(
        i, fmt::format("{}(): index {} is out of range for a tuple of {} elements", name, *k, n));
  if (k && *k < 0) *k += n;
  const Type *et = k ? elems[size_t(*k)] : elems[0];
  if (!k)
    for (const Type *e : elems)
      if (e != et)
        return located(i, fmt::format("{}(): a run-time index needs a tuple of one element type, "
                                      "not {}",
                                      name, t->type->str()));
  if (!v->type->isNumber() && v->type != et)
    return located(
        v, fmt::format("{}(): the value is {}; the element is {}", name, typeText(v), et->str()));
  if (v->type != et && !(v->type->isNumber() && et->isNumber()))
    return located(v, fmt::format("{}(): cannot store {} in an element of type {}", name,
                                  typeText(v), et->str()));
  Expr *index = k ? ts.constInt(*k, loc) : ts.convert(i, tc.int64());
  return ts.intrinsic(IntrinsicId::TupleSetitem, {t, index, ts.convert(v, et)}, t->type, loc);
}

Expr *PythonCall::print() {
  auto &a = site.args;
  if (!onlyKeywords(f, {})) return ts.constOf(nullptr, loc);
  // Tuples (and cuda.threadIdx and the other dim3 values) print as
  // Python prints them: their elements become items of their own, with
  // the punctuation as string pieces; Intrinsic::text says which item
  // follows a space (' ') and which is glued to the one before ('.').
  std::vector<Expr *> items;
  std::string glue;
  std::function<bool(Expr *, bool)> add = [&](Expr *x, bool spaced) -> bool {
    auto piece = [&](const char *text, bool sp) {
      items.push_back(ts.constOf(tc.stringLit(text), x->loc));
      glue += sp ? ' ' : '.';
    };
    if (x->type->kind() == TypeKind::Module) {
      for (const Dim3Namespace &d : dim3Namespaces()) {
        if (x->type->symbol() != d.name || !ts.cudaTarget()) continue;
        std::vector<Expr *> xyz;
        for (int axis = 0; axis < 3; ++axis)
          xyz.push_back(
              ts.intrinsic(d.id, {ts.constInt(axis, x->loc)}, tc.intTy(32, true), x->loc));
        return add(ir.tupleMake(std::move(xyz), x->loc), spaced);
      }
    }
    if (x->type->isTuple() && x->type->fieldNames().empty()) {
      std::function<bool(const Expr *)> reread = [&](const Expr *e) {
        if (isa<VarRef>(e) || isa<Const>(e)) return true;
        if (auto *g = dyn_cast<TupleGet>(e)) return !g->dynIndex && reread(g->tuple);
        return false;
      };
      if (!isa<TupleMake>(x) && !reread(x)) {
        ts.error(DiagCategory::Unsupported, x->loc,
                 "print() of a tuple in kernels takes a variable or a tuple display; assign the "
                 "value to a variable first");
        return false;
      }
      size_t n = x->type->elements().size();
      piece("(", spaced);
      for (size_t i = 0; i < n; ++i) {
        if (i > 0) piece(",", false);
        Expr *e = isa<TupleMake>(x) ? cast<TupleMake>(x)->elems[i]
                                    : static_cast<Expr *>(ir.tupleGet(x, unsigned(i), x->loc));
        if (!add(e, i > 0)) return false;
      }
      piece(n == 1 ? ",)" : ")", false);
      return true;
    }
    if (!x->type->isNumber() && x->type->kind() != TypeKind::StringLit && !x->type->isNone() &&
        !(x->type->isString() && !ts.cudaTarget())) {
      ts.error(DiagCategory::Unsupported, x->loc,
               fmt::format("print() in kernels takes numbers, constant strings and tuples of "
                           "them, not {}",
                           x->type->str()));
      return false;
    }
    items.push_back(x);
    glue += spaced ? ' ' : '.';
    return true;
  };
  for (size_t i = 0; i < a.size(); ++i)
    if (!add(a[i], i > 0)) return ts.constOf(nullptr, loc);
  size_t values = 0;
  for (Expr *x : items) values += x->type->isComplex() ? 2 : x->type->isNumber() ? 1 : 0;
  if (ts.cudaTarget() && values > 32)  // LoweringImpl.h's kMaxPrintfValues
    ts.performanceWarning(loc,
                          "CUDA print() cannot print more than 32 items. The raw format "
                          "string will be emitted by the kernel instead.");
  bool plain = glue.find('.') == std::string::npos;
  Intrinsic *in = ts.intrinsic(IntrinsicId::Print, std::move(items), tc.none(), loc);
  if (!plain) in->text = glue;
  return in;
}

Expr *PythonCall::sequence() {
  auto &a = site.args;
  // Over a list, an array (its first axis) or a tuple of one element
  // type: the builtins library's loops (compiler/lib/builtins/sequences.kjit).
  if (ts.cudaTarget() && f != "sum" && f != "any" && f != "all")
    return unsupported(fmt::format("{}() makes a list, which kernels cannot", f));
  if (f == "list" && a.empty() && site.kwargs.empty())
    return ts.intrinsic(IntrinsicId::ListNew, {ts.constInt(0, loc)}, tc.list(nullptr), loc);
  if (f == "sorted" ? !onlyKeywords(f, {"reverse", "key"}) : !noKeywords(f))
    return ts.constOf(nullptr, loc);
  if (!arity(f, 1, f == "sum" ? 2 : 1)) return ts.constOf(nullptr, loc);
  const Type *t = a[0]->type;
  if (!t->isList() && !t->isArray() && !t->isHomogeneousTuple() && !t->isDict() && !t->isString() &&
      !(t->isTuple() && t->elements().empty()))
    return fail(
        fmt::format("{}() of {} is not supported; it takes a list, an array, a set, a dict "
                    "or a tuple of one element type",
                    f, t->str()));
  std::vector<Expr *> args = a;
  Expr *key = f == "sorted" ? keyword("key") : nullptr;
  if (key && key->type->isNone()) key = nullptr;  // key=None: the elements themselves
  if (key) args.push_back(key);
  if (f == "sorted")
    if (Expr *r = keyword("reverse")) args.push_back(r);
  return library(key ? "_builtin_sorted_key" : "_builtin_" + f, std::move(args));
}

Expr *PythonCall::tuple() {
  auto &a = site.args;
  // tuple(t) of a tuple: its elements (a named tuple's too); tuple(): ().
  if (!arity(f, 0, 1)) return ts.constOf(nullptr, loc);
  if (a.empty()) return ir.tupleMake({}, loc);
  if (!a[0]->type->isTuple())
    return unsupported(fmt::format(
        "tuple() of {} is not supported in kernels; tuple() takes a tuple", a[0]->type->str()));
  if (a[0]->type->fieldNames().empty()) return a[0];
  std::vector<Expr *> elems;
  for (unsigned i = 0; i < a[0]->type->elements().size(); ++i)
    elems.push_back(ir.tupleGet(a[0], i, loc));
  return ir.tupleMake(std::move(elems), loc);
}

Expr *PythonCall::len() {
  auto &a = site.args;
  if (!arity(f, 1, 1)) return ts.constOf(nullptr, loc);
  if (a[0]->type->isList() || a[0]->type->isString())
    return ts.intrinsic(IntrinsicId::ListLen, {a[0]}, tc.int64(), loc);
  if (a[0]->type->isSet()) return library("_set_len", {a[0]});
  if (a[0]->type->isDict()) return library("_dict_len", {a[0]});
  if (a[0]->type->isArray() && a[0]->type->ndim() == 0)  // (NumPy: "len() of unsized object")
    return fail(fmt::format("len() of a 0-d array ({}) is not possible: it has no first axis",
                            a[0]->type->str()));
  if (a[0]->type->isArray())
    return ts.intrinsic(IntrinsicId::ArrayShape, {a[0], ts.constInt(0, loc)}, tc.int64(), loc);
  if (a[0]->type->isTuple()) return ts.constInt(int64_t(a[0]->type->elements().size()), loc);
  if (a[0]->type->kind() == TypeKind::StringLit)
    return ts.constInt(int64_t(a[0]->type->symbol().size()), loc);
  return fail(fmt::format("object of type {} has no len()", a[0]->type->str()));
}

Expr *PythonCall::abs() {
  auto &a = site.args;
  if (a.size() == 1 && a[0]->type->isArray() && !ts.cudaTarget())
    return arrayOperation(
        ts, UfuncKind::Absolute, "abs({0})", a,
        [&](std::vector<Expr *> e) {
          CallSite one = site;
          one.args = std::move(e);
          return dispatch(ts, one, "builtins", "abs");
        },
        loc);
  if (!arity(f, 1, 1) || !needNumber(a[0], f)->type) return ts.constOf(nullptr, loc);
  const Type *t = a[0]->type;
  if (t->isComplex()) return ts.intrinsic(IntrinsicId::Abs, {a[0]}, t->complexPart(), loc);
  if (t->isBool()) t = tc.intTy(8);  // Numba's: abs(True) is int8
  return ts.intrinsic(IntrinsicId::Abs, {ts.convert(a[0], t)}, t, loc);
}

Expr *PythonCall::strings() {
  auto &a = site.args;
  // Strings: the builtins library's (compiler/lib/builtins/strings.kjit).
  if (ts.cudaTarget()) return unsupported("strings are not supported in kernels");
  if (!arity(f, 1, 1)) return ts.constOf(nullptr, loc);
  const Type *t = a[0]->type;
  bool text = t->isText();
  if (f == "str") {
    if (text) return ts.convert(a[0], tc.str());
    if (t->isInt() || t->isBool()) return library("_str_from_int", {a[0]});
    return fail(fmt::format("str() of {} is not supported (Numba converts integers)", t->str()));
  }
  if (f == "ord") {
    if (!text)
      return fail(fmt::format("ord() expected string of length 1, but {} found", t->str()));
    return library("_str_ord", {ts.convert(a[0], tc.str())});
  }
  if (!t->isInt() && !t->isBool())
    return fail(fmt::format("chr() takes an integer, not {}", t->str()));
  return library("_str_chr", {ts.convert(a[0], tc.int64())});
}

Expr *PythonCall::isinstance() {
  auto &a = site.args;
  // Known from the types, as Numba's: isinstance(x, int), (x, float),
  // (x, complex), (x, bool), (x, tuple), (x, np.float32) ...
  if (!arity(f, 2, 2)) return ts.constOf(nullptr, loc);
  const Type *t = a[0]->type, *c = a[1]->type;
  if (c->kind() == TypeKind::Dtype) return boolConst(t == c->dtype());
  if (c->kind() == TypeKind::Function) {
    const std::string &s = c->symbol();
    if (s == "builtins.int") return boolConst(t->isInt() || t->isBool());
    if (s == "builtins.float") return boolConst(t->isFloat());
    if (s == "builtins.complex") return boolConst(t->isComplex());
    if (s == "builtins.bool") return boolConst(t->isBool());
    if (s == "builtins.tuple") return boolConst(t->isTuple());
    if (s == "builtins.str") return boolConst(t->isText());
  }
  return unsupported(fmt::format("isinstance() with {} is not supported in kernels", c->str()));
}

Expr *PythonCall::type() {
  auto &a = site.args;
  // type(x) of a number: its NumPy scalar type, usable as a dtype.
  if (!arity(f, 1, 1) || !needNumber(a[0], f)->type) return ts.constOf(nullptr, loc);
  return ts.constOf(tc.dtypeOf(a[0]->type), loc);
}

Expr *PythonCall::numberType() {
  auto &a = site.args;
  if (f == "complex") {
    if (!arity(f, 0, 2)) return ts.constOf(nullptr, loc);
    // Numba's: complex64 from float32 parts, else complex128 (also of a
    // complex64).
    bool single = !a.empty() && std::all_of(a.begin(), a.end(), [](const Expr *x) {
      return x->type && x->type->isFloat() && x->type->bits() == 32;
    });
    const Type *ct = tc.complexTy(single ? 64 : 128);
    if (a.empty()) return ts.convert(ts.constInt(0, loc), ct);
    if (a.size() == 1) return ts.convert(needNumber(a[0], f), ct);
    if (a[0]->type->isComplex() || a[1]->type->isComplex())
      return unsupported("complex() of complex parts");
    const Type *part = ct->complexPart();
    return ts.intrinsic(IntrinsicId::ComplexMake, {ts.convert(a[0], part), ts.convert(a[1], part)},
                        ct, loc);
  }
  if (!arity(f, 0, 1)) return ts.constOf(nullptr, loc);
  if (a.empty())
    return f == "bool"  ? ts.convert(ts.constInt(0, loc), tc.boolean())
           : f == "int" ? ts.constInt(0, loc)
                        : ts.constFloat(0, loc);
  if (!needNumber(a[0], f)->type) return ts.constOf(nullptr, loc);
  if (a[0]->type->isComplex() && f != "bool")
    return fail(fmt::format("cannot convert complex to {}", f));
  if (f == "bool") return ts.truth(a[0]);
  // Numba's float() and int(): a float keeps its type (float(float32) is
  // float32), an integer its own (int(uint64(2**64 - 1)) is 2**64 - 1).
  if (f == "float" && a[0]->type->isFloat()) return a[0];
  if (f == "int" && a[0]->type->isInt()) return a[0];
  return ts.convert(a[0], f == "int" ? tc.int64() : tc.float64());
}

Expr *PythonCall::round() {
  auto &a = site.args;
  if (!arity(f, 1, 2) || !needNumber(a[0], f)->type) return ts.constOf(nullptr, loc);
  const Type *t = a[0]->type;
  if (t->isComplex()) return fail("type complex128 doesn't define __round__ method");
  if (a.size() == 1) {
    if (!t->isFloat()) return ts.convert(a[0], tc.int64());
    return ts.convert(ts.intrinsic(IntrinsicId::Rint, {a[0]}, t, loc), tc.int64());
  }
  if (!a[1]->type->isInt()) return fail("round() ndigits must be an integer");
  if (!t->isFloat()) return a[0];
  // round(x, n), Numba's round_ndigits in float64: scale by 10**n (in two
  // factors past 10**22, so that neither overflows), round half to even,
  // unscale; x itself when it is not finite or the scaled value overflows.
  const Type *f64 = tc.float64();
  Expr *x = ts.convert(a[0], f64), *n = ts.convert(a[1], tc.int64());
  auto num = [&](double v) { return ts.constFloat(v, loc); };
  auto cmp = [&](ast::CmpOp op, Expr *l, Expr *r) { return ts.compare(op, l, r, loc); };
  auto bin = [&](ast::BinaryOp op, Expr *l, Expr *r) { return ts.binary(op, l, r, loc); };
  // Numba's @njit rounds the scaled value in the argument's own type (its
  // _round of float32 is rintf): round(float32(2.675), 2) is 2.68, not
  // 2.67. numba-cuda's kernels round the float64 value (0.343 for
  // float32(0.3425) to 3 digits), and so do kjit's on every device.
  auto rint = [&](Expr *v) -> Expr * {
    if (t == f64 || ts.cudaTarget()) return ts.intrinsic(IntrinsicId::Rint, {v}, f64, loc);
    return ts.convert(ts.intrinsic(IntrinsicId::Rint, {ts.convert(v, t)}, t, loc), f64);
  };
  // With a constant n the choices are made here.
  auto *nc = dyn_cast<Const>(n);
  auto pick = [&](Expr *cond, std::optional<bool> known, Expr *a, Expr *b) -> Expr * {
    if (known) return *known ? a : b;
    return ts.select(cond, a, b, loc);
  };
  auto knownIf = [&](bool v) { return nc ? std::optional<bool>(v) : std::nullopt; };
  Expr *nonneg = cmp(ast::CmpOp::Ge, n, ts.constInt(0, loc));
  Expr *big = cmp(ast::CmpOp::Gt, n, ts.constInt(22, loc));
  std::optional<bool> isNonneg = knownIf(nc && nc->i >= 0), isBig = knownIf(nc && nc->i > 22);
  Expr *exp1 =
      pick(nonneg, isNonneg, pick(big, isBig, bin(ast::BinaryOp::Sub, n, ts.constInt(22, loc)), n),
           ts.unaryOp(ast::UnaryOp::Neg, n, loc));
  Expr *pow1 = ts.intrinsic(IntrinsicId::Pow, {num(10.0), ts.convert(exp1, f64)}, f64, loc);
  Expr *pow2 = pick(big, isBig, num(1e22), num(1.0));
  Expr *up = bin(ast::BinaryOp::Mul, bin(ast::BinaryOp::Mul, x, pow1), pow2);
  Expr *positive =
      ts.select(ts.intrinsic(IntrinsicId::IsInf, {up}, tc.boolean(), loc), x,
                bin(ast::BinaryOp::Div, bin(ast::BinaryOp::Div, rint(up), pow2), pow1), loc);
  Expr *negative = bin(ast::BinaryOp::Mul, rint(bin(ast::BinaryOp::Div, x, pow1)), pow1);
  Expr *r = ts.select(ts.intrinsic(IntrinsicId::IsFinite, {x}, tc.boolean(), loc),
                      pick(nonneg, isNonneg, positive, negative), x, loc);
  return ts.convert(r, t);
}

Expr *PythonCall::divmod() {
  auto &a = site.args;
  if (!arity(f, 2, 2)) return ts.constOf(nullptr, loc);
  Expr *q = ts.binary(ast::BinaryOp::FloorDiv, a[0], a[1], loc);
  Expr *r = ts.binary(ast::BinaryOp::Mod, a[0], a[1], loc);
  if (!q->type || !r->type) return ts.constOf(nullptr, loc);
  return ir.tupleMake({q, r}, loc);
}

Expr *PythonCall::pow() {
  auto &a = site.args;
  if (!arity(f, 2, 2)) return ts.constOf(nullptr, loc);
  return ts.binary(ast::BinaryOp::Pow, a[0], a[1], loc);
}
// The operator module: functions of two operands as the operators (the
// in-place spellings too: on numbers they are the same), comparisons, and
// functions of one operand.
struct OperatorFn {
  const char *name;
  ast::BinaryOp op;
};
const OperatorFn kOperatorBinary[] = {{"add", ast::BinaryOp::Add},
                                      {"sub", ast::BinaryOp::Sub},
                                      {"mul", ast::BinaryOp::Mul},
                                      {"truediv", ast::BinaryOp::Div},
                                      {"floordiv", ast::BinaryOp::FloorDiv},
                                      {"mod", ast::BinaryOp::Mod},
                                      {"pow", ast::BinaryOp::Pow},
                                      {"lshift", ast::BinaryOp::LShift},
                                      {"rshift", ast::BinaryOp::RShift},
                                      {"and_", ast::BinaryOp::BitAnd},
                                      {"or_", ast::BinaryOp::BitOr},
                                      {"xor", ast::BinaryOp::BitXor},
                                      {"iadd", ast::BinaryOp::Add},
                                      {"isub", ast::BinaryOp::Sub},
                                      {"imul", ast::BinaryOp::Mul},
                                      {"itruediv", ast::BinaryOp::Div},
                                      {"ifloordiv", ast::BinaryOp::FloorDiv},
                                      {"imod", ast::BinaryOp::Mod},
                                      {"ipow", ast::BinaryOp::Pow},
                                      {"ilshift", ast::BinaryOp::LShift},
                                      {"irshift", ast::BinaryOp::RShift},
                                      {"iand", ast::BinaryOp::BitAnd},
                                      {"ior", ast::BinaryOp::BitOr},
                                      {"ixor", ast::BinaryOp::BitXor}};
struct OperatorCmp {
  const char *name;
  ast::CmpOp op;
};
const OperatorCmp kOperatorCompare[] = {{"lt", ast::CmpOp::Lt},  {"le", ast::CmpOp::Le},
                                        {"gt", ast::CmpOp::Gt},  {"ge", ast::CmpOp::Ge},
                                        {"eq", ast::CmpOp::Eq},  {"ne", ast::CmpOp::Ne},
                                        {"is_", ast::CmpOp::Is}, {"is_not", ast::CmpOp::IsNot}};
struct OperatorUnary {
  const char *name;
  ast::UnaryOp op;
};
const OperatorUnary kOperatorUnary[] = {{"neg", ast::UnaryOp::Neg},
                                        {"pos", ast::UnaryOp::Pos},
                                        {"invert", ast::UnaryOp::Invert},
                                        {"inv", ast::UnaryOp::Invert},
                                        {"not_", ast::UnaryOp::Not}};

template <class Table>
const auto *findIn(const Table &t, const std::string &name) {
  for (const auto &e : t)
    if (name == e.name) return &e;
  return static_cast<decltype(&t[0])>(nullptr);
}

Expr *PythonCall::operatorUnary() {
  if (!arity(name, 1, 1)) return none();
  return ts.unaryOp(findIn(kOperatorUnary, f)->op, site.args[0], loc);
}

Expr *PythonCall::operatorTruth() {
  if (!arity(name, 1, 1)) return none();
  return ts.truth(site.args[0]);
}

Expr *PythonCall::operatorCompare() {
  if (!arity(name, 2, 2)) return none();
  return ts.compare(findIn(kOperatorCompare, f)->op, site.args[0], site.args[1], loc);
}

Expr *PythonCall::operatorBinary() {
  if (!arity(name, 2, 2)) return none();
  return ts.binary(findIn(kOperatorBinary, f)->op, site.args[0], site.args[1], loc);
}

// z.conjugate(), with the number first in the arguments.
Expr *PythonCall::conjugate() {
  Expr *x = site.args.empty() ? nullptr : site.args[0];
  if (!x) return fail("conjugate() without a receiver");
  return conjugateOf(x);
}

// int.bit_count(), as numba-cuda has it: cuda.popc of the value.
Expr *PythonCall::bitCount() {
  if (!ts.cudaTarget())
    return unsupported(
        "int.bit_count() is only available in @cuda.jit kernels and device "
        "functions");
  if (site.args.size() != 1) return fail("bit_count() takes no arguments");
  return ts.intrinsic(IntrinsicId::Popc, {site.args[0]}, site.args[0]->type, site.loc);
}

}  // namespace

const BuiltinFamily &pythonBuiltinsFamily() {
  using P = PythonCall;
  static const BuiltinFamily family{
      "builtins",
      {
          row("print", via<&P::print>),
          row("sum", via<&P::sequence>),
          row("sorted", via<&P::sequence>),
          row("list", via<&P::sequence>),
          row("any", via<&P::sequence>),
          row("all", via<&P::sequence>),
          row("range", via<&P::loopOnly>, positional()),
          row("enumerate", via<&P::loopOnly>, positional()),
          row("zip", via<&P::loopOnly>, positional()),
          row("tuple", via<&P::tuple>, positional()),
          row("len", via<&P::len>, positional()),
          row("abs", via<&P::abs>, positional()),
          row("min", via<&P::min>, positional()),
          row("max", via<&P::max>, positional()),
          row("str", via<&P::strings>, positional()),
          row("ord", via<&P::strings>, positional()),
          row("chr", via<&P::strings>, positional()),
          row("isinstance", via<&P::isinstance>, positional()),
          row("type", via<&P::type>, positional()),
          row("int", via<&P::numberType>, positional()),
          row("float", via<&P::numberType>, positional()),
          row("bool", via<&P::numberType>, positional()),
          row("complex", via<&P::numberType>, positional()),
          row("round", via<&P::round>, positional()),
          row("divmod", via<&P::divmod>, positional()),
          row("pow", via<&P::pow>, positional()),
          // set() and dict() of known forms are typed before (TypeCalls.cpp).
          row("set", via<&P::notInKernels>, positional()),
          row("dict", via<&P::notInKernels>, positional()),
      },
      via<&P::otherBuiltin>};
  return family;
}

const BuiltinFamily &operatorFamily() {
  using P = PythonCall;
  static const BuiltinFamily family = [] {
    BuiltinFamily fam{"operator", {}, via<&P::otherOperator>};
    for (const OperatorFn &b : kOperatorBinary)
      fam.entries.push_back(row(b.name, via<&P::operatorBinary>, positional()));
    for (const OperatorCmp &c : kOperatorCompare)
      fam.entries.push_back(row(c.name, via<&P::operatorCompare>, positional()));
    for (const OperatorUnary &u : kOperatorUnary)
      fam.entries.push_back(row(u.name, via<&P::operatorUnary>, positional()));
    fam.entries.push_back(row("truth", via<&P::operatorTruth>, positional()));
    fam.entries.push_back(row("abs", via<&P::abs>, positional()));
    return fam;
  }();
  return family;
}

const BuiltinFamily &numberMethodsFamily() {
  using P = PythonCall;
  static const BuiltinFamily family{
      "number", {row("conjugate", via<&P::conjugate>), row("bit_count", via<&P::bitCount>)}};
  return family;
}

const BuiltinFamily &loopOnlyFamily(const std::string &module) {
  using P = PythonCall;
  static const BuiltinFamily kjitFamily{
      "kjit",
      {row("prange", via<&P::iterableOnly>), row("literal_unroll", via<&P::iterableOnly>),
       row("tuple_setitem", via<&P::tupleSetitem>, positional())}};
  static const BuiltinFamily numbaFamily{
      "numba",
      {row("prange", via<&P::iterableOnly>), row("literal_unroll", via<&P::iterableOnly>)}};
  return module == "numba" ? numbaFamily : kjitFamily;
}

}  // namespace kjit
