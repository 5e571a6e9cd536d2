// IRBuilder.h - ir::Builder: the one way to make typed-IR nodes.
//
// One factory per node kind. Each takes the node's operands, sets the
// result type from them (IR.h's semantics: a comparison is bool, an
// ArrayLoad is the array's dtype, ...) or takes it where the operation
// decides it (Cast, Intrinsic, ArrayView), and checks the node with
// ir::checkNode, the rules ir::verify applies. A node that breaks them is a
// compiler bug, never a user error: the builder reports it as an internal
// error (on stderr, then an assert in debug builds) through its problem
// handler, which tests may replace to see the problems.
//
// An operand without a type (the typer's placeholder for an expression it
// cannot type yet) makes a result without a type where the result type
// comes from it; the rules skip what they cannot know.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "compiler/IR.h"
#include "compiler/Types.h"

namespace kjit::ir {

// Whether the typed IR is checked as it is made and between passes: in
// debug builds, and whenever KJIT_VERIFY=1 (the test suites set it).
bool checksRequested();

class Builder {
 public:
  // Called with a node just made and what is wrong with it.
  using ProblemHandler = std::function<void(const Node &, const std::vector<Problem> &)>;

  Builder(IRArena &arena, TypeContext &types)
      : arena_(arena), types_(types), checking_(checksRequested()) {}

  IRArena &arena() { return arena_; }
  TypeContext &types() { return types_; }
  // Also turns the checks on.
  void setProblemHandler(ProblemHandler h) {
    onProblem_ = std::move(h);
    checking_ = true;
  }

  // ---- expressions ----
  // A constant of type `t` (null: the typer's "not known yet"); its value
  // fields are the caller's to set.
  Const *constant(const Type *t, SourceLoc loc);
  Const *constInt(int64_t v, const Type *t, SourceLoc loc);  // ints, bools
  Const *constFloat(double v, const Type *t, SourceLoc loc);
  Const *constBool(bool v, SourceLoc loc);
  VarRef *varRef(Var *v, SourceLoc loc);  // of the variable's type
  Cast *cast(const Type *to, Expr *value, SourceLoc loc);
  // neg and invert are of the operand's type, not is bool.
  Unary *unary(UnOp op, Expr *operand, SourceLoc loc);
  // Of the left operand's type; comparisons are bool.
  Binary *binary(BinOp op, Expr *lhs, Expr *rhs, SourceLoc loc);
  // and/or of `operand`: lhs and lhsTruth are computed from it; of lhs's type.
  Logical *logical(bool isAnd, Expr *operand, Expr *lhs, Expr *lhsTruth, Expr *rhs, SourceLoc loc);
  Select *select(Expr *cond, Expr *ifTrue, Expr *ifFalse, SourceLoc loc);  // of ifTrue's type
  ArrayLoad *arrayLoad(Expr *array, std::vector<Expr *> indices, SourceLoc loc,
                       bool boundscheck = false, bool wraparound = true);
  ArrayView *arrayView(const Type *type, Expr *array, std::vector<SliceSpec> specs, SourceLoc loc,
                       bool boundscheck = false);
  TupleMake *tupleMake(std::vector<Expr *> elems, SourceLoc loc);  // of its elements' types
  TupleGet *tupleGet(Expr *tuple, unsigned index, SourceLoc loc);
  TupleGet *tupleGetDynamic(Expr *tuple, Expr *index,
                            SourceLoc loc);  // one element type, int64 index
  Call *call(Function *callee, std::vector<Expr *> args,
             SourceLoc loc);  // of the callee's return type
  // `text`: Intrinsic::text (a record intrinsic's field, an extern call's name).
  Intrinsic *intrinsic(IntrinsicId id, std::vector<Expr *> args, const Type *type, SourceLoc loc,
                       SubOp subOp = SubOp::None, std::string text = {});

  // ---- statements ----
  Assign *assign(Var *var, Expr *value, SourceLoc loc);
  Store *store(Expr *array, std::vector<Expr *> indices, Expr *value, SourceLoc loc,
               bool boundscheck = false, bool wraparound = true);
  If *ifStmt(Expr *cond, Block then, Block otherwise, SourceLoc loc);
  While *whileStmt(Expr *cond, Block body, Block orelse, SourceLoc loc);
  Try *tryStmt(Block body, Block handler, Block orelse, SourceLoc loc);
  // constStep is the step when it is a constant.
  ForRange *forRange(Var *var, Expr *start, Expr *stop, Expr *step, SourceLoc loc);
  Break *breakStmt(SourceLoc loc);
  Continue *continueStmt(SourceLoc loc);
  Return *returnStmt(Expr *value, SourceLoc loc);  // value null: returns none
  Raise *raise(std::string excClass, std::string message, SourceLoc loc);
  Eval *eval(Expr *value, SourceLoc loc);

 private:
  IRArena &arena_;
  TypeContext &types_;
  ProblemHandler onProblem_;
  bool checking_;

  // Checks `n` (IR.h's rules for one node) and returns it.
  template <class T>
  T *checked(T *n) {
    check(*n);
    return n;
  }
  void check(const Node &n);
};

}  // namespace kjit::ir
