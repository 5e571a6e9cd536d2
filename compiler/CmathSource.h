// CmathSource.h - the cmath functions written in the kernel language.
#pragma once

#include <memory>
#include <string>

#include "compiler/GlobalEnv.h"

namespace kjit {

// The function `name` (exp, sqrt, rect, log10, log_base, cos, cosh, sin, sinh,
// tan, tanh, acos, acosh, asin, asinh, atan, atanh) on complex128, or null.
std::shared_ptr<FunctionSource> cmathFunction(const std::string &name);

}  // namespace kjit
