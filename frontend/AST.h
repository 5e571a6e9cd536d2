// AST.h - the syntax tree of the kernel language.
//
// The AST is what the parser saw, nothing more: no types, no resolved names.
// Every node has a SourceLoc covering its whole text. Nodes live in an
// ASTContext arena and point to each other with plain pointers; a null child
// means "absent" (no else branch, no slice bound). The node kinds come from
// ASTNodes.def. Casting follows LLVM: isa<T>(n), cast<T>(n), dyn_cast<T>(n).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "frontend/support/Casting.h"
#include "frontend/support/SourceLoc.h"

namespace kjit::ast {

enum class NodeKind : uint8_t {
#define EXPR(N) N,
#define STMT(N) N,
#include "frontend/ASTNodes.def"
};
const char *nodeKindName(NodeKind k);

enum class UnaryOp : uint8_t { Neg, Pos, Invert, Not };
enum class BinaryOp : uint8_t {
  Add,
  Sub,
  Mul,
  Div,
  FloorDiv,
  Mod,
  Pow,
  MatMul,
  LShift,
  RShift,
  BitAnd,
  BitOr,
  BitXor
};
enum class BoolOp : uint8_t { And, Or };
enum class CmpOp : uint8_t { Lt, Gt, Le, Ge, Eq, Ne, Is, IsNot, In, NotIn };

const char *spelling(UnaryOp op);
const char *spelling(BinaryOp op);
const char *spelling(BoolOp op);
const char *spelling(CmpOp op);

class Node {
 public:
  virtual ~Node() = default;
  NodeKind kind() const { return kind_; }
  SourceLoc loc;

 protected:
  Node(NodeKind k, SourceLoc l) : loc(l), kind_(k) {}

 private:
  NodeKind kind_;
};

class Expr : public Node {
 public:
  static bool classof(const Node *n) { return n->kind() <= NodeKind::ErrorExpr; }

 protected:
  using Node::Node;
};

class Stmt : public Node {
 public:
  static bool classof(const Node *n) { return n->kind() >= NodeKind::FunctionDef; }

