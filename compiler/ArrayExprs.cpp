// ArrayExprs.cpp - array expressions: pending nodes, fusion, and their loops
// (ArrayExprs.h says how).
#include "compiler/ArrayExprs.h"

#include <fmt/format.h>

#include "compiler/UfuncSource.h"

namespace kjit {

using namespace ir;

namespace {

// A pending node's text starts with this when its last operand is `out`.
constexpr const char *kOutMark = "out|";

bool hasOut(const Intrinsic *in) { return in->text.rfind(kOutMark, 0) == 0; }
std::string elementText(const Intrinsic *in) { return hasOut(in) ? in->text.substr(4) : in->text; }

std::string convertText(const std::string &text, const Type *from, const Type *to) {
  return from == to ? text : fmt::format("{}({})", npName(to), text);
}

// The loop type of the operands' element types: NumPy's promotion, with
// Numba's rule for mixed kinds (numba.np.numpy_support.ufunc_can_cast): when
// integers meet floats or complex numbers, any integer casts to them, so the
// integers do not widen the loop (float32 array ** 2 and float32 array +
// int64 array are float32). Not for np.where (`ufunc` false), which Numba
// types by NumPy's promotion.
const Type *promoted(TypeContext &tc, const std::vector<const Type *> &ts, bool ufunc) {
  bool ints = false, inexact = false;
  for (const Type *t : ts) {
    ints |= t->isInt();
    inexact |= t->isFloat() || t->isComplex();
  }
  const Type *p = nullptr;
  for (const Type *t : ts)
    if (!(ufunc && ints && inexact && t->isInt())) p = p ? promoteNumeric(tc, p, t) : t;
  return p;
}

// Numba's float loops for integer inputs: float32 for 16 bits or fewer.
const Type *floatFor(TypeContext &tc, const Type *t) {
  if (t->isFloat() || t->isComplex()) return t;
  return t->isBool() || t->bits() <= 16 ? tc.floatTy(32) : tc.float64();
}

// A stand-in for one element of type t while the scalar operation is typed:
// an opaque value (not a constant, which the typer might fold).
Expr *standIn(TyperServices &ts, const Type *t, SourceLoc loc) {
  return ts.intrinsic(IntrinsicId::ArrayExpr, {}, t, loc);
}

// Gathers the operands of a pending node: each of `operands` becomes text
// over the combined operand list (a pending operand's own operands join it).
struct Gather {
  std::vector<Expr *> leaves;
  std::vector<std::string> texts;   // per operand, over $k$
  std::vector<const Type *> types;  // per operand: its element type
  unsigned ndim = 0;

  unsigned leafIndex(Expr *e) {
    if (auto *r = dyn_cast<VarRef>(e))
      for (unsigned k = 0; k < leaves.size(); ++k)
        if (auto *o = dyn_cast<VarRef>(leaves[k]); o && o->var == r->var) return k;
    leaves.push_back(e);
    return unsigned(leaves.size() - 1);
  }
  void add(Expr *e) {
    if (auto *in = dyn_cast<Intrinsic>(e);
        in && in->id == IntrinsicId::ArrayExpr && !in->args.empty() && !hasOut(in)) {
      // A pending node not bound to a variable: fuse it.
      std::string text = elementText(in), out;
      for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '$') {
          out += text[i];
          continue;
        }
        size_t end = text.find('$', i + 1);
        unsigned k = unsigned(std::stoul(text.substr(i + 1, end - i - 1)));
        out += fmt::format("${}$", leafIndex(in->args[k]));
        i = end;
      }
      texts.push_back(out);
      types.push_back(e->type->dtype());
      ndim = std::max(ndim, e->type->ndim());
      return;
    }
    texts.push_back(fmt::format("${}$", leafIndex(e)));
    types.push_back(e->type->isArray() ? e->type->dtype() : e->type);
    if (e->type->isArray()) ndim = std::max(ndim, e->type->ndim());
  }
};

Expr *pending(TyperServices &ts, Gather &g, std::string text, const Type *dtype, Expr *out,
              SourceLoc loc) {
  TypeContext &tc = ts.context().types;
  std::vector<Expr *> args = g.leaves;
  Intrinsic *n;
  if (out) {
    args.push_back(out);
    n = ts.intrinsic(IntrinsicId::ArrayExpr, std::move(args), out->type, loc);
    n->text = kOutMark + text;
  } else {
    n = ts.intrinsic(IntrinsicId::ArrayExpr, std::move(args), tc.array(dtype, g.ndim, Layout::C),
                     loc);
    n->text = std::move(text);
  }
  return n;
}

bool checkOut(TyperServices &ts, Expr *out, unsigned ndim, SourceLoc loc) {
  if (!out->type->isArray()) {
    ts.error(DiagCategory::Typing, out->loc,
             fmt::format("the output must be an array, not {}", out->type->str()));
    return false;
  }
  if (out->type->readonly()) {
    ts.error(DiagCategory::Typing, out->loc, "the output array is read-only");
    return false;
  }
  if (out->type->ndim() < ndim) {
    ts.error(DiagCategory::Typing, loc,
             fmt::format("the output array has {} dimension{}, fewer than the operands' {}",
                         out->type->ndim(), out->type->ndim() == 1 ? "" : "s", ndim));
    return false;
  }
  return true;
}

}  // namespace

