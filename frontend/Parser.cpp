#include "frontend/Parser.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

namespace kjit {

using namespace ast;

namespace {

// Thrown after a syntax error has been reported, to unwind to the statement
// loop, which skips to the next statement.
struct Bail {};

// Nested brackets, blocks and prefix, '**' and conditional operators, each
// counting one: bounds the parser's recursion. CPython allows 200 nested
// brackets.
constexpr unsigned kMaxNesting = 200;
// The depth of a function's tree of statements and of each statement's tree
// of expressions, chains included (see reportTreeTooDeep). CPython's compiler
// gives up near 3000.
constexpr unsigned kMaxTreeDepth = 1000;

// 'lambda' where no lambda can be: a common name in physics code (a decay
// constant, a wavelength).
constexpr const char *kLambdaAsName = "'lambda' is a keyword and cannot be used as a name";

// Whether a token of kind `k` can start an expression (or a starred one).
bool startsExpression(TokKind k) {
  switch (k) {
  case TokKind::Identifier: case TokKind::Integer: case TokKind::Float:
  case TokKind::Imaginary: case TokKind::String: case TokKind::KwTrue:
  case TokKind::KwFalse: case TokKind::KwNone: case TokKind::Ellipsis:
  case TokKind::LParen: case TokKind::LBracket: case TokKind::LBrace:
  case TokKind::Minus: case TokKind::Plus: case TokKind::Tilde:
  case TokKind::KwNot: case TokKind::KwLambda: case TokKind::KwAwait:
  case TokKind::Star:
    return true;
  default: return false;
  }
}

class Parser {
public:
  Parser(ASTContext &ctx, const SourceManager &sm, uint32_t fileId, DiagnosticEngine &diags,
         const ParseOptions &opts)
      : ctx_(ctx), sm_(sm), diags_(diags), opts_(opts), toks_(lex(sm, fileId, diags)) {
    mod_.fileId = fileId;
  }

  Module run();

private:
  Module runLambdas();
  bool literalLineFollows(size_t q) const;
  ASTContext &ctx_;
  const SourceManager &sm_;
  DiagnosticEngine &diags_;
  const ParseOptions &opts_;
  std::vector<Token> toks_;
  size_t p_ = 0;
  Module mod_;
  unsigned nesting_ = 0;
  unsigned loopDepth_ = 0;
  unsigned funcDepth_ = 0;

  // ---- tokens ----
  const Token &cur() const { return toks_[p_]; }
  const Token &ahead(size_t n) const { return toks_[std::min(p_ + n, toks_.size() - 1)]; }
  const Token &prev() const { return toks_[p_ == 0 ? 0 : p_ - 1]; }
  bool at(TokKind k) const { return cur().kind == k; }
  bool atIdent(const char *word) const { return at(TokKind::Identifier) && cur().text == word; }
  const Token &advance() {
    const Token &t = toks_[p_];
    if (p_ + 1 < toks_.size()) ++p_;
    return t;
  }
  bool accept(TokKind k) {
    if (!at(k)) return false;
    advance();
    return true;
  }
  SourceLoc spanFrom(SourceLoc start) const { return SourceLoc::span(start, prev().loc); }

  std::string describe(const Token &t) const {
    switch (t.kind) {
    case TokKind::Newline: return "end of line";
    case TokKind::EndOfFile: return "end of input";
    case TokKind::Indent: return "an indented block";
    case TokKind::Dedent: return "the end of the block";
    default: return fmt::format("'{}'", t.text);
    }
  }

  [[noreturn]] void fail(SourceLoc loc, std::string msg) {
    diags_.error(DiagCategory::Syntax, loc, std::move(msg));
    throw Bail{};
  }
  [[noreturn]] void failExpected(const char *what) {
    if (at(TokKind::Error)) throw Bail{};  // the lexer reported it
    fail(cur().loc, fmt::format("expected {}, found {}", what, describe(cur())));
  }
  void unsupported(SourceLoc loc, std::string msg) {
    diags_.error(DiagCategory::Unsupported, loc, std::move(msg));
  }
  const Token &expect(TokKind k, const char *what) {
    if (!at(k)) failExpected(what);
    return advance();
  }

