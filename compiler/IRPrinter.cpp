// IRPrinter.cpp - the textual form of the typed IR:
//   def add(x: int64, y: float64) -> float64
//     $r: float64 = (+ (float64 x) y)
// Every expression shows its type where it is not obvious: casts print as
// (type value), calls and intrinsics with their result type.
#include <fmt/format.h>

#include "compiler/IR.h"

namespace kjit::ir {

const char *kindName(Kind k) {
  switch (k) {
#define IR_EXPR(N, Children) \
  case Kind::N: return #N;
#define IR_STMT(N, Children) IR_EXPR(N, Children)
#include "compiler/IR.def"
  }
  return "?";
}

const char *spelling(BinOp op) {
  static const char *const names[] = {"+", "-", "*", "/", "//", "%",  "**", "<<", ">>",
                                      "&", "|", "^", "<", ">",  "<=", ">=", "==", "!="};
  return names[unsigned(op)];
}

const char *spelling(UnOp op) {
  switch (op) {
  case UnOp::Neg: return "neg";
  case UnOp::Not: return "not";
  case UnOp::Invert: return "~";
  }
  return "?";
}

namespace {

std::string expr(const Expr *e);

std::string list(const std::vector<Expr *> &es) {
  std::string s;
  for (const Expr *e : es) s += " " + expr(e);
  return s;
}

std::string expr(const Expr *e) {
  if (!e) return "_";
  switch (e->kind()) {
  case Kind::Const: {
    auto *c = cast<Const>(e);
    const Type *t = c->type;
    if (!t) return "<unknown>";
    if (t->isBool()) return c->i ? "True" : "False";
    if (t->isInt())
      return t->isSigned() ? fmt::format("{}", c->i) : fmt::format("{}u", uint64_t(c->i));
    if (t->isFloat()) return fmt::format("{}{}", c->f, t->bits() == 32 ? "f" : "");
    if (t->isComplex()) return fmt::format("({}+{}j)", c->f, c->im);
    if (t->isNone()) return "None";
    if (t->kind() == TypeKind::StringLit) return fmt::format("{:?}", t->symbol());
    if (t->isArray() && !c->bytes)
      return fmt::format("(device array {:#x}) : {}", uint64_t(c->i), t->str());
    return t->str();
  }
  case Kind::VarRef: return cast<VarRef>(e)->var->name;
  case Kind::Cast: return fmt::format("({} {})", e->type->str(), expr(cast<Cast>(e)->value));
  case Kind::Unary: {
    auto *u = cast<Unary>(e);
    return fmt::format("({} {})", spelling(u->op), expr(u->operand));
  }
  case Kind::Binary: {
    auto *b = cast<Binary>(e);
    return fmt::format("({} {} {})", spelling(b->op), expr(b->lhs), expr(b->rhs));
  }
  case Kind::Logical: {
    auto *l = cast<Logical>(e);
    return fmt::format("({} {} {})", l->isAnd ? "and" : "or", expr(l->lhs), expr(l->rhs));
  }
  case Kind::Select: {
    auto *s = cast<Select>(e);
    return fmt::format("(select {} {} {})", expr(s->cond), expr(s->ifTrue), expr(s->ifFalse));
  }
  case Kind::ArrayLoad: {
    auto *l = cast<ArrayLoad>(e);
    return fmt::format("(load{} {}{})", l->wraparound ? "" : ".nowrap", expr(l->array),
                       list(l->indices));
  }
  case Kind::ArrayView: {
    auto *v = cast<ArrayView>(e);
    std::string s = "(view " + expr(v->array);
    for (const SliceSpec &sp : v->specs)
      s += sp.isNewAxis ? std::string(" None")
           : sp.isIndex ? " " + expr(sp.start)
                        : fmt::format(" {}:{}:{}", sp.start ? expr(sp.start) : "",
                                      sp.stop ? expr(sp.stop) : "", sp.step ? expr(sp.step) : "");
    return s + ") : " + e->type->str();
  }
  case Kind::TupleMake: return "(tuple" + list(cast<TupleMake>(e)->elems) + ")";
  case Kind::TupleGet: {
    auto *g = cast<TupleGet>(e);
    if (g->dynIndex) return fmt::format("{}[{}]", expr(g->tuple), expr(g->dynIndex));
    return fmt::format("{}[{}]", expr(g->tuple), g->index);
  }
  case Kind::Call: {
    auto *c = cast<Call>(e);
    return fmt::format("(call {}{}) : {}", c->callee->name, list(c->args), e->type->str());
  }
  case Kind::Intrinsic: {
    auto *in = cast<Intrinsic>(e);
    std::string name = intrinsicName(in->id);
    if (in->subOp != SubOp::None)
      name = name + "." + subOpInfo(in->subOp).name;  // shfl_sync.down, atomic.add
    if (in->id == IntrinsicId::ExternCall) name += " " + in->text;
    if (in->id == IntrinsicId::Print && !in->text.empty())
      name += fmt::format(" {:?}", in->text);  // which items are glued
    if (in->id >= IntrinsicId::RecordGet && in->id <= IntrinsicId::RecordArrayField)
      name += fmt::format(" {:?}", in->text);  // the field
    if (in->id == IntrinsicId::ExcMatches)
      name += fmt::format(" {:?}", in->text);  // the classes ("": any)
    return fmt::format("({}{}) : {}", name, list(in->args), e->type ? e->type->str() : "?");
  }
  default: return "?";
  }
}

void block(const Block &b, int indent, std::string &out);

void stmt(const Stmt *s, int indent, std::string &out) {
  std::string pad(size_t(indent) * 2, ' ');
  switch (s->kind()) {
  case Kind::Assign: {
    auto *a = cast<Assign>(s);
    out += fmt::format("{}{}: {} = {}\n", pad, a->var->name, a->var->type->str(), expr(a->value));
    break;
  }
  case Kind::Store: {
    auto *st = cast<Store>(s);
    out += fmt::format("{}(store {}{}) = {}\n", pad, expr(st->array), list(st->indices),
                       expr(st->value));
    break;
  }
  case Kind::If: {
    auto *i = cast<If>(s);
    out += fmt::format("{}if {}:\n", pad, expr(i->cond));
    block(i->then, indent + 1, out);
    if (!i->otherwise.empty()) {
      out += pad + "else:\n";
      block(i->otherwise, indent + 1, out);
    }
    break;
  }
  case Kind::Try: {
    auto *t = cast<Try>(s);
    out += pad + "try:\n";
    block(t->body, indent + 1, out);
    out += pad + "except:\n";
    block(t->handler, indent + 1, out);
    if (!t->orelse.empty()) {
      out += pad + "else:\n";
      block(t->orelse, indent + 1, out);
    }
    break;
  }
  case Kind::While: {
    auto *w = cast<While>(s);
    out += fmt::format("{}while {}:\n", pad, expr(w->cond));
    block(w->body, indent + 1, out);
    if (!w->orelse.empty()) {
      out += pad + "else:\n";
      block(w->orelse, indent + 1, out);
    }
    break;
  }
  case Kind::ForRange: {
    auto *f = cast<ForRange>(s);
    out += fmt::format("{}{} {} in range({}, {}, {}):\n", pad, f->parallel ? "parfor" : "for",
                       f->var->name, expr(f->start), expr(f->stop), expr(f->step));
    block(f->body, indent + 1, out);
    if (!f->orelse.empty()) {
      out += pad + "else:\n";
      block(f->orelse, indent + 1, out);
    }
    break;
  }
  case Kind::Break: out += pad + "break\n"; break;
  case Kind::Continue: out += pad + "continue\n"; break;
  case Kind::Return: {
    auto *r = cast<Return>(s);
    out += pad + "return" + (r->value ? " " + expr(r->value) : "") + "\n";
    break;
  }
  case Kind::Raise: {
    auto *r = cast<Raise>(s);
    out += fmt::format("{}raise {}({:?})\n", pad, r->excClass, r->message);
    break;
  }
  case Kind::Eval: out += pad + expr(cast<Eval>(s)->value) + "\n"; break;
  default: out += pad + "?\n"; break;
  }
}

void block(const Block &b, int indent, std::string &out) {
  for (const Stmt *s : b) stmt(s, indent, out);
}

}  // namespace

std::string print(const Function &f) {
  std::string out = "def " + f.name + "(";
  for (size_t i = 0; i < f.params.size(); ++i)
    out += fmt::format("{}{}: {}", i ? ", " : "", f.params[i]->name, f.params[i]->type->str());
  out += ") -> " + (f.returnType ? f.returnType->str() : std::string("?")) + "\n";
  block(f.body, 1, out);
  return out;
}

}  // namespace kjit::ir
