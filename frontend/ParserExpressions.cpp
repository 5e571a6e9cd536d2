// ParserExpressions.cpp - Python expressions to the AST: operators by
// precedence, calls, subscripts and slices, displays, strings, lambdas.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "frontend/ParserImpl.h"

namespace kjit::ast::parser {

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
  size_t mark = hoist_.size();
  l->body = parseTest();
  l->loc = spanFrom(start);
  if (funcDepth_ == 0) return l;  // (cuda.reduce(lambda ...): runLambdas)
  // In a function's body, a lambda is a nested function defined before the
  // statement that holds it (`key=lambda t: t[1]`): `def $lambdaN(t): return
  // t[1]`, named where the lambda was; what its body hoisted stays in it.
  auto *fn = make<FunctionDef>(l->loc);
  fn->name = fmt::format("$lambda{}", ++lambdas_);
  fn->nameLoc = l->loc;
  fn->params = l->params;
  fn->body = takeHoisted(mark);
  auto *ret = make<ReturnStmt>(l->body->loc);
  ret->value = l->body;
  fn->body.push_back(ret);
  hoist_.push_back(fn);
  auto *name = make<NameExpr>(l->loc);
  name->name = fn->name;
  return name;
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
    case TokKind::KwIs: op = ahead(1).is(TokKind::KwNot) ? CmpOp::IsNot : CmpOp::Is; break;
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
    case 0:
      if (k != TokKind::Pipe) return lhs;
      op = BinaryOp::BitOr;
      break;
    case 1:
      if (k != TokKind::Caret) return lhs;
      op = BinaryOp::BitXor;
      break;
    case 2:
      if (k != TokKind::Amp) return lhs;
      op = BinaryOp::BitAnd;
      break;
    case 3:
      if (k == TokKind::LShift)
        op = BinaryOp::LShift;
      else if (k == TokKind::RShift)
        op = BinaryOp::RShift;
      else
        return lhs;
      break;
    case 4:
      if (k == TokKind::Plus)
        op = BinaryOp::Add;
      else if (k == TokKind::Minus)
        op = BinaryOp::Sub;
      else
        return lhs;
      break;
    default:
      if (k == TokKind::Star)
        op = BinaryOp::Mul;
      else if (k == TokKind::Slash)
        op = BinaryOp::Div;
      else if (k == TokKind::DoubleSlash)
        op = BinaryOp::FloorDiv;
      else if (k == TokKind::Percent)
        op = BinaryOp::Mod;
      else if (k == TokKind::At)
        op = BinaryOp::MatMul;
      else
        return lhs;
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
    if (at(TokKind::Star)) {
      // f(*t): t's elements as positional arguments (the typer expands a tuple).
      SourceLoc s = cur().loc;
      advance();
      Expr *arg = parseTest();
      if (!c->keywords.empty())
        fail(spanFrom(s), "iterable argument unpacking follows keyword argument unpacking");
      c->starred.resize(c->args.size(), false);
      c->starred.push_back(true);
      c->args.push_back(arg);
    } else if (at(TokKind::DoubleStar)) {
      SourceLoc s = cur().loc;
      advance();
      parseTest();
      unsupported(spanFrom(s), "'**' argument unpacking is not supported in kernels");
    } else if (at(TokKind::Identifier) && ahead(1).is(TokKind::Assign)) {
      Keyword kw;
      kw.loc = cur().loc;
      kw.name = std::string(advance().text);
      advance();  // =
      for (const Keyword &other : c->keywords)
        if (other.name == kw.name)
          fail(kw.loc, fmt::format("keyword argument repeated: {}", kw.name));
      kw.value = parseTest();
      c->keywords.push_back(std::move(kw));
    } else {
      SourceLoc argStart = cur().loc;
      size_t mark = hoist_.size();
      Expr *arg = parseNamedExpr();
      if (at(TokKind::KwFor) && c->args.empty() && c->keywords.empty()) {
        // f(x for x in seq): the generator's values, gathered in a list (the
        // functions that take one - sum, min, max, any, all, sorted, list,
        // np.array - read it once, in order).
        c->args.push_back(listComprehension(argStart, arg, mark, TokKind::RParen, false));
        break;
      }
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

namespace {

// Renames the names in `renames` everywhere under `n` (the comprehension's
// own variables, which Python scopes to it).
void renameNames(Node *n, const std::map<std::string, std::string> &renames) {
  if (!n) return;
  if (auto *name = dyn_cast<NameExpr>(n)) {
    if (auto it = renames.find(name->name); it != renames.end()) name->name = it->second;
    return;
  }
  forEachChild(n, [&](const Node *c) { renameNames(const_cast<Node *>(c), renames); });
}

void targetNames(const Expr *t, std::vector<std::string> &out) {
  if (auto *n = dyn_cast<NameExpr>(t)) out.push_back(n->name);
  if (auto *tu = dyn_cast<TupleExpr>(t))
    for (const Expr *e : tu->elts) targetNames(e, out);
  if (auto *l = dyn_cast<ListExpr>(t))
    for (const Expr *e : l->elts) targetNames(e, out);
}

}  // namespace

// [elt for t1 in it1 if c1 for t2 in it2 ...] becomes, before the statement
// that holds it,
//     $lcN = []
//     for $lcN_t1 in it1:
//         if c1:
//             for $lcN_t2 in it2:
//                 $lcN.append(elt)
// and the expression itself is $lcN. The targets are renamed, as Python
// scopes them to the comprehension; statements hoisted while the element,
// a condition or a later iterable was parsed move into the loop where their
// variables live; the first iterable is evaluated outside, as in Python.
Expr *Parser::listComprehension(SourceLoc start, Expr *elt, size_t eltMark, TokKind close,
                                bool takeClose, bool set, Expr *value) {
  std::vector<Stmt *> eltHoist = takeHoisted(eltMark);
  struct Cond {
    Expr *test;
    std::vector<Stmt *> hoist;
  };
  struct Clause {
    Expr *target;
    Expr *iter;
    std::vector<Stmt *> iterHoist;
    std::vector<Cond> conds;
  };
  std::vector<Clause> clauses;
  while (at(TokKind::KwFor)) {
    advance();
    Clause c;
    c.target = parseTargetList();
    checkTarget(c.target, "comprehension");
    expect(TokKind::KwIn, "'in' in the comprehension");
    size_t mark = hoist_.size();
    c.iter = parseOr();
    c.iterHoist = takeHoisted(mark);
    while (at(TokKind::KwIf)) {
      advance();
      size_t m = hoist_.size();
      Expr *test = parseOr();
      c.conds.push_back({test, takeHoisted(m)});
    }
    clauses.push_back(std::move(c));
  }
  if (at(TokKind::KwAsync)) fail(cur().loc, "asynchronous comprehensions are not supported");
  if (takeClose)
    expect(close, close == TokKind::RBracket ? "']'" : close == TokKind::RBrace ? "'}'" : "')'");
  SourceLoc loc = spanFrom(start);
  std::string list = fmt::format("$lc{}", ++comprehensions_);
  std::map<std::string, std::string> renames;
  for (const Clause &c : clauses) {
    std::vector<std::string> names;
    targetNames(c.target, names);
    for (const std::string &n : names) renames[n] = list + "_" + n;
  }
  auto rename = [&](Node *n) { renameNames(n, renames); };
  auto nameExpr = [&](const std::string &n, SourceLoc at) {
    auto *e = make<NameExpr>(at);
    e->name = n;
    return e;
  };
  // The innermost statement: $lcN.append(elt), $lcN.add(elt) or
  // $lcN[elt] = value.
  rename(elt);
  if (value) rename(value);
  for (Stmt *s : eltHoist) rename(s);
  Stmt *append = nullptr;
  if (value) {
    auto *sub = make<SubscriptExpr>(elt->loc);
    sub->value = nameExpr(list, elt->loc);
    sub->index = elt;
    auto *store = make<AssignStmt>(elt->loc);
    store->targets.push_back(sub);
    store->value = value;
    append = store;
  } else {
    auto *attr = make<AttributeExpr>(elt->loc);
    attr->value = nameExpr(list, elt->loc);
    attr->attr = set ? "add" : "append";
    attr->attrLoc = elt->loc;
    auto *call = make<CallExpr>(elt->loc);
    call->func = attr;
    call->args.push_back(elt);
    auto *e = make<ExprStmt>(elt->loc);
    e->value = call;
    append = e;
  }
  StmtList body(eltHoist.begin(), eltHoist.end());
  body.push_back(append);
  for (size_t k = clauses.size(); k-- > 0;) {
    Clause &c = clauses[k];
    for (size_t j = c.conds.size(); j-- > 0;) {
      rename(c.conds[j].test);
      auto *i = make<IfStmt>(c.conds[j].test->loc);
      i->test = c.conds[j].test;
      i->body = std::move(body);
      body.assign(c.conds[j].hoist.begin(), c.conds[j].hoist.end());
      for (Stmt *s : body) rename(s);
      body.push_back(i);
    }
    rename(c.target);
    if (k > 0) {
      rename(c.iter);
      for (Stmt *s : c.iterHoist) rename(s);
    }
    auto *f = make<ForStmt>(loc);
    f->target = c.target;
    f->iter = c.iter;
    f->body = std::move(body);
    body.assign(c.iterHoist.begin(), c.iterHoist.end());
    body.push_back(f);
  }
  // body: the first iterable's statements, then the outer loop.
  auto *init = make<AssignStmt>(loc);
  init->targets.push_back(nameExpr(list, loc));
  if (set || value) {
    auto *d = make<DictExpr>(loc);
    d->isSet = set;
    init->value = d;
  } else {
    auto *l = make<ListExpr>(loc);
    l->comprehension = close == TokKind::RParen ? "a generator expression" : "a list comprehension";
    init->value = l;
  }
  size_t loopAt = body.size() - 1;
  body.insert(body.begin() + long(loopAt), init);
  hoist_.insert(hoist_.end(), body.begin(), body.end());
  return nameExpr(list, loc);
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
    size_t mark = hoist_.size();
    l->elts.push_back(parseElement());
    if (at(TokKind::KwFor) && l->elts.size() == 1)
      return listComprehension(start, l->elts[0], mark, TokKind::RBracket, true);
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
  advance();                                                            // {
  if (accept(TokKind::RBrace)) return make<DictExpr>(spanFrom(start));  // {}
  bool isDict = false;
  if (accept(TokKind::DoubleStar)) {
    isDict = true;
    parseBinary(0);
  } else if (at(TokKind::Star)) {
    parseStarred();  // (reports the starred expression)
    skipBracketed(TokKind::RBrace);
    return errorExpr(spanFrom(start));
  } else {
    size_t mark = hoist_.size();
    Expr *key = parseTest();
    if (accept(TokKind::Colon)) {
      isDict = true;
      Expr *value = parseTest();
      if (at(TokKind::KwFor))  // {k: v for ...}
        return listComprehension(start, key, mark, TokKind::RBrace, true, false, value);
      if (!at(TokKind::KwAsync)) {
        // {k: v, ...}: a dict display (no `**d` in it).
        auto *d = make<DictExpr>(start);
        d->keys.push_back(key);
        d->values.push_back(value);
        bool ok = true;
        while (accept(TokKind::Comma) && !at(TokKind::RBrace)) {
          if (at(TokKind::DoubleStar)) {
            ok = false;
            break;
          }
          d->keys.push_back(parseTest());
          expect(TokKind::Colon, "':' in the dict");
          d->values.push_back(parseTest());
        }
        if (ok && accept(TokKind::RBrace)) {
          d->loc = spanFrom(start);
          return d;
        }
        if (ok) expect(TokKind::RBrace, "',' or '}' in the dict");
      }
    } else if (at(TokKind::KwFor)) {  // {x for ...}
      return listComprehension(start, key, mark, TokKind::RBrace, true, true);
    } else if (!at(TokKind::KwAsync)) {
      // {a, b, ...}: a set display (no `*s` in it).
      auto *d = make<DictExpr>(start);
      d->isSet = true;
      d->keys.push_back(key);
      bool ok = true;
      while (accept(TokKind::Comma) && !at(TokKind::RBrace)) {
        if (at(TokKind::Star)) {
          ok = false;
          break;
        }
        d->keys.push_back(parseTest());
      }
      if (ok && accept(TokKind::RBrace)) {
        d->loc = spanFrom(start);
        return d;
      }
      if (ok) expect(TokKind::RBrace, "',' or '}' in the set");
    }
  }
  if (at(TokKind::KwFor) || at(TokKind::KwAsync))
    return comprehension(start, TokKind::RBrace,
                         isDict ? "dict comprehensions" : "set comprehensions");
  skipBracketed(TokKind::RBrace);
  unsupported(spanFrom(start), isDict ? "'**' unpacking in a dict display is not supported"
                                      : "'*' unpacking in a set display is not supported");
  return errorExpr(spanFrom(start));
}

Expr *Parser::parseStrings() {
  SourceLoc start = cur().loc;
  auto *s = make<StrLit>(start);
  bool first = true;
  while (at(TokKind::String)) {
    const Token &t = advance();
    if (t.isFString)
      unsupported(t.loc,
                  "f-strings are not supported in kernels; pass the values to print() "
                  "as separate arguments");
    if (!first && t.isBytes != s->isBytes) fail(t.loc, "cannot mix bytes and nonbytes literals");
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
  case TokKind::Error: throw Bail{};                 // the lexer reported it
  default:
    if (t.kind >= TokKind::KwFalse && t.kind <= TokKind::KwYield)
      fail(loc, fmt::format("invalid syntax: unexpected keyword '{}'", t.text));
    failExpected("an expression");
  }
}

}  // namespace kjit::ast::parser
