// CmathSource.h - the cmath functions written in the kernel language.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "compiler/GlobalEnv.h"

namespace kjit {

class Session;

// The function `name` (exp, sqrt, rect, log10, log_base, cos, cosh, sin, sinh,
// tan, tanh, acos, acosh, asin, asinh, atan, atanh) on complex128 made anew,
// or null; `ordinal` (the how-manyth cmath function `session` makes)
// numbers its identity. The compiler asks Session::cmathFunction, which
// makes each once and keeps it.
std::shared_ptr<FunctionSource> makeCmathFunction(Session &session, const std::string &name,
                                                  uint64_t ordinal);

}  // namespace kjit
