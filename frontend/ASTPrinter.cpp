#include "frontend/ASTPrinter.h"

#include <cmath>

#include <fmt/format.h>

namespace kjit::ast {

const char *nodeKindName(NodeKind k) {
  switch (k) {
#define EXPR(N) \
  case NodeKind::N: return #N;
#define STMT(N) EXPR(N)
#include "frontend/ASTNodes.def"
  }
  return "?";
}

const char *spelling(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg: return "u-";
  case UnaryOp::Pos: return "u+";
  case UnaryOp::Invert: return "~";
  case UnaryOp::Not: return "not";
  }
  return "?";
}

const char *spelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "+";
  case BinaryOp::Sub: return "-";
  case BinaryOp::Mul: return "*";
  case BinaryOp::Div: return "/";
  case BinaryOp::FloorDiv: return "//";
  case BinaryOp::Mod: return "%";
  case BinaryOp::Pow: return "**";
  case BinaryOp::MatMul: return "@";
  case BinaryOp::LShift: return "<<";
  case BinaryOp::RShift: return ">>";
  case BinaryOp::BitAnd: return "&";
  case BinaryOp::BitOr: return "|";
  case BinaryOp::BitXor: return "^";
  }
  return "?";
}

const char *spelling(BoolOp op) { return op == BoolOp::And ? "and" : "or"; }

const char *spelling(CmpOp op) {
  switch (op) {
  case CmpOp::Lt: return "<";
  case CmpOp::Gt: return ">";
  case CmpOp::Le: return "<=";
  case CmpOp::Ge: return ">=";
  case CmpOp::Eq: return "==";
  case CmpOp::Ne: return "!=";
  case CmpOp::Is: return "is";
  case CmpOp::IsNot: return "is not";
  case CmpOp::In: return "in";
  case CmpOp::NotIn: return "not in";
  }
  return "?";
}

namespace {

std::string quote(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", unsigned(c));
      else out += char(c);
    }
  }
  return out + "\"";
}

std::string number(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (std::isnan(v)) return "nan";
  return fmt::format("{}", v);  // shortest round-trip form
}

class ExprPrinter {
public:
  explicit ExprPrinter(const PrintOptions &o) : opts(o) {}
  const PrintOptions &opts;

  std::string operator()(const Expr *e) {
    if (!e) return "_";
    std::string s = body(e);
    if (opts.withExprLocs) s += fmt::format("@{}:{}", e->loc.line, e->loc.col);
    return s;
  }

  std::string list(const std::vector<Expr *> &es) {
    std::string s;
    for (const Expr *e : es) s += " " + (*this)(e);
    return s;
  }

  std::string params(const std::vector<Param> &ps) {
    std::string s;
    for (size_t i = 0; i < ps.size(); ++i) {
      if (i) s += ", ";
      s += ps[i].name;
      if (ps[i].annotation) s += ": " + (*this)(ps[i].annotation);
      if (ps[i].defaultValue) s += "=" + (*this)(ps[i].defaultValue);
    }
    return s;
  }