  // One level of nesting (see kMaxNesting) while it lives.
  struct NestingGuard {
    Parser &p;
    explicit NestingGuard(Parser &parser, SourceLoc loc) : p(parser) {
      if (++p.nesting_ > kMaxNesting) {
        --p.nesting_;
        p.fail(loc, fmt::format("too many nested parentheses, blocks or operators (the limit "
                                "is {})",
                                kMaxNesting));
      }
    }
    ~NestingGuard() { --p.nesting_; }
  };

  template <class T> T *make(SourceLoc loc) { return ctx_.make<T>(loc); }

  // ---- skipping ----
  void skipToLineEnd();
  void skipBlockIfAny();
  void skipStatement();
  void skipClauses(std::initializer_list<TokKind> clauses);
  void skipToClose();
  void skipBracketed(TokKind close);

  // ---- top level ----
  void parseTopLevel();
  void parseTopLevelDef();
  bool reportTreeTooDeep(const FunctionDef *fn);
  FunctionDef *parseFunctionDef(std::vector<Expr *> decorators);
  std::vector<Expr *> parseDecorators();
  void parseParams(std::vector<Param> &params, TokKind close, bool allowAnnotations);
  ImportStmt *parseImport();

  // ---- statements ----
  StmtList parseBlock(const char *what, SourceLoc headLoc);
  void parseStatementInto(StmtList &out);
  void parseSimpleStatements(StmtList &out);
  Stmt *parseSimpleStatement();
  Stmt *parseIf();
  Stmt *parseWhile();
  Stmt *parseFor();
  Stmt *parseExprStatement();
  void checkTarget(Expr *e, const char *context);

