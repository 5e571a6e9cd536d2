// Parser.h - recursive-descent parser for the kernel subset of Python.
//
// parseModule reads a whole module file or a function's text (as the
// decorators pass it). At top level it parses `def`s (with their decorators)
// and imports; every other top-level statement (classes, `if __name__ ...`,
// scripts) is plain Python the kernels never see, and is skipped unread. The
// bodies of functions are parsed strictly: constructs outside the subset are
// parsed far enough to be reported with a location, and parsing goes on with
// the next statement, so one run reports several problems. Nesting is limited
// (200 levels of brackets, blocks and operators, as CPython allows 200
// brackets), and so is the depth of a function's tree (1000 levels, chains of
// operators, calls, subscripts and 'elif' clauses included): a function too
// deep is reported and left out, so that no recursive pass overflows the stack.
#pragma once

#include <string>

#include "frontend/AST.h"
#include "frontend/Lexer.h"
#include "frontend/support/Diagnostics.h"

namespace kjit {

struct ParseOptions {
  // When set, only the top-level function of that name is parsed; the other
  // functions are skipped (their errors are not this compile's business).
  std::string onlyFunction;
  // Parse no function bodies at all: only imports and the names of the defs.
  bool declarationsOnly = false;
  // The text is the source line(s) of a lambda (what inspect gives for
  // `f = njit(lambda x: x + 1)`): every lambda expression in it becomes a
  // function named "<lambda>" whose body returns the lambda's expression.
  bool lambdas = false;
  // The text was written by the bytecode frontend: after parsing, every
  // location moves through this map into the user's file (SourceMap.h;
  // applied by Context::parse, which registers the user's file).
  const struct SourceMap *sourceMap = nullptr;
};

ast::Module parseModule(ast::ASTContext &ctx, const SourceManager &sm, uint32_t fileId,
                        DiagnosticEngine &diags, const ParseOptions &opts = {});

}  // namespace kjit
