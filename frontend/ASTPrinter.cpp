#include "frontend/ASTPrinter.h"

#include <fmt/format.h>

#include <cmath>
#include <initializer_list>
#include <iterator>

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

// A str literal's UTF-8 is printed as is; a bytes literal's bytes >= 0x80 as
// \xNN, as Python's repr() does, which keeps the output valid UTF-8.
void appendQuoted(std::string &out, const std::string &s, bool bytes) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (c < 0x20 || c == 0x7f || (bytes && c >= 0x80))
        fmt::format_to(std::back_inserter(out), "\\x{:02x}", unsigned(c));
      else
        out += char(c);
    }
  }
  out += '"';
}

std::string quote(const std::string &s) {
  std::string out;
  appendQuoted(out, s, false);
  return out;
}

void appendNumber(std::string &out, double v) {
  if (std::isinf(v))
    out += v > 0 ? "inf" : "-inf";
  else if (std::isnan(v))
    out += "nan";
  else
    fmt::format_to(std::back_inserter(out), "{}", v);  // shortest round-trip form
}

// Appends to one string as it goes: the recursion (as deep as the tree, up to
// the parser's limits) keeps small frames, without a string per level.
class ExprPrinter {
 public:
  explicit ExprPrinter(const PrintOptions &o) : opts(o) {}
  const PrintOptions &opts;

  std::string operator()(const Expr *e) {
    std::string out;
    print(e, out);
    return out;
  }

  std::string params(const std::vector<Param> &ps) {
    std::string out;
    printParams(ps, out);
    return out;
  }

 private:
  void print(const Expr *e, std::string &out) {
    if (!e) {
      out += '_';
      return;
    }
    body(e, out);
    if (opts.withExprLocs)
      fmt::format_to(std::back_inserter(out), "@{}:{}", e->loc.line, e->loc.col);
  }

  // " e1 e2 ..."
  void list(const std::vector<Expr *> &es, std::string &out) {
    for (const Expr *e : es) {
      out += ' ';
      print(e, out);
    }
  }

  // "(head a b ...)" for the children that are given
  void form(const char *head, std::initializer_list<const Expr *> children, std::string &out) {
    out += '(';
    out += head;
    for (const Expr *c : children) {
      out += ' ';
      print(c, out);
    }
    out += ')';
  }

  void printParams(const std::vector<Param> &ps, std::string &out) {
    for (size_t i = 0; i < ps.size(); ++i) {
      if (i) out += ", ";
      if (ps[i].varargs) out += '*';
      out += ps[i].name;
      if (ps[i].annotation) {
        out += ": ";
        print(ps[i].annotation, out);
      }
      if (ps[i].defaultValue) {
        out += '=';
        print(ps[i].defaultValue, out);
      }
    }
  }