 protected:
  using Node::Node;
};

using kjit::cast;  // frontend/support/Casting.h
using kjit::dyn_cast;
using kjit::isa;

#define KJIT_AST_NODE(N, Base)                                            \
  static constexpr NodeKind Kind = NodeKind::N;                           \
  static bool classof(const Node *n) { return n->kind() == NodeKind::N; } \
  explicit N(SourceLoc l) : Base(NodeKind::N, l) {}

// ---- expressions ----------------------------------------------------------

struct NameExpr : Expr {
  KJIT_AST_NODE(NameExpr, Expr)
  std::string name;
};
struct IntLit : Expr {
  KJIT_AST_NODE(IntLit, Expr)
  uint64_t value = 0;
  bool tooLarge = false;  // does not fit in 64 bits
  std::string text;       // as written
};
struct FloatLit : Expr {
  KJIT_AST_NODE(FloatLit, Expr)
  double value = 0;
  std::string text;
};
struct ImagLit : Expr {
  KJIT_AST_NODE(ImagLit, Expr)
  double value = 0;  // the imaginary part
  std::string text;
};
struct StrLit : Expr {
  KJIT_AST_NODE(StrLit, Expr)
  std::string value;
  bool isBytes = false;
};
struct BoolLit : Expr {
  KJIT_AST_NODE(BoolLit, Expr)
  bool value = false;
};
struct NoneLit : Expr {
  KJIT_AST_NODE(NoneLit, Expr)
};
struct EllipsisLit : Expr {
  KJIT_AST_NODE(EllipsisLit, Expr)
};
struct UnaryExpr : Expr {
  KJIT_AST_NODE(UnaryExpr, Expr)
  UnaryOp op = UnaryOp::Neg;
  Expr *operand = nullptr;
};
struct BinaryExpr : Expr {
  KJIT_AST_NODE(BinaryExpr, Expr)
  BinaryOp op = BinaryOp::Add;
  Expr *lhs = nullptr;
  Expr *rhs = nullptr;
};
struct BoolOpExpr : Expr {
  KJIT_AST_NODE(BoolOpExpr, Expr)
  BoolOp op = BoolOp::And;
  std::vector<Expr *> values;  // two or more
};
struct CompareExpr : Expr {
  KJIT_AST_NODE(CompareExpr, Expr)
  Expr *lhs = nullptr;
  std::vector<CmpOp> ops;           // a < b <= c: ops = {<, <=}
  std::vector<Expr *> comparators;  //              comparators = {b, c}
};
struct IfExpr : Expr {
  KJIT_AST_NODE(IfExpr, Expr)
  Expr *test = nullptr;
  Expr *body = nullptr;
  Expr *orelse = nullptr;
};
struct Keyword {
  std::string name;
  SourceLoc loc;  // of the name
  Expr *value = nullptr;
};
struct CallExpr : Expr {
  KJIT_AST_NODE(CallExpr, Expr)
  Expr *func = nullptr;
  std::vector<Expr *> args;
  std::vector<Keyword> keywords;
  std::vector<bool> starred;  // f(a, *t): parallel to args (empty when none is)
  bool isStarred(size_t i) const { return i < starred.size() && starred[i]; }
};
struct AttributeExpr : Expr {
  KJIT_AST_NODE(AttributeExpr, Expr)
  Expr *value = nullptr;
  std::string attr;
  SourceLoc attrLoc;
};
struct SubscriptExpr : Expr {
  KJIT_AST_NODE(SubscriptExpr, Expr)
  Expr *value = nullptr;
  Expr *index = nullptr;  // a TupleExpr for a[i, j]
};
struct SliceExpr : Expr {
  KJIT_AST_NODE(SliceExpr, Expr)
  Expr *lower = nullptr;  // each may be null
  Expr *upper = nullptr;
  Expr *step = nullptr;
};
struct TupleExpr : Expr {
  KJIT_AST_NODE(TupleExpr, Expr)
  std::vector<Expr *> elts;
  bool parenthesized = false;
};
struct ListExpr : Expr {
  KJIT_AST_NODE(ListExpr, Expr)
  std::vector<Expr *> elts;
  // The empty list a comprehension starts from: "a list comprehension", "a
  // generator expression" (what a kernel that refuses lists says); null
  // for a display.
  const char *comprehension = nullptr;
};
// A dict display {k: v, ...}, or a set display {a, b, ...} (isSet: the
// elements are `keys`, `values` is empty; an empty one is the set a set
// comprehension starts from).
struct DictExpr : Expr {
  KJIT_AST_NODE(DictExpr, Expr)
  std::vector<Expr *> keys;
  std::vector<Expr *> values;  // parallel to keys; empty for a set
  bool isSet = false;
};
struct Param {
  std::string name;
  SourceLoc loc;
  Expr *annotation = nullptr;
  Expr *defaultValue = nullptr;
  bool varargs = false;  // *name: the last parameter, a tuple of the extra positionals
};
struct LambdaExpr : Expr {
  KJIT_AST_NODE(LambdaExpr, Expr)
  std::vector<Param> params;
  Expr *body = nullptr;
};
struct ErrorExpr : Expr {
  KJIT_AST_NODE(ErrorExpr, Expr)
};

// ---- statements -----------------------------------------------------------

using StmtList = std::vector<Stmt *>;

struct FunctionDef : Stmt {
  KJIT_AST_NODE(FunctionDef, Stmt)
  std::string name;
  SourceLoc nameLoc;
  std::vector<Expr *> decorators;
  std::vector<Param> params;
  Expr *returns = nullptr;  // the -> annotation
  std::string docstring;
  bool hasDocstring = false;
  StmtList body;
  // A generator: its `yield e` statements became `$gen.append(e)` and its
  // returns `return $gen` (Parser::finishGenerator); yieldLoc is the first.
  bool isGenerator = false;
  SourceLoc yieldLoc;
};
struct ReturnStmt : Stmt {
  KJIT_AST_NODE(ReturnStmt, Stmt)
  Expr *value = nullptr;
};
struct PassStmt : Stmt {
  KJIT_AST_NODE(PassStmt, Stmt)
};
struct BreakStmt : Stmt {
  KJIT_AST_NODE(BreakStmt, Stmt)
};
struct ContinueStmt : Stmt {
  KJIT_AST_NODE(ContinueStmt, Stmt)
};
struct IfStmt : Stmt {
  KJIT_AST_NODE(IfStmt, Stmt)
  Expr *test = nullptr;
  StmtList body;
  StmtList orelse;
  bool isElif = false;  // this IfStmt was written as `elif`
};
struct WhileStmt : Stmt {
  KJIT_AST_NODE(WhileStmt, Stmt)
  Expr *test = nullptr;
  StmtList body;
  StmtList orelse;
};
struct ForStmt : Stmt {
  KJIT_AST_NODE(ForStmt, Stmt)
  Expr *target = nullptr;  // a NameExpr or a TupleExpr of targets
  Expr *iter = nullptr;
  StmtList body;
  StmtList orelse;
};
// `except E:` (type: E, a tuple of classes, or null for a bare `except:`).
struct ExceptHandler {
  Expr *type = nullptr;
  SourceLoc loc;
  StmtList body;
};
struct TryStmt : Stmt {
  KJIT_AST_NODE(TryStmt, Stmt)
  StmtList body;
  std::vector<ExceptHandler> handlers;
  StmtList orelse;
};
struct AssignStmt : Stmt {
  KJIT_AST_NODE(AssignStmt, Stmt)
  std::vector<Expr *> targets;  // a = b = v: targets = {a, b}
  Expr *value = nullptr;
};
struct AugAssignStmt : Stmt {
  KJIT_AST_NODE(AugAssignStmt, Stmt)
  Expr *target = nullptr;
  BinaryOp op = BinaryOp::Add;
  Expr *value = nullptr;
};
struct AnnAssignStmt : Stmt {
  KJIT_AST_NODE(AnnAssignStmt, Stmt)
  Expr *target = nullptr;
  Expr *annotation = nullptr;
  Expr *value = nullptr;  // may be null: `x: int32`
};
struct AssertStmt : Stmt {
  KJIT_AST_NODE(AssertStmt, Stmt)
  Expr *test = nullptr;
  Expr *msg = nullptr;
};
struct RaiseStmt : Stmt {
  KJIT_AST_NODE(RaiseStmt, Stmt)
  Expr *exc = nullptr;  // null for a bare `raise`
};
struct ExprStmt : Stmt {
  KJIT_AST_NODE(ExprStmt, Stmt)
  Expr *value = nullptr;
};
struct ImportAlias {
  std::string name;    // dotted: numba.cuda
  std::string asname;  // empty when absent
  SourceLoc loc;
};
struct ImportStmt : Stmt {
  KJIT_AST_NODE(ImportStmt, Stmt)
  std::string fromModule;  // set for `from m import ...`; dots for relative
  bool isFrom = false;
  std::vector<ImportAlias> names;
};

#undef KJIT_AST_NODE

// Owns every node of one parse.
class ASTContext {
 public:
  template <class T>
  T *make(SourceLoc loc) {
    auto node = std::make_unique<T>(loc);
    T *raw = node.get();
    nodes_.push_back(std::move(node));
    return raw;
  }
  size_t nodeCount() const { return nodes_.size(); }