  std::string body(const Expr *e) {
    switch (e->kind()) {
    case NodeKind::NameExpr: return cast<NameExpr>(e)->name;
    case NodeKind::IntLit: {
      auto *i = cast<IntLit>(e);
      return i->tooLarge ? "(int-too-large " + i->text + ")" : fmt::format("{}", i->value);
    }
    case NodeKind::FloatLit: return "(float " + number(cast<FloatLit>(e)->value) + ")";
    case NodeKind::ImagLit: return "(imag " + number(cast<ImagLit>(e)->value) + ")";
    case NodeKind::StrLit: {
      auto *s = cast<StrLit>(e);
      return (s->isBytes ? "b" : "") + quote(s->value);
    }
    case NodeKind::BoolLit: return cast<BoolLit>(e)->value ? "True" : "False";
    case NodeKind::NoneLit: return "None";
    case NodeKind::EllipsisLit: return "...";
    case NodeKind::UnaryExpr: {
      auto *u = cast<UnaryExpr>(e);
      return fmt::format("({} {})", spelling(u->op), (*this)(u->operand));
    }
    case NodeKind::BinaryExpr: {
      auto *b = cast<BinaryExpr>(e);
      return fmt::format("({} {} {})", spelling(b->op), (*this)(b->lhs), (*this)(b->rhs));
    }
    case NodeKind::BoolOpExpr: {
      auto *b = cast<BoolOpExpr>(e);
      return fmt::format("({}{})", spelling(b->op), list(b->values));
    }
    case NodeKind::CompareExpr: {
      auto *c = cast<CompareExpr>(e);
      if (c->ops.size() == 1)
        return fmt::format("({} {} {})", spelling(c->ops[0]), (*this)(c->lhs),
                           (*this)(c->comparators[0]));
      std::string s = "(cmp " + (*this)(c->lhs);
      for (size_t i = 0; i < c->ops.size(); ++i)
        s += fmt::format(" {} {}", spelling(c->ops[i]), (*this)(c->comparators[i]));
      return s + ")";
    }
    case NodeKind::IfExpr: {
      auto *c = cast<IfExpr>(e);
      return fmt::format("(if {} {} {})", (*this)(c->test), (*this)(c->body), (*this)(c->orelse));
    }
    case NodeKind::CallExpr: {
      auto *c = cast<CallExpr>(e);
      std::string s = "(call " + (*this)(c->func) + list(c->args);
      for (const Keyword &k : c->keywords) s += fmt::format(" (kw {} {})", k.name, (*this)(k.value));
      return s + ")";
    }
    case NodeKind::AttributeExpr: {
      auto *a = cast<AttributeExpr>(e);
      return fmt::format("(. {} {})", (*this)(a->value), a->attr);
    }
    case NodeKind::SubscriptExpr: {
      auto *s = cast<SubscriptExpr>(e);
      return fmt::format("(index {} {})", (*this)(s->value), (*this)(s->index));
    }
    case NodeKind::SliceExpr: {
      auto *s = cast<SliceExpr>(e);
      return fmt::format("(slice {} {} {})", (*this)(s->lower), (*this)(s->upper), (*this)(s->step));
    }
    case NodeKind::TupleExpr: return "(tuple" + list(cast<TupleExpr>(e)->elts) + ")";
    case NodeKind::ListExpr: return "(list" + list(cast<ListExpr>(e)->elts) + ")";
    case NodeKind::LambdaExpr: {
      auto *l = cast<LambdaExpr>(e);
      return fmt::format("(lambda ({}) {})", params(l->params), (*this)(l->body));
    }
    case NodeKind::ErrorExpr: return "(error)";
    default: return "(?)";
    }
  }
};

class StmtPrinter {
public:
  explicit StmtPrinter(const PrintOptions &o) : ex(o) {}
  ExprPrinter ex;
  std::string out;

  void line(int indent, const std::string &text) {
    out += std::string(size_t(indent) * 2, ' ');
    out += text;
    out += '\n';
  }
  static std::string at(const Node *n) { return fmt::format("<{}:{}>", n->loc.line, n->loc.col); }

  void block(const StmtList &body, int indent) {
    for (const Stmt *s : body) stmt(s, indent);
  }

