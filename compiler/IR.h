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
//   assigned in a function is local to all of it).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/Types.h"
#include "frontend/AST.h"
#include "frontend/support/Casting.h"
#include "frontend/support/SourceLoc.h"

namespace kjit::ir {

enum class Kind : uint8_t {
#define IR_EXPR(N) N,
#define IR_STMT(N) N,
#include "compiler/IR.def"
};
const char *kindName(Kind k);

enum class IntrinsicId : uint16_t {
#define INTRINSIC(Id, Name, Arity) Id,
#include "compiler/Intrinsics.def"
};
const char *intrinsicName(IntrinsicId id);

enum class BinOp : uint8_t {
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, LShift, RShift, BitAnd, BitOr, BitXor,
  Lt, Gt, Le, Ge, Eq, Ne,
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

#define KJIT_IR_NODE(N, Base)                                            \
  static bool classof(const Node *n) { return n->kind() == Kind::N; }    \
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
  double f = 0;   // floats; complex real part
  double im = 0;  // complex imaginary part
  // A frozen global array (read-only, C order): its bytes and shape.
  std::shared_ptr<const std::string> bytes;
  std::vector<int64_t> shape;
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
  bool isIndex = false;  // an integer index drops the dimension
  Expr *start = nullptr, *stop = nullptr, *step = nullptr;  // int64 or null
};
struct ArrayView : Expr {
  KJIT_IR_NODE(ArrayView, Expr)
  Expr *array = nullptr;
  std::vector<SliceSpec> specs;  // one per leading dimension; the rest are ':'
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
  std::string text;  // Print: the format of string-literal pieces
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
  std::string name;          // the Python name
  std::string symbol;        // unique LLVM symbol
  std::vector<Var *> params;
  const Type *returnType = nullptr;
  Block body;
  std::vector<std::unique_ptr<Var>> vars;
  SourceLoc loc;
  // Code-generation options of this function.
  uint32_t fastmath = 0;  // FastMath flags
  bool boundscheck = false;
  bool numpyErrors = false;  // error_model='numpy' (FunctionSource::numpyErrors)
};

// Owns the IR nodes of one compilation.
class IRArena {
public:
  template <class T> T *make(SourceLoc loc) {
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

}  // namespace kjit::ir
