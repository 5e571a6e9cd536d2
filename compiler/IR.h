// IR.h - the typed IR, and what it means.
//
// The typed IR is what type inference produces and lowering consumes. It is
// structured (if/while/for stay structures, so passes can reason about loops
// and the GPU targets keep their shape) and every expression has a Type.
//
// Semantics:
// - Operands of Binary are already of the operation's type (the typer
//   inserts Casts), except comparisons, whose operands share a type and whose
//   result is bool, and shifts, whose right operand may differ.
// - Integer arithmetic wraps (two's complement), as in Numba and NumPy.
//   Integer `//` and `%` follow Python (floor toward -inf, remainder with the
//   sign of the divisor); division by zero raises ZeroDivisionError, for
//   integers and for floats (Numba's default error model).
// - Evaluation is left to right; and/or/Select evaluate lazily. A node may
//   appear more than once in one statement's tree (a shared operand);
//   lowering evaluates it once where the first use dominates the others.
// - An array value is a descriptor {meminfo, data, shape[n], strides[n]};
//   strides are in bytes. ArrayLoad/Store take one int64 index per dimension,
//   already wrapped for negative values unless the typer proved them
//   non-negative (`wraparound` false) and checked only when `boundscheck`.
// - Variables are function-local and typed once (Python scoping: any name
//   assigned in a function is local to all of it); assignments whose values
//   no read shares are separate variables (`x.1`), as in Numba's SSA.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "compiler/Types.h"
#include "frontend/AST.h"
#include "frontend/support/Casting.h"
#include "frontend/support/SourceLoc.h"

namespace kjit::ir {

enum class Kind : uint8_t {
#define IR_EXPR(N, Children) N,
#define IR_STMT(N, Children) N,
#include "compiler/IR.def"
};
const char *kindName(Kind k);

enum class IntrinsicId : uint16_t {
#define INTRINSIC(Id, Name, Arity, Memory, Raises, Sync) Id,
#include "compiler/Intrinsics.def"
};
// The sub-operation of an intrinsic that has several (atomic.add,
// shfl_sync.down ...); None for the others.
enum class SubOp : uint8_t {
  None,
#define INTRINSIC_SUBOP(Intrinsic, Id, Name, KernelName) Id,
#include "compiler/Intrinsics.def"
};
// Intrinsics.def's columns (Intrinsics.cpp).
enum class MemoryEffect : uint8_t { NoMem, ReadMem, WriteMem };
struct IntrinsicInfo {
  const char *name;
  int arity;  // -1: variable
  MemoryEffect memory;
  bool mayRaise;
  bool barrier;
  // Removable when unused, mergeable when repeated.
  bool pure() const { return memory == MemoryEffect::NoMem && !mayRaise && !barrier; }
};
const IntrinsicInfo &intrinsicInfo(IntrinsicId id);
inline const char *intrinsicName(IntrinsicId id) { return intrinsicInfo(id).name; }
inline int intrinsicArity(IntrinsicId id) { return intrinsicInfo(id).arity; }
// The reductions over every element of an array (sum, prod, min, max, all,
// any, count_nonzero, the nan* family, var): they read the array and keep
// no reference to it.
bool isArrayReduction(IntrinsicId id);
struct SubOpInfo {
  IntrinsicId intrinsic;
  const char *name;        // as printed: atomic.add
  const char *kernelName;  // the kernel language's: cuda.atomic.add, cuda.shfl_up_sync
};
const SubOpInfo &subOpInfo(SubOp op);  // not for SubOp::None
// The sub-operation of `id` printed as `name`; SubOp::None when there is none.
SubOp subOpNamed(IntrinsicId id, const std::string &name);

enum class BinOp : uint8_t {
  Add,
  Sub,
  Mul,
  Div,
  FloorDiv,
  Mod,
  Pow,
  LShift,
  RShift,
  BitAnd,
  BitOr,
  BitXor,
  Lt,
  Gt,
  Le,
  Ge,
  Eq,
  Ne,
};
enum class UnOp : uint8_t { Neg, Not, Invert };
const char *spelling(BinOp op);
const char *spelling(UnOp op);
inline bool isComparison(BinOp op) { return op >= BinOp::Lt; }

class Node {
 public:
  virtual ~Node() = default;
  Kind kind() const { return kind_; }
  SourceLoc loc;

