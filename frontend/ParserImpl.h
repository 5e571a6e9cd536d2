// ParserImpl.h - the parser's class, shared by Parser.cpp (the top level,
// statements, recovery) and ParserExpressions.cpp (expressions). Private to
// the frontend: the interface is Parser.h.
#pragma once

#include <fmt/format.h>

#include <set>

#include "frontend/Parser.h"

namespace kjit::ast::parser {

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
inline bool startsExpression(TokKind k) {
  switch (k) {
  case TokKind::Identifier:
  case TokKind::Integer:
  case TokKind::Float:
  case TokKind::Imaginary:
  case TokKind::String:
  case TokKind::KwTrue:
  case TokKind::KwFalse:
  case TokKind::KwNone:
  case TokKind::Ellipsis:
  case TokKind::LParen:
  case TokKind::LBracket:
  case TokKind::LBrace:
  case TokKind::Minus:
  case TokKind::Plus:
  case TokKind::Tilde:
  case TokKind::KwNot:
  case TokKind::KwLambda:
  case TokKind::KwAwait:
  case TokKind::Star: return true;
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
  // The first `yield` statement of each function being parsed, innermost
  // last (invalid: none yet); see finishGenerator.
  std::vector<SourceLoc> yields_;
  void finishGenerator(FunctionDef *fn, SourceLoc yieldLoc);
  // Statements a list comprehension needs before the statement being parsed
  // (see listComprehension); each statement takes those added while it was
  // parsed, nested statements first.
  std::vector<Stmt *> hoist_;
  unsigned comprehensions_ = 0;
  unsigned lambdas_ = 0;  // lambdas in function bodies: $lambdaN (parseLambda)
  std::vector<Stmt *> takeHoisted(size_t mark) {
    std::vector<Stmt *> out(hoist_.begin() + long(mark), hoist_.end());
    hoist_.resize(mark);
    return out;
  }

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

  template <class T>
  T *make(SourceLoc loc) {
    return ctx_.make<T>(loc);
  }

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
  // [elt for t in it if c ...] (cur() at the first 'for'; statements for elt
  // were hoisted from `eltMark` on): the statements that build the list are
  // hoisted, and the expression is the list's variable. `{elt for ...}` (a
  // set: `set`) and `{elt: value for ...}` (a dict: `value` set) alike.
  Expr *listComprehension(SourceLoc start, Expr *elt, size_t eltMark, TokKind close, bool takeClose,
                          bool set = false, Expr *value = nullptr);
  void parseOneStatementInto(StmtList &out);
  Stmt *parseTry();  // null after an unsupported form (reported)
  Expr *errorExpr(SourceLoc loc) { return make<ErrorExpr>(loc); }
};

}  // namespace kjit::ast::parser
