// Parser.cpp - Python source to the AST: the top level (defs, imports, the
// code that kernels never see), statements, and recovery after errors.
// Expressions are in ParserExpressions.cpp.
#include "frontend/Parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

#include "frontend/ParserImpl.h"

namespace kjit::ast::parser {

// ---------------------------------------------------------------------------
// Skipping (recovery, and top-level code the kernels never see)

void Parser::skipToLineEnd() {
  while (!at(TokKind::Newline) && !at(TokKind::EndOfFile)) {
    // A Dedent/Indent cannot occur before the Newline; stop on them anyway.
    if (at(TokKind::Indent) || at(TokKind::Dedent)) return;
    advance();
  }
  accept(TokKind::Newline);
}

void Parser::skipBlockIfAny() {
  if (!at(TokKind::Indent)) return;
  int level = 0;
  do {
    if (at(TokKind::Indent))
      ++level;
    else if (at(TokKind::Dedent))
      --level;
    advance();
  } while (level > 0 && !at(TokKind::EndOfFile));
}

void Parser::skipStatement() {
  skipToLineEnd();
  skipBlockIfAny();
}

// Skips the clauses that belong to a compound statement already skipped
// (else/elif/except/finally lines and their blocks).
void Parser::skipClauses(std::initializer_list<TokKind> clauses) {
  for (;;) {
    bool match = false;
    for (TokKind k : clauses) match |= at(k);
    if (!match) return;
    skipStatement();
  }
}

// cur() is inside brackets: stops at the closing bracket of the innermost
// ones (not consumed), or at the end of the line.
void Parser::skipToClose() {
  int level = 0;
  for (; !at(TokKind::EndOfFile) && !at(TokKind::Newline); advance()) {
    TokKind k = cur().kind;
    if (k == TokKind::LParen || k == TokKind::LBracket || k == TokKind::LBrace) {
      ++level;
    } else if (k == TokKind::RParen || k == TokKind::RBracket || k == TokKind::RBrace) {
      if (level-- == 0) return;
    }
  }
}

// Like skipToClose, and consumes the closing bracket if it is `close`.
void Parser::skipBracketed(TokKind close) {
  skipToClose();
  accept(close);
}

// ---------------------------------------------------------------------------
// Top level

Module Parser::run() {
  if (opts_.lambdas) return runLambdas();
  while (!at(TokKind::EndOfFile) && !diags_.errorLimitExceeded()) {
    size_t before = p_;
    try {
      parseTopLevel();
    } catch (Bail &) {
      skipStatement();
    }
    if (p_ == before) advance();  // always make progress
  }
  return std::move(mod_);
}

Module Parser::runLambdas() {
  for (size_t i = 0; i < toks_.size(); ++i) {
    if (!toks_[i].is(TokKind::KwLambda)) continue;
    p_ = i;
    try {
      auto *lambda = cast<LambdaExpr>(parseLambda());
      auto *fn = make<FunctionDef>(lambda->loc);
      fn->name = "<lambda>";
      fn->nameLoc = lambda->loc;
      fn->params = lambda->params;
      auto *ret = make<ReturnStmt>(lambda->body->loc);
      ret->value = lambda->body;
      fn->body.push_back(ret);
      if (reportTreeTooDeep(fn)) continue;
      mod_.functionNames.push_back(fn->name);
      mod_.body.push_back(fn);
      mod_.functions.push_back(fn);
    } catch (Bail &) {
    }
  }
  return std::move(mod_);
}

void Parser::parseTopLevel() {
  if (accept(TokKind::Newline) || accept(TokKind::Dedent)) return;
  if (at(TokKind::Indent)) {
    skipBlockIfAny();
    return;
  }
  bool asyncDef = at(TokKind::KwAsync) && ahead(1).is(TokKind::KwDef);
  if (at(TokKind::At) || at(TokKind::KwDef) || asyncDef) {
    parseTopLevelDef();
    return;
  }
  if (at(TokKind::KwImport) || at(TokKind::KwFrom)) {
    mod_.body.push_back(parseImport());
    skipToLineEnd();  // `import a; x = 1`: the rest is not kernel code
    return;
  }
  if (at(TokKind::Identifier) && ahead(1).is(TokKind::Assign) && literalLineFollows(p_ + 2)) {
    // `TPB = 16`, `SHAPE = (4, -2.5)`: module constants kernels may use.
    mod_.body.push_back(parseSimpleStatement());
    skipToLineEnd();
    return;
  }
  skipStatement();
}

// True when the tokens from `q` to the end of the line are only literals,
// signs, parentheses and commas.
bool Parser::literalLineFollows(size_t q) const {
  bool any = false;
  for (; q < toks_.size() && !toks_[q].is(TokKind::Newline); ++q) {
    switch (toks_[q].kind) {
    case TokKind::Integer:
    case TokKind::Float:
    case TokKind::Imaginary:
    case TokKind::KwTrue:
    case TokKind::KwFalse:
    case TokKind::KwNone:
    case TokKind::Minus:
    case TokKind::Plus:
    case TokKind::LParen:
    case TokKind::RParen:
    case TokKind::Comma: any = true; break;
    default: return false;
    }
  }
  return any;
}

// A top-level def (or async def, or decorated class), at its first decorator.
// It is parsed only if it is wanted; otherwise only its name is recorded.
void Parser::parseTopLevelDef() {
  // Find the def's name without parsing the decorators.
  size_t q = p_;
  while (toks_[q].kind == TokKind::At) {
    while (toks_[q].kind != TokKind::Newline && toks_[q].kind != TokKind::EndOfFile) ++q;
    if (toks_[q].kind == TokKind::Newline) ++q;
  }
  bool isAsync = toks_[q].kind == TokKind::KwAsync;
  size_t def = isAsync ? q + 1 : q;
  bool isDef = def + 1 < toks_.size() && toks_[def].kind == TokKind::KwDef &&
               toks_[def + 1].kind == TokKind::Identifier;
  if (isDef) mod_.functionNames.emplace_back(toks_[def + 1].text);
  bool wanted = isDef && !opts_.declarationsOnly &&
                (opts_.onlyFunction.empty() || toks_[def + 1].text == opts_.onlyFunction);
  if (wanted && isAsync)
    unsupported(toks_[q].loc, "async functions, loops and 'with' are not supported in kernels");
  if (!wanted || isAsync) {
    while (p_ < q) advance();
    skipStatement();
    return;
  }
  std::vector<Expr *> decorators = parseDecorators();
  if (!at(TokKind::KwDef)) {
    skipStatement();  // a decorated class, or something else we never compile
    return;
  }
  FunctionDef *fn = parseFunctionDef(std::move(decorators));
  if (reportTreeTooDeep(fn)) return;  // not kept: later passes could not walk it
  mod_.body.push_back(fn);
  mod_.functions.push_back(fn);
}

// Later passes walk the tree recursively. The nesting limit bounds how deep
// brackets and operators nest, but not chains of operators ('a + b + c' is
// '(a + b) + c'), of calls and subscripts ('f(a)(b)[0]') and of 'elif'
// clauses, which the parser reads in loops. Reports the first node of `fn`
// that lies too deep, if any.
bool Parser::reportTreeTooDeep(const FunctionDef *fn) {
  // Statements (blocks, 'elif' clauses) and the expressions of each statement
  // are counted apart. Iterative, so that it cannot overflow the stack itself.
  struct Item {
    const Node *node;
    unsigned depth;
  };
  std::vector<Item> work{{fn, 1}};
  while (!work.empty()) {
    Item item = work.back();
    work.pop_back();
    size_t first = work.size();
    forEachChild(item.node, [&](const Node *child) {
      bool newExpr = isa<Stmt>(item.node) && isa<Expr>(child);
      work.push_back({child, newExpr ? 1 : item.depth + 1});
    });
    // Leaves are not counted: the limit is on operators (and statements) that
    // hold others, which is what a user can count in 'a + b + c'.
    if (work.size() > first && item.depth > kMaxTreeDepth) {
      diags_.error(DiagCategory::Syntax, item.node->loc,
                   isa<Stmt>(item.node)
                       ? fmt::format("too many nested blocks and 'elif' clauses (the limit is {})",
                                     kMaxTreeDepth)
                       : fmt::format("too many nested operators in one expression (the limit is "
                                     "{}); split it with temporary variables",
                                     kMaxTreeDepth));
      return true;
    }
    std::reverse(work.begin() + first, work.end());  // visit in source order
  }
  return false;
}

std::vector<Expr *> Parser::parseDecorators() {
  std::vector<Expr *> decorators;
  while (accept(TokKind::At)) {
    decorators.push_back(parseNamedExpr());
    expect(TokKind::Newline, "end of line after the decorator");
  }
  return decorators;
}

ImportStmt *Parser::parseImport() {
  SourceLoc start = cur().loc;
  auto *imp = make<ImportStmt>(start);
  auto dotted = [&]() {
    std::string name(expect(TokKind::Identifier, "a module name").text);
    while (accept(TokKind::Dot))
      name += "." + std::string(expect(TokKind::Identifier, "a name").text);
    return name;
  };
  if (accept(TokKind::KwFrom)) {
    imp->isFrom = true;
    while (at(TokKind::Dot) || at(TokKind::Ellipsis))
      imp->fromModule += std::string(advance().text);
    if (at(TokKind::Identifier)) imp->fromModule += dotted();
    if (imp->fromModule.empty()) failExpected("a module name after 'from'");
    expect(TokKind::KwImport, "'import'");
    if (accept(TokKind::Star)) {
      imp->names.push_back({"*", "", prev().loc});
    } else {
      // At least one name; a trailing comma only inside parentheses.
      bool paren = accept(TokKind::LParen);
      do {
        ImportAlias a;
        a.loc = cur().loc;
        a.name = std::string(expect(TokKind::Identifier, "a name to import").text);
        if (accept(TokKind::KwAs))
          a.asname = std::string(expect(TokKind::Identifier, "a name").text);
        imp->names.push_back(std::move(a));
      } while (accept(TokKind::Comma) && !(paren && at(TokKind::RParen)));
      if (paren) expect(TokKind::RParen, "')'");
    }
  } else {
    expect(TokKind::KwImport, "'import'");
    do {
      ImportAlias a;
      a.loc = cur().loc;
      a.name = dotted();
      if (accept(TokKind::KwAs)) a.asname = std::string(expect(TokKind::Identifier, "a name").text);
      imp->names.push_back(std::move(a));
    } while (accept(TokKind::Comma));
  }
  imp->loc = spanFrom(start);
  return imp;
}

void Parser::parseParams(std::vector<Param> &params, TokKind close, bool allowAnnotations) {
  std::set<std::string> seen;
  bool sawDefault = false;
  bool keywordOnly = false;  // after '*' or '*args', defaults may be left out
  while (!at(close)) {
    if (close == TokKind::RParen && at(TokKind::Star) && ahead(1).is(TokKind::Identifier) &&
        (ahead(2).is(close) || (ahead(2).is(TokKind::Comma) && ahead(3).is(close)))) {
      // *args as the last parameter: the extra positional arguments, a tuple.
      advance();
      Param prm;
      prm.loc = cur().loc;
      prm.name = std::string(advance().text);
      prm.varargs = true;
      if (!seen.insert(prm.name).second)
        fail(prm.loc, fmt::format("duplicate argument '{}' in function definition", prm.name));
      params.push_back(std::move(prm));
    } else if (at(TokKind::Star) || at(TokKind::DoubleStar)) {
      SourceLoc start = cur().loc;
      bool two = at(TokKind::DoubleStar);
      keywordOnly |= !two;
      advance();
      if (at(TokKind::Identifier)) advance();
      unsupported(spanFrom(start),
                  two ? "**kwargs parameters are not supported in kernels; list the parameters"
                  : prev().is(TokKind::Star)
                      ? "keyword-only parameters ('*') are not supported in kernels"
                  : close == TokKind::RParen
                      ? "parameters after *args are not supported in kernels; list the "
                        "parameters"
                      : "*args parameters are not supported in kernels; list the parameters");
    } else if (at(TokKind::Slash)) {
      unsupported(cur().loc, "positional-only parameters ('/') are not supported in kernels");
      advance();
    } else {
      Param prm;
      prm.loc = cur().loc;
      prm.name = std::string(expect(TokKind::Identifier, "a parameter name").text);
      if (!seen.insert(prm.name).second)
        fail(prm.loc, fmt::format("duplicate argument '{}' in function definition", prm.name));
      if (allowAnnotations && accept(TokKind::Colon)) prm.annotation = parseTest();
      if (accept(TokKind::Assign)) {
        prm.defaultValue = parseTest();
        sawDefault = true;
      } else if (sawDefault && !keywordOnly) {
        fail(prm.loc, "parameter without a default follows parameter with a default");
      }
      params.push_back(std::move(prm));
    }
    if (!accept(TokKind::Comma)) break;
  }
}

FunctionDef *Parser::parseFunctionDef(std::vector<Expr *> decorators) {
  SourceLoc defLoc = cur().loc;
  expect(TokKind::KwDef, "'def'");
  auto *fn = make<FunctionDef>(defLoc);  // at `def`, as Python's ast has it
  fn->decorators = std::move(decorators);
  fn->nameLoc = cur().loc;
  fn->name = std::string(expect(TokKind::Identifier, "a function name after 'def'").text);
  expect(TokKind::LParen, "'(' after the function name");
  parseParams(fn->params, TokKind::RParen, true);
  expect(TokKind::RParen, "')' to close the parameter list");
  if (accept(TokKind::Arrow)) fn->returns = parseTest();
  unsigned savedLoops = loopDepth_;
  loopDepth_ = 0;
  ++funcDepth_;
  yields_.push_back(SourceLoc{});
  fn->body = parseBlock("function definition", defLoc);
  SourceLoc yieldLoc = yields_.back();
  yields_.pop_back();
  --funcDepth_;
  loopDepth_ = savedLoops;
  if (!fn->body.empty()) {
    if (auto *es = dyn_cast<ExprStmt>(fn->body.front())) {
      if (auto *s = dyn_cast<StrLit>(es->value); s && !s->isBytes) {
        fn->docstring = s->value;
        fn->hasDocstring = true;
        fn->body.erase(fn->body.begin());
      }
    }
  }
  fn->loc = spanFrom(defLoc);
  if (yieldLoc.valid()) finishGenerator(fn, yieldLoc);
  return fn;
}

namespace {
// Whether `body` leaves the loop it is the body of: a `break` outside
// nested loops, or a `return` or `raise` anywhere (nested functions aside).
bool leavesLoop(const Node *n, bool nestedLoop) {
  if (isa<BreakStmt>(n)) return !nestedLoop;
  if (isa<ReturnStmt>(n) || isa<RaiseStmt>(n)) return true;
  if (isa<FunctionDef>(n) || isa<LambdaExpr>(n)) return false;
  bool loop = isa<WhileStmt>(n) || isa<ForStmt>(n);
  bool found = false;
  forEachChild(n, [&](const Node *c) { found = found || leavesLoop(c, nestedLoop || loop); });
  return found;
}

bool constantTrue(const Expr *e) {
  if (auto *b = dyn_cast<BoolLit>(e)) return b->value;
  if (auto *i = dyn_cast<IntLit>(e)) return i->value != 0;
  return false;
}
}  // namespace

// A generator function runs to its end when it is called, and returns the
// list of the values it yields (kjit has no suspended frames; see
// docs/language_jit.md): `$gen = []` first, each `yield e` is already
// `$gen.append(e)`, each `return` returns `$gen`, and so does the end. A
// loop that can never end (`while True:` with no break, return or raise)
// would never return: a located error.
void Parser::finishGenerator(FunctionDef *fn, SourceLoc yieldLoc) {
  fn->isGenerator = true;
  fn->yieldLoc = yieldLoc;
  auto genName = [&](SourceLoc at) {
    auto *e = make<NameExpr>(at);
    e->name = "$gen";
    return e;
  };
  std::function<void(Node *)> visit = [&](Node *n) {
    if (isa<FunctionDef>(n) || isa<LambdaExpr>(n)) return;
    if (auto *r = dyn_cast<ReturnStmt>(n)) {
      if (r->value)
        unsupported(r->loc,
                    "a generator's return value (StopIteration.value) is not supported; "
                    "yield it, or return without a value");
      r->value = genName(r->loc);
      return;
    }
    if (auto *w = dyn_cast<WhileStmt>(n); w && constantTrue(w->test)) {
      bool leaves = false;
      for (const Stmt *s : w->body) leaves = leaves || leavesLoop(s, false);
      if (!leaves)
        unsupported(w->loc,
                    "this generator never ends: kjit runs a generator to its end when it is "
                    "called and returns the values it yields as a list; give the loop an end");
    }
    forEachChild(n, [&](const Node *c) { visit(const_cast<Node *>(c)); });
  };
  for (Stmt *s : fn->body) visit(s);
  auto *init = make<AssignStmt>(fn->loc);
  init->targets.push_back(genName(fn->loc));
  init->value = make<ListExpr>(fn->loc);
  fn->body.insert(fn->body.begin(), init);
  auto *ret = make<ReturnStmt>(fn->loc);
  ret->value = genName(fn->loc);
  fn->body.push_back(ret);
}

// ---------------------------------------------------------------------------
// Statements

StmtList Parser::parseBlock(const char *what, SourceLoc headLoc) {
  NestingGuard guard(*this, headLoc);
  if (!at(TokKind::Colon)) failExpected("':'");
  advance();
  StmtList body;
  if (!at(TokKind::Newline)) {
    parseSimpleStatements(body);  // if x: return 1
    return body;
  }
  advance();
  if (!at(TokKind::Indent))
    fail(cur().loc,
         fmt::format("expected an indented block after {} on line {}", what, headLoc.line));
  advance();
  while (!at(TokKind::Dedent) && !at(TokKind::EndOfFile) && !diags_.errorLimitExceeded()) {
    size_t before = p_;
    try {
      parseStatementInto(body);
    } catch (Bail &) {
      skipStatement();
    }
    if (p_ == before) advance();
  }
  accept(TokKind::Dedent);
  return body;
}

// A statement, after the statements its list comprehensions hoisted.
void Parser::parseStatementInto(StmtList &out) {
  size_t mark = hoist_.size();
  struct Restore {
    std::vector<Stmt *> &h;
    size_t m;
    ~Restore() {
      if (h.size() > m) h.resize(m);
    }
  } restore{hoist_, mark};
  StmtList one;
  parseOneStatementInto(one);
  std::vector<Stmt *> before = takeHoisted(mark);
  out.insert(out.end(), before.begin(), before.end());
  out.insert(out.end(), one.begin(), one.end());
}

void Parser::parseOneStatementInto(StmtList &out) {
  const Token &t = cur();
  switch (t.kind) {
  case TokKind::Newline: advance(); return;
  case TokKind::Indent:  // at the line's first token, not at its indentation
    fail(SourceLoc::point(t.loc.file, t.loc.endLine, t.loc.endCol), "unexpected indent");
  case TokKind::At:
  case TokKind::KwDef: {
    std::vector<Expr *> decorators = parseDecorators();
    if (at(TokKind::KwClass)) {
      unsupported(cur().loc, "class definitions are not supported in kernels");
      skipStatement();
      return;
    }
    out.push_back(parseFunctionDef(std::move(decorators)));
    return;
  }
  case TokKind::KwIf: out.push_back(parseIf()); return;
  case TokKind::KwWhile: out.push_back(parseWhile()); return;
  case TokKind::KwFor: out.push_back(parseFor()); return;
  case TokKind::KwElif:
  case TokKind::KwElse: fail(t.loc, fmt::format("'{}' without a matching 'if'", t.text));
  case TokKind::KwClass:
    unsupported(t.loc, "class definitions are not supported in kernels");
    skipStatement();
    return;
  case TokKind::KwTry: {
    Stmt *s = parseTry();
    if (s) out.push_back(s);
    return;
  }
  case TokKind::KwExcept:
  case TokKind::KwFinally: fail(t.loc, fmt::format("'{}' without a matching 'try'", t.text));
  case TokKind::KwWith:
    unsupported(t.loc, "'with' statements are not supported in kernels");
    skipStatement();
    return;
  case TokKind::KwAsync:
    unsupported(t.loc, "async functions, loops and 'with' are not supported in kernels");
    skipStatement();
    return;
  default: break;
  }
  // `match` is a soft keyword: a statement `match <expr>:` ending in a colon.
  if (atIdent("match") && !ahead(1).is(TokKind::Assign) && !ahead(1).is(TokKind::Newline) &&
      !ahead(1).is(TokKind::Dot) && !ahead(1).is(TokKind::LParen)) {
    size_t q = p_;
    while (q + 1 < toks_.size() && toks_[q + 1].kind != TokKind::Newline) ++q;
    if (toks_[q].kind == TokKind::Colon) {
      unsupported(t.loc, "'match' statements are not supported in kernels; use if/elif");
      skipStatement();
      return;
    }
  }
  parseSimpleStatements(out);
}

// One line of simple statements (`a = 1; b = [x for x in a]`, also the body
// `if c: return sum(x for x in a)` on its header's line): each after the
// statements its comprehensions hoisted, so that they run where it runs.
void Parser::parseSimpleStatements(StmtList &out) {
  for (;;) {
    size_t mark = hoist_.size();
    Stmt *s = parseSimpleStatement();
    std::vector<Stmt *> before = takeHoisted(mark);
    out.insert(out.end(), before.begin(), before.end());
    out.push_back(s);
    if (!accept(TokKind::Semi)) break;
    if (at(TokKind::Newline) || at(TokKind::EndOfFile)) break;
  }
  if (!at(TokKind::EndOfFile) && !at(TokKind::Dedent)) {
    if (!at(TokKind::Newline)) failExpected("end of line");
    advance();
  }
}

Stmt *Parser::parseSimpleStatement() {
  const Token &t = cur();
  SourceLoc start = t.loc;
  switch (t.kind) {
  case TokKind::KwPass: advance(); return make<PassStmt>(start);
  case TokKind::KwBreak:
  case TokKind::KwContinue: {
    bool isBreak = t.is(TokKind::KwBreak);
    advance();
    if (loopDepth_ == 0)
      fail(start, fmt::format("'{}' outside loop", isBreak ? "break" : "continue"));
    if (isBreak) return make<BreakStmt>(start);
    return make<ContinueStmt>(start);
  }
  case TokKind::KwReturn: {
    advance();
    auto *r = make<ReturnStmt>(start);
    if (!at(TokKind::Newline) && !at(TokKind::Semi) && !at(TokKind::EndOfFile))
      r->value = parseTestList();
    if (funcDepth_ == 0) fail(start, "'return' outside function");
    r->loc = spanFrom(start);
    return r;
  }
  case TokKind::KwRaise: {
    advance();
    auto *r = make<RaiseStmt>(start);
    if (!at(TokKind::Newline) && !at(TokKind::Semi) && !at(TokKind::EndOfFile)) {
      r->exc = parseTest();
      if (at(TokKind::KwFrom)) {
        SourceLoc fromLoc = cur().loc;
        advance();
        parseTest();
        unsupported(spanFrom(fromLoc), "'raise ... from ...' is not supported in kernels");
      }
    }
    r->loc = spanFrom(start);
    return r;
  }
  case TokKind::KwAssert: {
    advance();
    auto *a = make<AssertStmt>(start);
    a->test = parseTest();
    if (accept(TokKind::Comma)) a->msg = parseTest();
    a->loc = spanFrom(start);
    return a;
  }
  case TokKind::KwGlobal:
  case TokKind::KwNonlocal: {
    bool global = t.is(TokKind::KwGlobal);
    advance();
    do expect(TokKind::Identifier, "a name");
    while (accept(TokKind::Comma));
    unsupported(spanFrom(start),
                global ? "'global' declarations are not supported in kernels; globals are "
                         "read-only compile-time constants"
                       : "'nonlocal' declarations are not supported in kernels");
    return make<PassStmt>(start);
  }
  case TokKind::KwDel: {
    // `del a[i]` (a list's element, a dict's key) is `a.__delitem__(i)`,
    // which the typer gives lists and dicts, and `del a[lo:hi:step]` is
    // `a.__delslice__(lo, hi, step)` (None for a missing part), which lists
    // have; `del a[i], b[k]` deletes in order (the statements before the
    // last are hoisted before it).
    advance();
    Expr *targets = parseTargetList();
    std::vector<Expr *> items;
    if (auto *t = dyn_cast<TupleExpr>(targets); t && !t->parenthesized)
      items = t->elts;
    else
      items.push_back(targets);
    Stmt *last = nullptr;
    for (Expr *e : items) {
      auto *sub = dyn_cast<SubscriptExpr>(e);
      if (!sub) {
        unsupported(e->loc,
                    "'del' of a name or an attribute is not supported; only "
                    "'del a[i]' of a list's element or a dict's key, or "
                    "'del a[lo:hi]' of a list's slice");
        return make<PassStmt>(start);
      }
      auto *slice = dyn_cast<SliceExpr>(sub->index);
      auto *attr = make<AttributeExpr>(e->loc);
      attr->value = sub->value;
      attr->attr = slice ? "__delslice__" : "__delitem__";
      attr->attrLoc = e->loc;
      auto *call = make<CallExpr>(e->loc);
      call->func = attr;
      if (slice) {
        for (Expr *part : {slice->lower, slice->upper, slice->step})
          call->args.push_back(part ? part : make<NoneLit>(slice->loc));
      } else {
        call->args.push_back(sub->index);
      }
      auto *es = make<ExprStmt>(spanFrom(start));
      es->value = call;
      if (last) hoist_.push_back(last);
      last = es;
    }
    return last;
  }
  case TokKind::KwImport:
  case TokKind::KwFrom: {
    Stmt *imp = parseImport();
    unsupported(imp->loc,
                "import statements are not supported inside kernels; import at "
                "module level and use the name in the kernel");
    return imp;
  }
  default: return parseExprStatement();
  }
}

// if/elif/else. Each 'elif' is an IfStmt in the orelse of the clause before;
// the clauses are read in a loop, so that a long chain needs no deep recursion.
Stmt *Parser::parseIf() {
  std::vector<IfStmt *> clauses;
  do {
    SourceLoc start = cur().loc;
    bool isElif = at(TokKind::KwElif);
    advance();  // if / elif
    auto *s = make<IfStmt>(start);
    s->isElif = isElif;
    s->test = parseNamedExpr();
    s->body = parseBlock(isElif ? "'elif' statement" : "'if' statement", start);
    if (!clauses.empty()) clauses.back()->orelse.push_back(s);
    clauses.push_back(s);
  } while (at(TokKind::KwElif));
  if (at(TokKind::KwElse)) {
    SourceLoc elseLoc = cur().loc;
    advance();
    clauses.back()->orelse = parseBlock("'else' statement", elseLoc);
  }
  for (IfStmt *s : clauses) s->loc = spanFrom(s->loc);  // each runs to the end
  return clauses.front();
}

Stmt *Parser::parseWhile() {
  SourceLoc start = cur().loc;
  advance();
  auto *s = make<WhileStmt>(start);
  size_t mark = hoist_.size();
  s->test = parseNamedExpr();
  if (hoist_.size() > mark) {
    // (Hoisted, it would be evaluated once, not before each iteration.)
    takeHoisted(mark);
    unsupported(s->test->loc,
                "a list comprehension in a 'while' condition is not supported; assign it to "
                "a variable before the loop and at the end of its body");
  }
  ++loopDepth_;
  s->body = parseBlock("'while' statement", start);
  --loopDepth_;
  if (at(TokKind::KwElse)) {
    SourceLoc elseLoc = cur().loc;
    advance();
    s->orelse = parseBlock("'else' statement", elseLoc);
  }
  s->loc = spanFrom(start);
  return s;
}

// try / except [E | (E1, E2)] / else. `finally`, `except E as e` and
// `except*` are reported (Numba has no finally, nor the exception object).
Stmt *Parser::parseTry() {
  SourceLoc start = cur().loc;
  advance();  // try
  auto *s = make<TryStmt>(start);
  s->body = parseBlock("'try' statement", start);
  bool ok = true;
  while (at(TokKind::KwExcept)) {
    SourceLoc hl = cur().loc;
    advance();
    ExceptHandler h;
    h.loc = hl;
    if (at(TokKind::Star)) {
      unsupported(cur().loc, "'except*' is not supported in kernels");
      ok = false;
      advance();
    }
    if (!at(TokKind::Colon)) h.type = parseTest();
    if (at(TokKind::KwAs)) {
      SourceLoc asLoc = cur().loc;
      advance();
      expect(TokKind::Identifier, "a name after 'as'");
      unsupported(spanFrom(asLoc),
                  "'except ... as name' is not supported: the exception object cannot be bound "
                  "(as in Numba); catch the class alone");
      ok = false;
    }
    h.body = parseBlock("'except' clause", hl);
    s->handlers.push_back(std::move(h));
  }
  if (s->handlers.empty() && !at(TokKind::KwFinally))
    fail(cur().loc, "expected 'except' or 'finally' block");
  if (at(TokKind::KwElse)) {
    SourceLoc elseLoc = cur().loc;
    advance();
    s->orelse = parseBlock("'else' statement", elseLoc);
  }
  if (at(TokKind::KwFinally)) {
    unsupported(cur().loc, "'finally' is not supported in kernels (as in Numba)");
    skipClauses({TokKind::KwFinally});
    ok = false;
  }
  s->loc = spanFrom(start);
  return ok ? s : nullptr;
}

Stmt *Parser::parseFor() {
  SourceLoc start = cur().loc;
  advance();
  auto *s = make<ForStmt>(start);
  s->target = parseTargetList();
  checkTarget(s->target, "'for' loop");
  expect(TokKind::KwIn, "'in' in the 'for' statement");
  s->iter = parseTestList();
  ++loopDepth_;
  s->body = parseBlock("'for' statement", start);
  --loopDepth_;
  if (at(TokKind::KwElse)) {
    SourceLoc elseLoc = cur().loc;
    advance();
    s->orelse = parseBlock("'else' statement", elseLoc);
  }
  s->loc = spanFrom(start);
  return s;
}

static const char *describeNonTarget(const Expr *e) {
  switch (e->kind()) {
  case NodeKind::CallExpr: return "function call";
  case NodeKind::IntLit:
  case NodeKind::FloatLit:
  case NodeKind::ImagLit:
  case NodeKind::StrLit:
  case NodeKind::BoolLit:
  case NodeKind::NoneLit:
  case NodeKind::EllipsisLit: return "literal";
  case NodeKind::CompareExpr: return "comparison";
  case NodeKind::LambdaExpr: return "lambda";
  case NodeKind::IfExpr: return "conditional expression";
  case NodeKind::ErrorExpr: return nullptr;
  default: return "expression";
  }
}

void Parser::checkTarget(Expr *e, const char *context) {
  if (isa<NameExpr>(e) || isa<SubscriptExpr>(e) || isa<AttributeExpr>(e)) return;
  if (auto *t = dyn_cast<TupleExpr>(e)) {
    for (Expr *x : t->elts) checkTarget(x, context);
    return;
  }
  if (auto *l = dyn_cast<ListExpr>(e)) {
    for (Expr *x : l->elts) checkTarget(x, context);
    return;
  }
  const char *what = describeNonTarget(e);
  if (!what) return;  // already reported
  fail(e->loc, fmt::format("cannot assign to {} in {}", what, context));
}

static bool augOp(TokKind k, BinaryOp &op) {
  switch (k) {
  case TokKind::PlusAssign: op = BinaryOp::Add; return true;
  case TokKind::MinusAssign: op = BinaryOp::Sub; return true;
  case TokKind::StarAssign: op = BinaryOp::Mul; return true;
  case TokKind::SlashAssign: op = BinaryOp::Div; return true;
  case TokKind::DoubleSlashAssign: op = BinaryOp::FloorDiv; return true;
  case TokKind::PercentAssign: op = BinaryOp::Mod; return true;
  case TokKind::DoubleStarAssign: op = BinaryOp::Pow; return true;
  case TokKind::AtAssign: op = BinaryOp::MatMul; return true;
  case TokKind::AmpAssign: op = BinaryOp::BitAnd; return true;
  case TokKind::PipeAssign: op = BinaryOp::BitOr; return true;
  case TokKind::CaretAssign: op = BinaryOp::BitXor; return true;
  case TokKind::LShiftAssign: op = BinaryOp::LShift; return true;
  case TokKind::RShiftAssign: op = BinaryOp::RShift; return true;
  default: return false;
  }
}

Stmt *Parser::parseExprStatement() {
  SourceLoc start = cur().loc;
  if (at(TokKind::KwYield)) {  // reported with its operand, unlike parseYield
    advance();
    bool from = accept(TokKind::KwFrom);
    Expr *value = nullptr;
    if (from || startsExpression(cur().kind)) value = parseTestList();
    if (from || yields_.empty()) {
      unsupported(spanFrom(start), from ? "'yield from' is not supported"
                                        : "generators ('yield') are not supported in kernels");
      return make<PassStmt>(start);
    }
    // `yield e` as a statement: `$gen.append(e)` (see finishGenerator).
    SourceLoc loc = spanFrom(start);
    if (!yields_.back().valid()) yields_.back() = loc;
    if (!value) value = make<NoneLit>(loc);
    auto *gen = make<NameExpr>(loc);
    gen->name = "$gen";
    auto *attr = make<AttributeExpr>(loc);
    attr->value = gen;
    attr->attr = "append";
    attr->attrLoc = loc;
    auto *call = make<CallExpr>(loc);
    call->func = attr;
    call->args.push_back(value);
    auto *es = make<ExprStmt>(loc);
    es->value = call;
    return es;
  }
  Expr *first = parseTestList();
  BinaryOp op;
  if (augOp(cur().kind, op)) {
    advance();
    if (!isa<NameExpr>(first) && !isa<SubscriptExpr>(first) && !isa<AttributeExpr>(first))
      fail(first->loc, "illegal expression for augmented assignment");
    auto *s = make<AugAssignStmt>(start);
    s->target = first;
    s->op = op;
    s->value = parseTestList();
    s->loc = spanFrom(start);
    return s;
  }
  if (at(TokKind::Colon)) {  // annotated assignment
    advance();
    if (!isa<NameExpr>(first) && !isa<SubscriptExpr>(first) && !isa<AttributeExpr>(first))
      fail(first->loc, "only single target (not tuple) can be annotated");
    auto *s = make<AnnAssignStmt>(start);
    s->target = first;
    s->annotation = parseTest();
    if (accept(TokKind::Assign)) s->value = parseTestList();
    s->loc = spanFrom(start);
    return s;
  }
  if (at(TokKind::Assign)) {
    auto *s = make<AssignStmt>(start);
    Expr *value = first;
    while (accept(TokKind::Assign)) {
      checkTarget(value, "assignment");
      s->targets.push_back(value);
      value = parseTestList();
    }
    s->value = value;
    s->loc = spanFrom(start);
    // `name = lambda ...`: the lambda's hoisted def takes the name (a
    // function is not a run-time value a variable can hold).
    if (auto *n = dyn_cast<NameExpr>(value); n && s->targets.size() == 1 && !hoist_.empty())
      if (auto *t = dyn_cast<NameExpr>(s->targets[0]))
        if (auto *fn = dyn_cast<FunctionDef>(hoist_.back());
            fn && fn->name == n->name && n->name.rfind("$lambda", 0) == 0) {
          fn->name = t->name;
          fn->nameLoc = t->loc;
          hoist_.pop_back();
          return fn;  // in the assignment's place
        }
    return s;
  }
  auto *s = make<ExprStmt>(start);
  s->value = first;
  s->loc = spanFrom(start);
  return s;
}

}  // namespace kjit::ast::parser

namespace kjit {

ast::Module parseModule(ast::ASTContext &ctx, const SourceManager &sm, uint32_t fileId,
                        DiagnosticEngine &diags, const ParseOptions &opts) {
  return ast::parser::Parser(ctx, sm, fileId, diags, opts).run();
}

}  // namespace kjit
