// helpers.h - small helpers shared by the unit tests.
#pragma once

#include <string>
#include <vector>

#include "compiler/Context.h"
#include "frontend/ASTPrinter.h"
#include "frontend/Lexer.h"

namespace kjit::test {

inline std::vector<TokKind> kinds(const std::vector<Token> &toks) {
  std::vector<TokKind> k;
  for (const Token &t : toks) k.push_back(t.kind);
  return k;
}

// Parses `body` as the body of `def f():` and returns the printed expression
// of its single `return` statement.
inline std::string exprOf(const std::string &expr) {
  Context ctx;
  ast::Module m = ctx.parse("t.py", "def f():\n    return " + expr + "\n");
  if (ctx.diags.hasErrors()) return "ERROR: " + ctx.diags.render();
  // (The return is last: a lambda's def is hoisted before it.)
  auto *r = ast::cast<ast::ReturnStmt>(m.functions.at(0)->body.back());
  return ast::printExpr(r->value);
}

// The statements a function body `body` (one line) parses to, printed.
inline std::string stmtsOf(const std::string &body) {
  Context ctx;
  ast::Module m = ctx.parse("t.py", "def f():\n    " + body + "\n");
  if (ctx.diags.hasErrors()) return "ERROR: " + ctx.diags.render();
  std::string out;
  for (const ast::Stmt *s : m.functions.at(0)->body) out += ast::printStmt(s);
  return out;
}

// Parses a module and returns the rendered diagnostics (empty when clean).
inline std::string diagsOf(const std::string &src) {
  Context ctx;
  ctx.parse("t.py", src);
  return ctx.diags.render();
}

}  // namespace kjit::test
