// ArrayExprs.h - array expressions on the CPU: `np.sqrt(x * x + y * y)`,
// `a > 0.5`, `np.where(m, a, 0)`, fused into one loop without temporaries.
//
// While a function is typed, each operation on arrays gives a pending node
// (IntrinsicId::ArrayExpr) that holds the element's expression as text in the
// kernel language, over the operands' elements ($k$ for operand k), and the
// operands themselves. An operation whose operand is itself a pending node
// (not yet bound to a variable) takes that node's text and operands in:
// `x * x + y * y` is one node with the text `($0$ * $0$) + ($1$ * $1$)` and
// the operands x and y. When the function's typing is final, each pending
// node becomes a call of a generated loop function (UfuncSource.h) that
// broadcasts the operands and computes the text for each element; the
// element's operations are the scalar ones the typer already has. That is a
// pass after inference (compiler/passes/LowerArrayExprs.cpp).
//
// Result types follow Numba's choice of NumPy loop: the operands' types
// promoted as NumPy promotes them, a Python int or float counting as int64
// or float64 (`float32_array * 2.0` is float64, `int32_array + 1` int64);
// true division and float functions of integers give float32 for integers of
// 16 bits or fewer and float64 otherwise; comparisons give bool. Each
// operand element is converted to the loop's type first and the result to
// the loop's result type, so that integer arithmetic wraps at the loop's
// width as NumPy's loops do.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "compiler/Builtins.h"
#include "compiler/UfuncSource.h"

namespace kjit {

// How a NumPy ufunc chooses its loop's types (see above).
enum class UfuncKind {
  Arithmetic,  // inputs and result in the promoted type
  FloatMath,   // the promoted type, made a float for integers
  Compare,     // inputs in the promoted type, result bool
  Predicate,   // inputs as they are, result bool (isnan, logical_not ...)
  Absolute,    // the promoted type; the float part for complex
  Select,      // as Arithmetic, in NumPy's promotion (np.where, not a ufunc)
};

// An operation on array operands (at least one an array): `text` is the
// scalar operation over {0}, {1} ... (`({0} + {1})`, `np.hypot({0}, {1})`),
// `scalar` types that operation on the operands' (converted) elements. `out`
// (or null): the array the result is written to, else a new array. Returns
// the pending node, or an error.
ir::Expr *arrayOperation(TyperServices &ts, UfuncKind kind, const std::string &text,
                         std::vector<ir::Expr *> operands,
                         const std::function<ir::Expr *(std::vector<ir::Expr *>)> &scalar,
                         SourceLoc loc, ir::Expr *out = nullptr);

// `target[...] = value` where target is an array (a view): the elements of
// `value` (an array or a scalar), broadcast, converted to the target's
// dtype. A pending node of the target's type.
ir::Expr *arrayAssignment(TyperServices &ts, ir::Expr *target, ir::Expr *value, SourceLoc loc);

// The NumPy spelling of scalar type t as generated code converts to it
// ("np.float32", "np.bool_").
std::string npName(const Type *t);

// Whether `e` is a pending array expression.
bool isPendingArrayExpr(const ir::Expr *e);

// The loop function a pending node becomes (UfuncSource.h): its operands
// are the node's first `operands` arguments, then the output array when the
// node writes into one (the last argument). `parallel` and `fastmath` are
// the options of the function that holds the node, which the loop takes.
UfuncLoopSpec pendingLoopSpec(const ir::Intrinsic *pending, bool parallel, uint32_t fastmath,
                              size_t &operands);

}  // namespace kjit