  void body(const Expr *e, std::string &out) {
    switch (e->kind()) {
    case NodeKind::NameExpr: out += cast<NameExpr>(e)->name; return;
    case NodeKind::IntLit: {
      auto *i = cast<IntLit>(e);
      if (i->tooLarge) {
        out += "(int-too-large ";
        out += i->text;
        out += ')';
      } else {
        fmt::format_to(std::back_inserter(out), "{}", i->value);
      }
      return;
    }
    case NodeKind::FloatLit:
      out += "(float ";
      appendNumber(out, cast<FloatLit>(e)->value);
      out += ')';
      return;
    case NodeKind::ImagLit:
      out += "(imag ";
      appendNumber(out, cast<ImagLit>(e)->value);
      out += ')';
      return;
    case NodeKind::StrLit: {
      auto *s = cast<StrLit>(e);
      if (s->isBytes) out += 'b';
      appendQuoted(out, s->value, s->isBytes);
      return;
    }
    case NodeKind::BoolLit: out += cast<BoolLit>(e)->value ? "True" : "False"; return;
    case NodeKind::NoneLit: out += "None"; return;
    case NodeKind::EllipsisLit: out += "..."; return;
    case NodeKind::UnaryExpr: {
      auto *u = cast<UnaryExpr>(e);
      return form(spelling(u->op), {u->operand}, out);
    }
    case NodeKind::BinaryExpr: {
      auto *b = cast<BinaryExpr>(e);
      return form(spelling(b->op), {b->lhs, b->rhs}, out);
    }
    case NodeKind::BoolOpExpr: {
      auto *b = cast<BoolOpExpr>(e);
      out += '(';
      out += spelling(b->op);
      list(b->values, out);
      out += ')';
      return;
    }
    case NodeKind::CompareExpr: {
      auto *c = cast<CompareExpr>(e);
      if (c->ops.size() == 1) return form(spelling(c->ops[0]), {c->lhs, c->comparators[0]}, out);
      out += "(cmp ";
      print(c->lhs, out);
      for (size_t i = 0; i < c->ops.size(); ++i) {
        out += ' ';
        out += spelling(c->ops[i]);
        out += ' ';
        print(c->comparators[i], out);
      }
      out += ')';
      return;
    }
    case NodeKind::IfExpr: {
      auto *c = cast<IfExpr>(e);
      return form("if", {c->test, c->body, c->orelse}, out);
    }
    case NodeKind::CallExpr: {
      auto *c = cast<CallExpr>(e);
      out += "(call ";
      print(c->func, out);
      for (size_t i = 0; i < c->args.size(); ++i) {
        out += c->isStarred(i) ? " *" : " ";
        print(c->args[i], out);
      }
      for (const Keyword &k : c->keywords) {
        out += " (kw ";
        out += k.name;
        out += ' ';
        print(k.value, out);
        out += ')';
      }
      out += ')';
      return;
    }
    case NodeKind::AttributeExpr: {
      auto *a = cast<AttributeExpr>(e);
      out += "(. ";
      print(a->value, out);
      out += ' ';
      out += a->attr;
      out += ')';
      return;
    }
    case NodeKind::SubscriptExpr: {
      auto *s = cast<SubscriptExpr>(e);
      return form("index", {s->value, s->index}, out);
    }
    case NodeKind::SliceExpr: {
      auto *s = cast<SliceExpr>(e);
      return form("slice", {s->lower, s->upper, s->step}, out);
    }
    case NodeKind::TupleExpr:
      out += "(tuple";
      list(cast<TupleExpr>(e)->elts, out);
      out += ')';
      return;
    case NodeKind::ListExpr:
      out += "(list";
      list(cast<ListExpr>(e)->elts, out);
      out += ')';
      return;
    case NodeKind::DictExpr: {
      auto *d = cast<DictExpr>(e);
      out += d->isSet ? "(set" : "(dict";
      for (size_t i = 0; i < d->keys.size(); ++i) {
        out += ' ';
        print(d->keys[i], out);
        if (d->isSet) continue;
        out += ':';
        print(d->values[i], out);
      }
      out += ')';
      return;
    }
    case NodeKind::LambdaExpr: {
      auto *l = cast<LambdaExpr>(e);
      out += "(lambda (";
      printParams(l->params, out);
      out += ") ";
      print(l->body, out);
      out += ')';
      return;
    }
    case NodeKind::ErrorExpr: out += "(error)"; return;
    default: out += "(?)"; return;
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

  // if/elif/else. The 'elif' clauses (each an IfStmt in the orelse of the one
  // before) are printed in a loop: a long chain needs no deep recursion.
  void ifStmt(const IfStmt *i, int indent) {
    for (;;) {
      line(indent, std::string(i->isElif ? "elif " : "if ") + at(i) + " " + ex(i->test));
      block(i->body, indent + 1);
      bool elif =
          i->orelse.size() == 1 && isa<IfStmt>(i->orelse[0]) && cast<IfStmt>(i->orelse[0])->isElif;
      if (!elif) break;
      i = cast<IfStmt>(i->orelse[0]);
    }
    if (!i->orelse.empty()) {
      line(indent, "else");
      block(i->orelse, indent + 1);
    }
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
    case NodeKind::IfStmt: ifStmt(cast<IfStmt>(s), indent); break;
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
    case NodeKind::TryStmt: {
      auto *t = cast<TryStmt>(s);
      line(indent, "try " + at(s));
      block(t->body, indent + 1);
      for (const ExceptHandler &h : t->handlers) {
        line(indent, "except" + (h.type ? " " + ex(h.type) : std::string()));
        block(h.body, indent + 1);
      }
      if (!t->orelse.empty()) {
        line(indent, "else");
        block(t->orelse, indent + 1);
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
    case NodeKind::ExprStmt:
      line(indent, "expr " + at(s) + " " + ex(cast<ExprStmt>(s)->value));
      break;
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
