// Passes.h - every pass over the typed IR, one free function each, in one
// list. A pass returns true when it changed the function. The order they run
// in is compiler/Pipeline.cpp.
#pragma once

#include "compiler/IR.h"

namespace kjit {
class TypeContext;
}

namespace kjit::passes {

// Folds constant arithmetic and comparisons, and `(a, b, c)[k]` to the k-th
// element when the others have no effects.
bool simplify(ir::Function &f, ir::IRArena &arena);

// True when evaluating `e` can have no effect but its value: no calls, no
// allocation, no output, nothing that can raise.
bool isPure(const ir::Expr *e);

}  // namespace kjit::passes