 protected:
  Node(Kind k, SourceLoc l) : loc(l), kind_(k) {}

 private:
  Kind kind_;
};

class Expr : public Node {
 public:
  const Type *type = nullptr;
  static bool classof(const Node *n) { return n->kind() <= Kind::Intrinsic; }

 protected:
  using Node::Node;
};

class Stmt : public Node {
 public:
  static bool classof(const Node *n) { return n->kind() >= Kind::Assign; }

 protected:
  using Node::Node;
};

using kjit::cast;  // frontend/support/Casting.h
using kjit::dyn_cast;
using kjit::isa;

#define KJIT_IR_NODE(N, Base)                                         \
  static bool classof(const Node *n) { return n->kind() == Kind::N; } \
  explicit N(SourceLoc l) : Base(Kind::N, l) {}

struct Var {
  std::string name;
  const Type *type = nullptr;
  SourceLoc loc;  // first assignment
  unsigned id = 0;
  bool isParam = false;
};

// ---- expressions ----
struct Const : Expr {
  KJIT_IR_NODE(Const, Expr)
  int64_t i = 0;  // ints and bools (uint64 as its bit pattern)
  // A NumPy-typed integer (np.int64(5), and what arithmetic on one folds
  // to): folded arithmetic wraps as NumPy's; a Python int literal's is exact.
  bool wraps = false;
  double f = 0;   // floats; complex real part
  double im = 0;  // complex imaginary part
  // A frozen global array (read-only, C order): its bytes and shape. A
  // device array captured by reference (no bytes): its address (i), shape
  // and strides in bytes.
  std::shared_ptr<const std::string> bytes;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
};
struct VarRef : Expr {
  KJIT_IR_NODE(VarRef, Expr)
  Var *var = nullptr;
};
struct Cast : Expr {
  KJIT_IR_NODE(Cast, Expr)
  Expr *value = nullptr;
};
struct Unary : Expr {
  KJIT_IR_NODE(Unary, Expr)
  UnOp op = UnOp::Neg;
  Expr *operand = nullptr;
};
struct Binary : Expr {
  KJIT_IR_NODE(Binary, Expr)
  BinOp op = BinOp::Add;
  Expr *lhs = nullptr;
  Expr *rhs = nullptr;
};
struct Logical : Expr {
  KJIT_IR_NODE(Logical, Expr)
  bool isAnd = true;
  Expr *lhs = nullptr;       // the left operand converted to the result type
  Expr *rhs = nullptr;       // the right operand converted to the result type
  Expr *lhsTruth = nullptr;  // bool: the truth value of the left operand
  // lhs and lhsTruth are both computed from this node, which lowering
  // evaluates once.
  Expr *operand = nullptr;
};
struct Select : Expr {
  KJIT_IR_NODE(Select, Expr)
  Expr *cond = nullptr;  // bool
  Expr *ifTrue = nullptr;
  Expr *ifFalse = nullptr;
};
struct ArrayLoad : Expr {
  KJIT_IR_NODE(ArrayLoad, Expr)
  Expr *array = nullptr;
  std::vector<Expr *> indices;  // int64, one per dimension
  bool wraparound = true;
  bool boundscheck = false;
};
struct SliceSpec {
  bool isIndex = false;                                     // an integer index drops the dimension
  Expr *start = nullptr, *stop = nullptr, *step = nullptr;  // int64 or null
  bool isNewAxis = false;  // None / np.newaxis: a new dimension of length 1 (no array dimension)
};
struct ArrayView : Expr {
  KJIT_IR_NODE(ArrayView, Expr)
  Expr *array = nullptr;
  std::vector<SliceSpec> specs;  // one per leading dimension (new axes: none); the rest are ':'
  bool boundscheck = false;
};
struct TupleMake : Expr {
  KJIT_IR_NODE(TupleMake, Expr)
  std::vector<Expr *> elems;
};
struct TupleGet : Expr {
  KJIT_IR_NODE(TupleGet, Expr)
  Expr *tuple = nullptr;
  unsigned index = 0;
  // t[i] with a run-time int64 i (tuples of one element type): `index` is
  // unused; negative i counts from the end, out of range raises IndexError.
  Expr *dynIndex = nullptr;
};
struct Function;
struct Call : Expr {
  KJIT_IR_NODE(Call, Expr)
  Function *callee = nullptr;
  std::vector<Expr *> args;
};
struct Intrinsic : Expr {
  KJIT_IR_NODE(Intrinsic, Expr)
  IntrinsicId id = IntrinsicId::Sqrt;
  std::vector<Expr *> args;
  SubOp subOp = SubOp::None;  // atomic.add, shfl_sync.down, vote_sync.any ...
  std::string text;           // Print: the format of string-literal pieces
};

// ---- statements ----
using Block = std::vector<Stmt *>;

struct Assign : Stmt {
  KJIT_IR_NODE(Assign, Stmt)
  Var *var = nullptr;
  Expr *value = nullptr;  // of var->type
};
struct Store : Stmt {
  KJIT_IR_NODE(Store, Stmt)
  Expr *array = nullptr;
  std::vector<Expr *> indices;
  Expr *value = nullptr;  // of the array's dtype
  bool wraparound = true;
  bool boundscheck = false;
};
struct If : Stmt {
  KJIT_IR_NODE(If, Stmt)
  Expr *cond = nullptr;
  Block then, otherwise;
};
struct While : Stmt {
  KJIT_IR_NODE(While, Stmt)
  Expr *cond = nullptr;
  Block body;
  Block orelse;  // runs when the loop ends without break
};
// try/except: when `body` raises (directly or in a call), `handler` runs
// with the exception still recorded; it decides with the ExcMatches,
// ExcClear and ExcReraise intrinsics (the typer makes it an if/elif chain
// over the except clauses). `orelse` runs after a body that did not raise.
struct Try : Stmt {
  KJIT_IR_NODE(Try, Stmt)
  Block body;
  Block handler;
  Block orelse;
};
struct ForRange : Stmt {
  KJIT_IR_NODE(ForRange, Stmt)
  Var *var = nullptr;  // int64
  Expr *start = nullptr, *stop = nullptr, *step = nullptr;
  int64_t constStep = 0;  // nonzero when the step is a known constant
  Block body;
  Block orelse;
  bool parallel = false;  // prange
};
struct Break : Stmt {
  KJIT_IR_NODE(Break, Stmt)
};
struct Continue : Stmt {
  KJIT_IR_NODE(Continue, Stmt)
};
struct Return : Stmt {
  KJIT_IR_NODE(Return, Stmt)
  Expr *value = nullptr;  // null for none
};
struct Raise : Stmt {
  KJIT_IR_NODE(Raise, Stmt)
  std::string excClass;  // ValueError, AssertionError, ...
  std::string message;
};
struct Eval : Stmt {
  KJIT_IR_NODE(Eval, Stmt)
  Expr *value = nullptr;
};

#undef KJIT_IR_NODE

// One compiled function: a kjit function specialised for argument types.
struct Function {
  std::string name;    // the Python name
  std::string symbol;  // unique LLVM symbol
  std::vector<Var *> params;
  const Type *returnType = nullptr;
  Block body;
  std::vector<std::unique_ptr<Var>> vars;
  SourceLoc loc;
  // Code-generation options of this function.
  uint32_t fastmath = 0;  // FastMath flags
  bool boundscheck = false;
  bool numpyErrors = false;  // error_model='numpy' (FunctionSource::numpyErrors)
  bool parallel = false;     // parallel=True: array expressions' loops are pranges
  // Facts that passes found for lowering.
  std::vector<char> ownsArray;  // by Var::id (passes::arrayOwnership)
};

// Owns the IR nodes of one compilation.
class IRArena {
 public:
  template <class T>
  T *make(SourceLoc loc) {
    auto n = std::make_unique<T>(loc);
    T *raw = n.get();
    nodes_.push_back(std::move(n));
    return raw;
  }
  Function *makeFunction() {
    functions_.push_back(std::make_unique<Function>());
    return functions_.back().get();
  }

