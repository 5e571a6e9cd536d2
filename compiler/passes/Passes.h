// Passes.h - every pass over the typed IR, one free function each, in one
// list. A pass returns true when it changed the function. The order they run
// in is compiler/Pipeline.cpp.
#pragma once

#include "compiler/IR.h"
#include "compiler/IRBuilder.h"

namespace kjit {
class Context;
class TypeContext;
struct TypedProgram;
}  // namespace kjit

namespace kjit::passes {

// Folds constant arithmetic and comparisons, and `(a, b, c)[k]` to the k-th
// element when the others have no effects; the constants it makes come
// from `ir`.
bool simplify(ir::Function &f, ir::Builder &ir);

// Makes each pending array expression of the typer (compiler/ArrayExprs.h)
// a call of its loop function, typed for it in the program's typer; the
// loops join prog.functions before their callers. A pass over the whole
// program, first: no other pass sees a pending node.
bool lowerArrayExprs(Context &ctx, TypedProgram &prog);

// Expands the typer's sequence walks (for loops over arrays, lists and
// tuples; enumerate; zip): SequenceLength and SequenceItem become the
// sequence kind's own operations (an array's shape and element or view, a
// list's length and element, a tuple's element at a run-time index). Runs
// first: no other pass, and no lowering, sees the two intrinsics.
bool expandSequences(ir::Function &f, ir::Builder &ir);

// Finds the array variables that own their arrays outright (every value
// assigned is a new array, read only in ways that keep no reference), into
// f.ownsArray; lowering frees such an array when the next one is assigned.
// An analysis: it changes no node.
bool arrayOwnership(ir::Function &f);

// True when evaluating `e` can have no effect but its value: no calls, no
// allocation, no output, nothing that can raise.
bool isPure(const ir::Expr *e);

}  // namespace kjit::passes