  void stmt(const Stmt *s, int indent) {
    switch (s->kind()) {
    case NodeKind::FunctionDef: {
      auto *f = cast<FunctionDef>(s);
      std::string head = fmt::format("def {}({})", f->name, ex.params(f->params));
      if (f->returns) head += " -> " + ex(f->returns);
      line(indent, head + " " + at(f));
      for (const Expr *d : f->decorators) line(indent + 1, "decorator " + ex(d));
      if (f->hasDocstring) line(indent + 1, "docstring " + quote(f->docstring));
      block(f->body, indent + 1);
      break;
    }
    case NodeKind::ReturnStmt: {
      auto *r = cast<ReturnStmt>(s);
      line(indent, "return " + at(s) + (r->value ? " " + ex(r->value) : ""));
      break;
    }
    case NodeKind::PassStmt: line(indent, "pass " + at(s)); break;
    case NodeKind::BreakStmt: line(indent, "break " + at(s)); break;
    case NodeKind::ContinueStmt: line(indent, "continue " + at(s)); break;
    case NodeKind::IfStmt: {
      auto *i = cast<IfStmt>(s);
      line(indent, std::string(i->isElif ? "elif " : "if ") + at(s) + " " + ex(i->test));
      block(i->body, indent + 1);
      if (i->orelse.size() == 1 && isa<IfStmt>(i->orelse[0]) && cast<IfStmt>(i->orelse[0])->isElif) {
        stmt(i->orelse[0], indent);
      } else if (!i->orelse.empty()) {
        line(indent, "else");
        block(i->orelse, indent + 1);
      }
      break;
    }
    case NodeKind::WhileStmt: {
      auto *w = cast<WhileStmt>(s);
      line(indent, "while " + at(s) + " " + ex(w->test));
      block(w->body, indent + 1);
      if (!w->orelse.empty()) {
        line(indent, "else");
        block(w->orelse, indent + 1);
      }
      break;
    }
    case NodeKind::ForStmt: {
      auto *f = cast<ForStmt>(s);
      line(indent, "for " + at(s) + " " + ex(f->target) + " in " + ex(f->iter));
      block(f->body, indent + 1);
      if (!f->orelse.empty()) {
        line(indent, "else");
        block(f->orelse, indent + 1);
      }
      break;
    }
    case NodeKind::AssignStmt: {
      auto *a = cast<AssignStmt>(s);
      std::string text = "assign " + at(s);
      for (const Expr *t : a->targets) text += " " + ex(t) + " =";
      line(indent, text + " " + ex(a->value));
      break;
    }
    case NodeKind::AugAssignStmt: {
      auto *a = cast<AugAssignStmt>(s);
      line(indent, fmt::format("augassign {} {} {}= {}", at(s), ex(a->target), spelling(a->op),
                               ex(a->value)));
      break;
    }
    case NodeKind::AnnAssignStmt: {
      auto *a = cast<AnnAssignStmt>(s);
      line(indent, fmt::format("annassign {} {}: {}{}", at(s), ex(a->target), ex(a->annotation),
                               a->value ? " = " + ex(a->value) : std::string()));
      break;
    }
    case NodeKind::AssertStmt: {
      auto *a = cast<AssertStmt>(s);
      line(indent, "assert " + at(s) + " " + ex(a->test) + (a->msg ? ", " + ex(a->msg) : ""));
      break;
    }
    case NodeKind::RaiseStmt: {
      auto *r = cast<RaiseStmt>(s);
      line(indent, "raise " + at(s) + (r->exc ? " " + ex(r->exc) : ""));
      break;
    }
    case NodeKind::ExprStmt: line(indent, "expr " + at(s) + " " + ex(cast<ExprStmt>(s)->value)); break;
    case NodeKind::ImportStmt: {
      auto *i = cast<ImportStmt>(s);
      std::string text = i->isFrom ? "from " + i->fromModule + " import" : "import";
      for (size_t k = 0; k < i->names.size(); ++k) {
        text += (k ? ", " : " ") + i->names[k].name;
        if (!i->names[k].asname.empty()) text += " as " + i->names[k].asname;
      }
      line(indent, text + " " + at(s));
      break;
    }
    default: line(indent, "(?)"); break;
    }
  }
};

}  // namespace

std::string printExpr(const Expr *e, const PrintOptions &opts) { return ExprPrinter(opts)(e); }

std::string printStmt(const Stmt *s, const PrintOptions &opts, int indent) {
  StmtPrinter p(opts);
  p.stmt(s, indent);
  return p.out;
}

std::string printModule(const Module &m, const PrintOptions &opts) {
  StmtPrinter p(opts);
  p.block(m.body, 0);
  return p.out;
}

}  // namespace kjit::ast
