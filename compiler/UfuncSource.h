// UfuncSource.h - NumPy ufuncs on arrays, as loops written in the kernel
// language: np.sin(a, out) in a kernel is a call of a generated function that
// loops over out's shape, broadcasting the operands, and calls np.sin on
// each element.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/GlobalEnv.h"

namespace kjit {

struct UfuncLoopSpec {
  std::string ufunc;             // the NumPy name: "sin", "add", ...
  std::vector<unsigned> inputs;  // each operand's ndim; 0 for a scalar
  unsigned ndim = 0;             // the result's ndim
  std::string allocateDtype;     // empty: the last argument is `out`;
                                 // else the NumPy dtype of a new result
  // An array expression (ArrayExprs.h): the element's expression in the
  // kernel language, `$k$` standing for operand k's element; empty for
  // `np.<ufunc>(operands)`.
  std::string element;
  // The caller's options: the outer loop is a prange under `parallel`.
  bool parallel = false;
  uint32_t fastmath = 0;
};

class Session;

// The loop for `spec`, made anew: `ufunc_loop(a0, ..., [out])`, returning
// the result array; `ordinal` (the how-manyth loop `session` makes) numbers
// its identity. The compiler asks Session::ufuncLoopFunction, which makes
// one function per spec (per ufuncLoopKey) and keeps it.
std::shared_ptr<FunctionSource> makeUfuncLoopFunction(Session &session, const UfuncLoopSpec &spec,
                                                      uint64_t ordinal);
// What tells two specs' loops apart.
std::string ufuncLoopKey(const UfuncLoopSpec &spec);

// The source text of that function (for tests and for reading).
std::string ufuncLoopSource(const UfuncLoopSpec &spec);

}  // namespace kjit