std::string npName(const Type *t) { return t->isBool() ? "np.bool_" : "np." + t->str(); }

bool isPendingArrayExpr(const Expr *e) {
  auto *in = dyn_cast<Intrinsic>(e);
  return in && in->id == IntrinsicId::ArrayExpr && !in->args.empty();
}

Expr *arrayOperation(TyperServices &ts, UfuncKind kind, const std::string &text,
                     std::vector<Expr *> operands,
                     const std::function<Expr *(std::vector<Expr *>)> &scalar, SourceLoc loc,
                     Expr *out) {
  TypeContext &tc = ts.context().types;
  Gather g;
  for (Expr *e : operands) {
    if (e->type->isArray() && e->type->ndim() == 0)
      return ts.error(DiagCategory::Unsupported, e->loc,
                      "operations on 0-d arrays are not supported yet");
    if (e->type->isArray() && !e->type->dtype()->isNumber())
      return ts.error(
          DiagCategory::Typing, e->loc,
          fmt::format("this operation takes arrays of numbers, not {}", e->type->str()));
    if (!e->type->isArray() && !e->type->isNumber())
      return ts.error(
          DiagCategory::Typing, e->loc,
          fmt::format("unsupported operand type for an array operation: {}", e->type->str()));
    g.add(e);
  }
  // The loop's types.
  const Type *p = promoted(tc, g.types, kind != UfuncKind::Select);
  const Type *in = p, *res = p;
  switch (kind) {
  case UfuncKind::Arithmetic:
  case UfuncKind::Select: break;
  case UfuncKind::FloatMath: in = res = floatFor(tc, p); break;
  case UfuncKind::Compare: res = tc.boolean(); break;
  case UfuncKind::Predicate: in = nullptr; break;
  case UfuncKind::Absolute:
    if (p->isComplex()) res = p->complexPart();
    break;
  }
  std::vector<Expr *> elems;
  std::vector<std::string> argTexts;
  for (size_t i = 0; i < g.types.size(); ++i) {
    const Type *t = in ? in : g.types[i];
    elems.push_back(standIn(ts, t, loc));
    argTexts.push_back(convertText(g.texts[i], g.types[i], t));
  }
  Expr *probe = scalar(elems);
  if (!probe || !probe->type) return probe ? probe : ts.constOf(nullptr, loc);
  if (!probe->type->isNumber())
    return ts.error(
        DiagCategory::Typing, loc,
        fmt::format("this operation gives {}, which no array holds", probe->type->str()));
  if (kind == UfuncKind::Predicate) res = probe->type;
  std::string body = text;
  for (size_t i = argTexts.size(); i-- > 0;) {
    std::string ph = fmt::format("{{{}}}", i);
    for (size_t at = body.find(ph); at != std::string::npos; at = body.find(ph, at + 1)) {
      body.replace(at, ph.size(), argTexts[i]);
      at += argTexts[i].size() - 1;
    }
  }
  body = convertText(body, probe->type, res);
  if (out) {
    if (!checkOut(ts, out, g.ndim, loc)) return ts.constOf(nullptr, loc);
    body = convertText(body, res, out->type->dtype());
  }
  return pending(ts, g, body, res, out, loc);
}

Expr *arrayAssignment(TyperServices &ts, Expr *target, Expr *value, SourceLoc loc) {
  if (value->type->isArray() && !value->type->dtype()->isNumber())
    return ts.error(
        DiagCategory::Unsupported, loc,
        fmt::format("assigning an {} to array elements is not supported yet", value->type->str()));
  if (!value->type->isArray() && !value->type->isNumber())
    return ts.error(DiagCategory::Typing, value->loc,
                    fmt::format("cannot assign {} to the elements of {}", value->type->str(),
                                target->type->str()));
  if (!target->type->dtype()->isNumber())
    return ts.error(
        DiagCategory::Unsupported, loc,
        fmt::format("assigning to the elements of {} is not supported yet", target->type->str()));
  if (value->type->isArray() && value->type->ndim() == 0)
    return ts.error(DiagCategory::Unsupported, value->loc,
                    "operations on 0-d arrays are not supported yet");
  Gather g;
  g.add(value);
  if (!checkOut(ts, target, g.ndim, loc)) return ts.constOf(nullptr, loc);
  return pending(ts, g, convertText(g.texts[0], g.types[0], target->type->dtype()), nullptr, target,
                 loc);
}

UfuncLoopSpec pendingLoopSpec(const Intrinsic *pending, bool parallel, uint32_t fastmath,
                              size_t &operands) {
  UfuncLoopSpec spec;
  spec.ufunc = "expr";
  spec.element = elementText(pending);
  spec.parallel = parallel;
  spec.fastmath = fastmath;
  bool out = hasOut(pending);
  operands = pending->args.size() - (out ? 1 : 0);
  for (size_t k = 0; k < operands; ++k) {
    const Type *t = pending->args[k]->type;
    spec.inputs.push_back(t->isArray() ? t->ndim() : 0);
    spec.ndim = std::max(spec.ndim, spec.inputs.back());
  }
  if (out) {
    spec.ndim = pending->args.back()->type->ndim();
  } else {
    const Type *dt = pending->type->dtype();
    spec.allocateDtype = dt->isBool() ? "bool_" : dt->str();
  }
  return spec;
}

}  // namespace kjit
