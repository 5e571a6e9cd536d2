// ASTPrinter.h - the textual form of the AST (kjitc --emit=ast, lit goldens).
//
// Statements print one per line, indented by nesting, with their location:
//   def f(x, y=2) <3:1>
//     return <4:5> (+ x (* y 2))
// Expressions print as fully parenthesised S-expressions, so that precedence
// and associativity are visible: (** 2 (** 3 2)), (u- (** x 2)),
// (cmp a < b <= c), (call f a (kw k 1)), (. a b), (index a (slice 1 _ _)).
// With withExprLocs, every expression also shows @line:col.
#pragma once

#include <string>

#include "frontend/AST.h"

namespace kjit::ast {

struct PrintOptions {
  bool withExprLocs = false;
};

std::string printModule(const Module &m, const PrintOptions &opts = {});
std::string printStmt(const Stmt *s, const PrintOptions &opts = {}, int indent = 0);
std::string printExpr(const Expr *e, const PrintOptions &opts = {});

}  // namespace kjit::ast
