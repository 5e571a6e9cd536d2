// Conversion.h - Numba's rules for converting a value of one type to
// another, and for choosing among declared signatures: what a call of a
// function compiled for explicit signatures converts its arguments to (the
// JIT driver's overloads, runtime/jit/Overloads.h, and calls of declared
// device functions in kernels).
#pragma once

#include <vector>

#include "compiler/Types.h"

namespace kjit {

// How a value of type `from` becomes one of type `to`, best first (Numba's
// typeconv rules: int8 -> int64 promotes, int32 -> float64 is safe, int64 ->
// float64 and float -> int are unsafe, complex -> real does not convert; an
// array converts to one of the same dtype and rank with layout 'A', and a
// writable one to a readonly one, safely).
enum class Conversion { Exact, Promote, Safe, Unsafe, None };
Conversion conversion(const Type *from, const Type *to);

// The indices in `candidates` of those `actual` converts to best (fewest
// unsafe conversions, then fewest safe ones, then fewest promotions, as
// Numba rates them): empty when none converts, more than one when the best
// are tied (an ambiguity).
std::vector<int> bestOverloads(const std::vector<const Type *> &actual,
                               const std::vector<const std::vector<const Type *> *> &candidates);

}  // namespace kjit