  // ---- expressions ----
  Expr *parseTestList();    // a, b, c -> tuple
  Expr *parseTargetList();  // for-loop targets
  Expr *parseElement();
  Expr *parseStarred();
  Expr *parseYield();
  Expr *parseNamedExpr();
  Expr *parseTest();
  Expr *parseLambda();
  Expr *parseOr();
  Expr *parseAnd();
  Expr *parseNot();
  Expr *parseComparison();
  Expr *parseBinary(int level);
  Expr *parseFactor();
  Expr *parsePower();
  Expr *parsePrimary();
  Expr *parseAtom();
  Expr *parseParenthesized();
  Expr *parseBracketList();
  Expr *parseBraces();
  Expr *parseStrings();
  Expr *parseCallArgs(Expr *func, SourceLoc start);
  Expr *parseSubscript(Expr *value, SourceLoc start);
  Expr *parseSliceItem();
  Expr *comprehension(SourceLoc start, TokKind close, const char *kind, bool takeClose = true);
  Expr *errorExpr(SourceLoc loc) { return make<ErrorExpr>(loc); }
};

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
    if (at(TokKind::Indent)) ++level;
    else if (at(TokKind::Dedent)) --level;
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
    case TokKind::Integer: case TokKind::Float: case TokKind::Imaginary:
    case TokKind::KwTrue: case TokKind::KwFalse: case TokKind::KwNone:
    case TokKind::Minus: case TokKind::Plus: case TokKind::LParen:
    case TokKind::RParen: case TokKind::Comma:
      any = true;
      break;
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
    while (accept(TokKind::Dot)) name += "." + std::string(expect(TokKind::Identifier, "a name").text);
    return name;
  };
  if (accept(TokKind::KwFrom)) {
    imp->isFrom = true;
    while (at(TokKind::Dot) || at(TokKind::Ellipsis)) imp->fromModule += std::string(advance().text);
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
        if (accept(TokKind::KwAs)) a.asname = std::string(expect(TokKind::Identifier, "a name").text);
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
    if (at(TokKind::Star) || at(TokKind::DoubleStar)) {
      SourceLoc start = cur().loc;
      bool two = at(TokKind::DoubleStar);
      keywordOnly |= !two;
      advance();
      if (at(TokKind::Identifier)) advance();
      unsupported(spanFrom(start),
                  two ? "**kwargs parameters are not supported in kernels; list the parameters"
                      : (prev().is(TokKind::Star)
                             ? "keyword-only parameters ('*') are not supported in kernels"
                             : "*args parameters are not supported in kernels; list the "
                               "parameters"));
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
  fn->body = parseBlock("function definition", defLoc);
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
  return fn;
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
    fail(cur().loc, fmt::format("expected an indented block after {} on line {}", what,
                                headLoc.line));
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

void Parser::parseStatementInto(StmtList &out) {
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
  case TokKind::KwTry:
    unsupported(t.loc, "try/except is not supported in kernels; check the condition with "
                       "'if' and raise, or return an error code");
    skipStatement();
    skipClauses({TokKind::KwExcept, TokKind::KwElse, TokKind::KwFinally});
    return;
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

void Parser::parseSimpleStatements(StmtList &out) {
  for (;;) {
    out.push_back(parseSimpleStatement());
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
    do expect(TokKind::Identifier, "a name"); while (accept(TokKind::Comma));
    unsupported(spanFrom(start),
                global ? "'global' declarations are not supported in kernels; globals are "
                         "read-only compile-time constants"
                       : "'nonlocal' declarations are not supported in kernels");
    return make<PassStmt>(start);
  }
  case TokKind::KwDel: {
    advance();
    parseTargetList();
    unsupported(spanFrom(start), "'del' statements are not supported in kernels");
    return make<PassStmt>(start);
  }
  case TokKind::KwImport:
  case TokKind::KwFrom: {
    Stmt *imp = parseImport();
    unsupported(imp->loc, "import statements are not supported inside kernels; import at "
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
  s->test = parseNamedExpr();
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
    if (from || startsExpression(cur().kind)) parseTestList();
    unsupported(spanFrom(start), "generators ('yield') are not supported in kernels");
    return make<PassStmt>(start);
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
    return s;
  }
  auto *s = make<ExprStmt>(start);
  s->value = first;
  s->loc = spanFrom(start);
  return s;
}

// ---------------------------------------------------------------------------
// Expressions

Expr *Parser::parseTestList() {
  SourceLoc start = cur().loc;
  Expr *first = parseElement();
  if (!at(TokKind::Comma)) return first;
  auto *t = make<TupleExpr>(start);
  t->elts.push_back(first);
  while (accept(TokKind::Comma)) {
    if (!startsExpression(cur().kind)) break;
    t->elts.push_back(parseElement());
  }
  t->loc = spanFrom(start);
  return t;
}

Expr *Parser::parseTargetList() {
  SourceLoc start = cur().loc;
  auto one = [&] { return at(TokKind::Star) ? parseStarred() : parseBinary(0); };
  Expr *first = one();
  if (!at(TokKind::Comma)) return first;
  auto *t = make<TupleExpr>(start);
  t->elts.push_back(first);
  while (accept(TokKind::Comma)) {
    if (at(TokKind::KwIn) || !startsExpression(cur().kind)) break;
    t->elts.push_back(one());
  }
  t->loc = spanFrom(start);
  return t;
}

// An element of a tuple, list or set, or of a subscript's index: an
// expression, or a starred one.
Expr *Parser::parseElement() { return at(TokKind::Star) ? parseStarred() : parseNamedExpr(); }

// '*x', wherever Python allows it (displays, subscripts, targets): parsed,
// reported, and replaced by an ErrorExpr.
Expr *Parser::parseStarred() {
  SourceLoc start = cur().loc;
  advance();  // *
  parseBinary(0);
  unsupported(spanFrom(start), "starred expressions ('*x') are not supported in kernels");
  return errorExpr(spanFrom(start));
}

// 'yield', 'yield x' or 'yield from x' inside an expression ('y = yield x'),
// reported at the keyword.
Expr *Parser::parseYield() {
  SourceLoc start = cur().loc;
  unsupported(start, "generators ('yield') are not supported in kernels");
  advance();
  bool from = accept(TokKind::KwFrom);
  if (from || startsExpression(cur().kind)) parseTestList();
  return errorExpr(spanFrom(start));
}

Expr *Parser::parseNamedExpr() {
  Expr *e = parseTest();
  if (at(TokKind::Walrus)) {
    SourceLoc start = e->loc;
    advance();
    parseTest();
    unsupported(spanFrom(start),
                "assignment expressions (':=') are not supported in kernels; assign on a "
                "separate line");
    return errorExpr(spanFrom(start));
  }
  return e;
}

Expr *Parser::parseTest() {
  if (at(TokKind::KwLambda)) return parseLambda();
  SourceLoc start = cur().loc;
  Expr *e = parseOr();
  if (!at(TokKind::KwIf)) return e;
  NestingGuard guard(*this, cur().loc);  // 'a if c else b if d else e' nests
  advance();
  auto *c = make<IfExpr>(start);
  c->body = e;
  c->test = parseOr();
  expect(TokKind::KwElse, "'else' in the conditional expression");
  c->orelse = parseTest();
  c->loc = spanFrom(start);
  return c;
}

Expr *Parser::parseLambda() {
  NestingGuard guard(*this, cur().loc);  // 'lambda: lambda: 0' nests
  SourceLoc start = cur().loc;
  advance();
  // Unless parameters (or the ':') follow, 'lambda' was meant as a name.
  const Token &next = ahead(1);
  bool params = at(TokKind::Colon) || at(TokKind::Identifier) ||
                (at(TokKind::Star) && (next.is(TokKind::Identifier) || next.is(TokKind::Comma))) ||
                (at(TokKind::DoubleStar) && next.is(TokKind::Identifier));
  if (!params) fail(start, kLambdaAsName);
  auto *l = make<LambdaExpr>(start);
  parseParams(l->params, TokKind::Colon, false);
  expect(TokKind::Colon, "':' after the lambda's parameters");
  l->body = parseTest();
  l->loc = spanFrom(start);
  return l;
}

Expr *Parser::parseOr() {
  SourceLoc start = cur().loc;
  Expr *e = parseAnd();
  if (!at(TokKind::KwOr)) return e;
  auto *b = make<BoolOpExpr>(start);
  b->op = BoolOp::Or;
  b->values.push_back(e);
  while (accept(TokKind::KwOr)) b->values.push_back(parseAnd());
  b->loc = spanFrom(start);
  return b;
}

Expr *Parser::parseAnd() {
  SourceLoc start = cur().loc;
  Expr *e = parseNot();
  if (!at(TokKind::KwAnd)) return e;
  auto *b = make<BoolOpExpr>(start);
  b->op = BoolOp::And;
  b->values.push_back(e);
  while (accept(TokKind::KwAnd)) b->values.push_back(parseNot());
  b->loc = spanFrom(start);
  return b;
}

Expr *Parser::parseNot() {
  if (!at(TokKind::KwNot)) return parseComparison();
  NestingGuard guard(*this, cur().loc);
  SourceLoc start = cur().loc;
  advance();
  auto *u = make<UnaryExpr>(start);
  u->op = UnaryOp::Not;
  u->operand = parseNot();
  u->loc = spanFrom(start);
  return u;
}

Expr *Parser::parseComparison() {
  SourceLoc start = cur().loc;
  Expr *e = parseBinary(0);
  CompareExpr *c = nullptr;
  for (;;) {
    CmpOp op;
    switch (cur().kind) {
    case TokKind::Less: op = CmpOp::Lt; break;
    case TokKind::Greater: op = CmpOp::Gt; break;
    case TokKind::LessEq: op = CmpOp::Le; break;
    case TokKind::GreaterEq: op = CmpOp::Ge; break;
    case TokKind::EqEq: op = CmpOp::Eq; break;
    case TokKind::NotEq: op = CmpOp::Ne; break;
    case TokKind::KwIn: op = CmpOp::In; break;
    case TokKind::KwIs:
      op = ahead(1).is(TokKind::KwNot) ? CmpOp::IsNot : CmpOp::Is;
      break;
    case TokKind::KwNot:
      if (!ahead(1).is(TokKind::KwIn)) return c ? c : e;
      op = CmpOp::NotIn;
      break;
    default: return c ? static_cast<Expr *>(c) : e;
    }
    advance();
    if (op == CmpOp::IsNot || op == CmpOp::NotIn) advance();
    if (!c) {
      c = make<CompareExpr>(start);
      c->lhs = e;
    }
    c->ops.push_back(op);
    c->comparators.push_back(parseBinary(0));
    c->loc = spanFrom(start);
  }
}

// Binary operator levels, loosest first: | ^ & shifts additive multiplicative.
Expr *Parser::parseBinary(int level) {
  if (level == 6) return parseFactor();
  SourceLoc start = cur().loc;
  Expr *lhs = parseBinary(level + 1);
  for (;;) {
    BinaryOp op;
    TokKind k = cur().kind;
    switch (level) {
    case 0: if (k != TokKind::Pipe) return lhs; op = BinaryOp::BitOr; break;
    case 1: if (k != TokKind::Caret) return lhs; op = BinaryOp::BitXor; break;
    case 2: if (k != TokKind::Amp) return lhs; op = BinaryOp::BitAnd; break;
    case 3:
      if (k == TokKind::LShift) op = BinaryOp::LShift;
      else if (k == TokKind::RShift) op = BinaryOp::RShift;
      else return lhs;
      break;
    case 4:
      if (k == TokKind::Plus) op = BinaryOp::Add;
      else if (k == TokKind::Minus) op = BinaryOp::Sub;
      else return lhs;
      break;
    default:
      if (k == TokKind::Star) op = BinaryOp::Mul;
      else if (k == TokKind::Slash) op = BinaryOp::Div;
      else if (k == TokKind::DoubleSlash) op = BinaryOp::FloorDiv;
      else if (k == TokKind::Percent) op = BinaryOp::Mod;
      else if (k == TokKind::At) op = BinaryOp::MatMul;
      else return lhs;
      break;
    }
    advance();
    auto *b = make<BinaryExpr>(start);
    b->op = op;
    b->lhs = lhs;
    b->rhs = parseBinary(level + 1);
    b->loc = spanFrom(start);
    lhs = b;
  }
}

Expr *Parser::parseFactor() {
  UnaryOp op;
  switch (cur().kind) {
  case TokKind::Minus: op = UnaryOp::Neg; break;
  case TokKind::Plus: op = UnaryOp::Pos; break;
  case TokKind::Tilde: op = UnaryOp::Invert; break;
  default: return parsePower();
  }
  NestingGuard guard(*this, cur().loc);
  SourceLoc start = cur().loc;
  advance();
  auto *u = make<UnaryExpr>(start);
  u->op = op;
  u->operand = parseFactor();
  u->loc = spanFrom(start);
  return u;
}

// power: primary ['**' factor]; so -x**2 is -(x**2) and 2**-1 is 2**(-1),
// and ** is right-associative: 2**3**2 is 2**(3**2).
Expr *Parser::parsePower() {
  SourceLoc start = cur().loc;
  if (at(TokKind::KwAwait)) {
    advance();
    Expr *e = parsePrimary();
    unsupported(spanFrom(start), "'await' is not supported in kernels");
    return e;
  }
  Expr *base = parsePrimary();
  if (!at(TokKind::DoubleStar)) return base;
  NestingGuard guard(*this, cur().loc);
  advance();
  auto *b = make<BinaryExpr>(start);
  b->op = BinaryOp::Pow;
  b->lhs = base;
  b->rhs = parseFactor();
  b->loc = spanFrom(start);
  return b;
}

Expr *Parser::parsePrimary() {
  SourceLoc start = cur().loc;
  Expr *e = parseAtom();
  for (;;) {
    if (at(TokKind::LParen)) {
      e = parseCallArgs(e, start);
    } else if (at(TokKind::LBracket)) {
      e = parseSubscript(e, start);
    } else if (at(TokKind::Dot)) {
      advance();
      auto *a = make<AttributeExpr>(start);
      a->value = e;
      a->attrLoc = cur().loc;
      a->attr = std::string(expect(TokKind::Identifier, "an attribute name after '.'").text);
      a->loc = spanFrom(start);
      e = a;
    } else {
      return e;
    }
  }
}

Expr *Parser::parseCallArgs(Expr *func, SourceLoc start) {
  NestingGuard guard(*this, cur().loc);
  advance();  // (
  auto *c = make<CallExpr>(start);
  c->func = func;
  while (!at(TokKind::RParen)) {
    if (at(TokKind::Star) || at(TokKind::DoubleStar)) {
      SourceLoc s = cur().loc;
      bool two = at(TokKind::DoubleStar);
      advance();
      parseTest();
      unsupported(spanFrom(s), two ? "'**' argument unpacking is not supported in kernels"
                                   : "'*' argument unpacking is not supported in kernels");
    } else if (at(TokKind::Identifier) && ahead(1).is(TokKind::Assign)) {
      Keyword kw;
      kw.loc = cur().loc;
      kw.name = std::string(advance().text);
      advance();  // =
      for (const Keyword &other : c->keywords)
        if (other.name == kw.name) fail(kw.loc, fmt::format("keyword argument repeated: {}", kw.name));
      kw.value = parseTest();
      c->keywords.push_back(std::move(kw));
    } else {
      SourceLoc argStart = cur().loc;
      Expr *arg = parseNamedExpr();
      if (at(TokKind::KwFor) || at(TokKind::KwAsync)) {
        c->args.push_back(comprehension(argStart, TokKind::RParen, "generator expressions",
                                        /*takeClose=*/false));
        break;
      }
      if (!c->keywords.empty()) fail(arg->loc, "positional argument follows keyword argument");
      c->args.push_back(arg);
    }
    if (!accept(TokKind::Comma)) break;
  }
  expect(TokKind::RParen, "',' or ')' in the call's arguments");
  c->loc = spanFrom(start);
  return c;
}

Expr *Parser::parseSliceItem() {
  SourceLoc start = cur().loc;
  Expr *lower = nullptr;
  if (at(TokKind::Star)) return parseStarred();
  if (!at(TokKind::Colon)) {
    lower = parseNamedExpr();
    if (!at(TokKind::Colon)) return lower;
  }
  auto *s = make<SliceExpr>(start);
  s->lower = lower;
  advance();  // :
  auto boundEnds = [&]() {
    return at(TokKind::Colon) || at(TokKind::Comma) || at(TokKind::RBracket);
  };
  if (!boundEnds()) s->upper = parseTest();
  if (accept(TokKind::Colon) && !boundEnds()) s->step = parseTest();
  s->loc = spanFrom(start);
  return s;
}

Expr *Parser::parseSubscript(Expr *value, SourceLoc start) {
  NestingGuard guard(*this, cur().loc);
  advance();  // [
  auto *s = make<SubscriptExpr>(start);
  s->value = value;
  SourceLoc idxStart = cur().loc;
  if (at(TokKind::RBracket)) fail(cur().loc, "expected an index inside '[]'");
  Expr *first = parseSliceItem();
  if (at(TokKind::Comma)) {
    auto *t = make<TupleExpr>(idxStart);
    t->elts.push_back(first);
    while (accept(TokKind::Comma)) {
      if (at(TokKind::RBracket)) break;
      t->elts.push_back(parseSliceItem());
    }
    t->loc = spanFrom(idxStart);
    first = t;
  }
  s->index = first;
  expect(TokKind::RBracket, "']' to close the subscript");
  s->loc = spanFrom(start);
  return s;
}

// Reports a comprehension or generator expression from `start` to its closing
// bracket (cur() is at its first 'for'). A display ('[x for ...]') takes in
// its bracket; a call's generator-expression argument leaves the ')' to the
// call.
Expr *Parser::comprehension(SourceLoc start, TokKind close, const char *kind, bool takeClose) {
  skipToClose();
  if (takeClose) accept(close);
  unsupported(spanFrom(start), fmt::format("{} are not supported in kernels; write a loop", kind));
  return errorExpr(spanFrom(start));
}

Expr *Parser::parseParenthesized() {
  NestingGuard guard(*this, cur().loc);
  SourceLoc start = cur().loc;
  advance();  // (
  if (accept(TokKind::RParen)) {
    auto *t = make<TupleExpr>(spanFrom(start));
    t->parenthesized = true;
    return t;
  }
  if (at(TokKind::KwYield)) {
    skipBracketed(TokKind::RParen);
    unsupported(spanFrom(start), "generators ('yield') are not supported in kernels");
    return errorExpr(spanFrom(start));
  }
  Expr *first = parseTestList();
  if (at(TokKind::KwFor) || at(TokKind::KwAsync))
    return comprehension(start, TokKind::RParen, "generator expressions");
  expect(TokKind::RParen, "')'");
  if (auto *t = dyn_cast<TupleExpr>(first)) {
    if (!t->parenthesized) {
      t->parenthesized = true;
      t->loc = spanFrom(start);
      return t;
    }
  }
  return first;  // a parenthesised expression keeps its own location
}

Expr *Parser::parseBracketList() {
  NestingGuard guard(*this, cur().loc);
  SourceLoc start = cur().loc;
  advance();  // [
  auto *l = make<ListExpr>(start);
  while (!at(TokKind::RBracket)) {
    l->elts.push_back(parseElement());
    if (at(TokKind::KwFor) || at(TokKind::KwAsync))
      return comprehension(start, TokKind::RBracket, "list comprehensions");
    if (!accept(TokKind::Comma)) break;
  }
  expect(TokKind::RBracket, "',' or ']' in the list");
  l->loc = spanFrom(start);
  return l;
}

Expr *Parser::parseBraces() {
  NestingGuard guard(*this, cur().loc);
  SourceLoc start = cur().loc;
  advance();  // {
  if (accept(TokKind::RBrace)) {
    unsupported(spanFrom(start), "dict literals are not supported in kernels");
    return errorExpr(spanFrom(start));
  }
  bool isDict = false;
  if (accept(TokKind::DoubleStar)) {
    isDict = true;
    parseBinary(0);
  } else if (at(TokKind::Star)) {
    parseStarred();
  } else {
    parseTest();
    if (accept(TokKind::Colon)) {
      isDict = true;
      parseTest();
    }
  }
  if (at(TokKind::KwFor) || at(TokKind::KwAsync))
    return comprehension(start, TokKind::RBrace,
                         isDict ? "dict comprehensions" : "set comprehensions");
  skipBracketed(TokKind::RBrace);
  unsupported(spanFrom(start), isDict ? "dict literals are not supported in kernels"
                                      : "set literals are not supported in kernels");
  return errorExpr(spanFrom(start));
}

Expr *Parser::parseStrings() {
  SourceLoc start = cur().loc;
  auto *s = make<StrLit>(start);
  bool first = true;
  while (at(TokKind::String)) {
    const Token &t = advance();
    if (t.isFString)
      unsupported(t.loc, "f-strings are not supported in kernels; pass the values to print() "
                         "as separate arguments");
    if (!first && t.isBytes != s->isBytes)
      fail(t.loc, "cannot mix bytes and nonbytes literals");
    s->isBytes = t.isBytes;
    s->value += t.strValue;
    first = false;
  }
  s->loc = spanFrom(start);
  return s;
}

Expr *Parser::parseAtom() {
  const Token &t = cur();
  SourceLoc loc = t.loc;
  switch (t.kind) {
  case TokKind::Identifier: {
    auto *n = make<NameExpr>(loc);
    n->name = std::string(t.text);
    advance();
    return n;
  }
  case TokKind::Integer: {
    auto *n = make<IntLit>(loc);
    n->value = t.intValue;
    n->tooLarge = t.intTooLarge;
    n->text = std::string(t.text);
    advance();
    return n;
  }
  case TokKind::Float: {
    auto *n = make<FloatLit>(loc);
    n->value = t.floatValue;
    n->text = std::string(t.text);
    advance();
    return n;
  }
  case TokKind::Imaginary: {
    auto *n = make<ImagLit>(loc);
    n->value = t.floatValue;
    n->text = std::string(t.text);
    advance();
    return n;
  }
  case TokKind::String: return parseStrings();
  case TokKind::KwTrue:
  case TokKind::KwFalse: {
    auto *n = make<BoolLit>(loc);
    n->value = t.is(TokKind::KwTrue);
    advance();
    return n;
  }
  case TokKind::KwNone: advance(); return make<NoneLit>(loc);
  case TokKind::Ellipsis: advance(); return make<EllipsisLit>(loc);
  case TokKind::LParen: return parseParenthesized();
  case TokKind::LBracket: return parseBracketList();
  case TokKind::LBrace: return parseBraces();
  case TokKind::KwYield: return parseYield();
  case TokKind::KwLambda: fail(loc, kLambdaAsName);  // a lambda would be parsed by parseTest
  case TokKind::Error:
    throw Bail{};  // the lexer reported it
  default:
    if (t.kind >= TokKind::KwFalse && t.kind <= TokKind::KwYield)
      fail(loc, fmt::format("invalid syntax: unexpected keyword '{}'", t.text));
    failExpected("an expression");
  }
}

}  // namespace

ast::Module parseModule(ASTContext &ctx, const SourceManager &sm, uint32_t fileId,
                        DiagnosticEngine &diags, const ParseOptions &opts) {
  return Parser(ctx, sm, fileId, diags, opts).run();
}

}  // namespace kjit