 private:
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<Function>> functions_;
};

// The textual form for kjitc --emit=ir and inspect_types().
std::string print(const Function &f);

// One thing wrong in a function's IR, found by verify().
struct Problem {
  SourceLoc loc;
  std::string message;  // lower-case, says what was found and what is allowed
};
// Checks the semantics written at the top of this file: every expression has
// a type, operand types are those of the operation, indices are int64 and
// one per dimension, stored values are of the dtype, break/continue are in
// loops, returned values are of the return type... Empty when all hold. A
// problem is a compiler bug, never a user error (IRVerifier.cpp).
std::vector<Problem> verify(const Function &f);
// The rules of one node by itself: its type against its operands' types and
// the count of its children (the part of the semantics above that needs
// nothing around the node; variables' owners, loops and the return type are
// verify()'s). Appends what is wrong to `out` (IRChecks.cpp). verify()
// applies it to every node, ir::Builder (IRBuilder.h) to each node it makes.
void checkNode(const Node &n, std::vector<Problem> &out);

// ---- walks over children, made from IR.def's child lists ----

// Calls onExpr(slot) for each present expression child of `n` (a reference
// to the field, `Expr *&` or `Expr *const &` when `n` is const) and
// onBlock(block) for each nested block, in IR.def's order.
template <class NodeT, class OnExpr, class OnBlock>
void forEachSlot(NodeT *node, OnExpr &&onExpr, OnBlock &&onBlock) {
  using Base = std::conditional_t<std::is_const_v<NodeT>, const Node, Node>;
  Base *n = node;
  switch (n->kind()) {
#define IR_CHILD(f) \
  if (x->f) onExpr(x->f);
#define IR_CHILDREN(f) \
  for (auto &c : x->f) \
    if (c) onExpr(c);
#define IR_SLICES(f)                \
  for (auto &sp : x->f) {           \
    if (sp.start) onExpr(sp.start); \
    if (sp.stop) onExpr(sp.stop);   \
    if (sp.step) onExpr(sp.step);   \
  }
#define IR_BLOCK(f) onBlock(x->f);
#define IR_EXPR(N, Children) \
  case Kind::N: {            \
    auto *x = cast<N>(n);    \
    (void)x;                 \
    Children break;          \
  }
#define IR_STMT(N, Children) IR_EXPR(N, Children)
#include "compiler/IR.def"
#undef IR_CHILD
#undef IR_CHILDREN
#undef IR_SLICES
#undef IR_BLOCK
  }
}

// Calls fn on each child of `n`: its expressions and the statements of its
// nested blocks, in IR.def's order (not recursively).
template <class F>
void forEachChild(const Node *n, F &&fn) {
  forEachSlot(
      n, [&](const Expr *e) { fn(static_cast<const Node *>(e)); },
      [&](const Block &b) {
        for (const Stmt *s : b) fn(static_cast<const Node *>(s));
      });
}
template <class F>
void forEachChild(Node *n, F &&fn) {
  forEachSlot(
      n, [&](Expr *e) { fn(static_cast<Node *>(e)); },
      [&](Block &b) {
        for (Stmt *s : b) fn(static_cast<Node *>(s));
      });
}

// Calls fn on `n` and every node under it, parents first.
template <class F>
void forEachNode(const Node *n, F &&fn) {
  fn(n);
  forEachChild(n, [&](const Node *c) { forEachNode(c, fn); });
}
template <class F>
void forEachNode(const Block &b, F &&fn) {
  for (const Stmt *s : b) forEachNode(static_cast<const Node *>(s), fn);
}

// Rewrites a tree in place. mutate(e) returns what replaces `e` in its
// parent (e itself to keep it); the defaults rewrite the children and keep
// the node. A pass overrides the cases it cares about and calls
// mutateChildren for the rest (and says `using Mutator::mutate;`, so that
// its overrides hide none of the overloads).
class Mutator {
 public:
  virtual ~Mutator() = default;
  virtual Expr *mutate(Expr *e) {
    mutateChildren(e);
    return e;
  }
  virtual void mutate(Stmt *s) { mutateChildren(s); }
  void mutate(Block &b) {
    for (Stmt *s : b) mutate(s);
  }
  void mutate(Function &f) { mutate(f.body); }
  // Replaces each expression child with mutate(child) and mutates each
  // nested block.
  void mutateChildren(Node *n) {
    forEachSlot(n, [&](Expr *&slot) { slot = mutate(slot); }, [&](Block &b) { mutate(b); });
  }
};

}  // namespace kjit::ir