 private:
  std::vector<std::unique_ptr<Node>> nodes_;
};

// A parsed module file or function text.
struct Module {
  uint32_t fileId = 0;
  StmtList body;  // top-level statements that were parsed (defs, imports, ...)
  std::vector<FunctionDef *> functions;    // the top-level defs parsed, in order
  std::vector<std::string> functionNames;  // every top-level def, parsed or skipped
  // The last def of that name wins, as in Python.
  const FunctionDef *findFunction(const std::string &name) const {
    for (auto it = functions.rbegin(); it != functions.rend(); ++it)
      if ((*it)->name == name) return *it;
    return nullptr;
  }
};

// Calls f(child) for each child node of `n` that is present, in source order.
template <class F>
void forEachChild(const Node *n, F &&f) {
  auto one = [&](const Node *c) {
    if (c) f(c);
  };
  auto all = [&](const auto &nodes) {
    for (const Node *c : nodes) one(c);
  };
  auto params = [&](const std::vector<Param> &ps) {
    for (const Param &p : ps) {
      one(p.annotation);
      one(p.defaultValue);
    }
  };
  switch (n->kind()) {
  case NodeKind::NameExpr:
  case NodeKind::IntLit:
  case NodeKind::FloatLit:
  case NodeKind::ImagLit:
  case NodeKind::StrLit:
  case NodeKind::BoolLit:
  case NodeKind::NoneLit:
  case NodeKind::EllipsisLit:
  case NodeKind::ErrorExpr:
  case NodeKind::PassStmt:
  case NodeKind::BreakStmt:
  case NodeKind::ContinueStmt:
  case NodeKind::ImportStmt: return;
  case NodeKind::UnaryExpr: return one(cast<UnaryExpr>(n)->operand);
  case NodeKind::BinaryExpr: one(cast<BinaryExpr>(n)->lhs); return one(cast<BinaryExpr>(n)->rhs);
  case NodeKind::BoolOpExpr: return all(cast<BoolOpExpr>(n)->values);
  case NodeKind::CompareExpr:
    one(cast<CompareExpr>(n)->lhs);
    return all(cast<CompareExpr>(n)->comparators);
  case NodeKind::IfExpr: {
    auto *e = cast<IfExpr>(n);  // body if test else orelse
    one(e->body);
    one(e->test);
    return one(e->orelse);
  }
  case NodeKind::CallExpr: {
    auto *c = cast<CallExpr>(n);
    one(c->func);
    all(c->args);
    for (const Keyword &k : c->keywords) one(k.value);
    return;
  }
  case NodeKind::AttributeExpr: return one(cast<AttributeExpr>(n)->value);
  case NodeKind::SubscriptExpr:
    one(cast<SubscriptExpr>(n)->value);
    return one(cast<SubscriptExpr>(n)->index);
  case NodeKind::SliceExpr: {
    auto *s = cast<SliceExpr>(n);
    one(s->lower);
    one(s->upper);
    return one(s->step);
  }
  case NodeKind::TupleExpr: return all(cast<TupleExpr>(n)->elts);
  case NodeKind::ListExpr: return all(cast<ListExpr>(n)->elts);
  case NodeKind::DictExpr: {
    auto *d = cast<DictExpr>(n);
    for (size_t i = 0; i < d->keys.size(); ++i) {
      one(d->keys[i]);
      if (i < d->values.size()) one(d->values[i]);
    }
    return;
  }
  case NodeKind::LambdaExpr:
    params(cast<LambdaExpr>(n)->params);
    return one(cast<LambdaExpr>(n)->body);
  case NodeKind::FunctionDef: {
    auto *fn = cast<FunctionDef>(n);
    all(fn->decorators);
    params(fn->params);
    one(fn->returns);
    return all(fn->body);
  }
  case NodeKind::ReturnStmt: return one(cast<ReturnStmt>(n)->value);
  case NodeKind::IfStmt: {
    auto *s = cast<IfStmt>(n);
    one(s->test);
    all(s->body);
    return all(s->orelse);
  }
  case NodeKind::WhileStmt: {
    auto *s = cast<WhileStmt>(n);
    one(s->test);
    all(s->body);
    return all(s->orelse);
  }
  case NodeKind::TryStmt: {
    auto *s = cast<TryStmt>(n);
    all(s->body);
    for (const ExceptHandler &h : s->handlers) {
      one(h.type);
      all(h.body);
    }
    return all(s->orelse);
  }
  case NodeKind::ForStmt: {
    auto *s = cast<ForStmt>(n);
    one(s->target);
    one(s->iter);
    all(s->body);
    return all(s->orelse);
  }
  case NodeKind::AssignStmt:
    all(cast<AssignStmt>(n)->targets);
    return one(cast<AssignStmt>(n)->value);
  case NodeKind::AugAssignStmt:
    one(cast<AugAssignStmt>(n)->target);
    return one(cast<AugAssignStmt>(n)->value);
  case NodeKind::AnnAssignStmt: {
    auto *s = cast<AnnAssignStmt>(n);
    one(s->target);
    one(s->annotation);
    return one(s->value);
  }
  case NodeKind::AssertStmt: one(cast<AssertStmt>(n)->test); return one(cast<AssertStmt>(n)->msg);
  case NodeKind::RaiseStmt: return one(cast<RaiseStmt>(n)->exc);
  case NodeKind::ExprStmt: return one(cast<ExprStmt>(n)->value);
  }
}

// Calls the Derived class's visitX(X*) for the node's kind.
template <class Derived, class R = void>
class Visitor {
 public:
  R visit(Node *n) {
    switch (n->kind()) {
#define EXPR(N) \
  case NodeKind::N: return static_cast<Derived *>(this)->visit##N(cast<N>(n));
#define STMT(N) EXPR(N)
#include "frontend/ASTNodes.def"
    }
    return R();
  }
};

}  // namespace kjit::ast
