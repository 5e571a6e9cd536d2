// ModuleEnv.h - globals from a module file, for compiling without Python
// (kjitc, the unit tests): `import math`, `import numpy as np`,
// `from math import sqrt`, `from kjit import cuda, float32`, constants
// (`TPB = 16`, `SHAPE = (4, 4)`) and the module's other top-level functions
// resolve; nothing else does.
#pragma once

#include <memory>
#include <string>

#include "compiler/GlobalEnv.h"

namespace kjit {

// The FunctionSource of `function` in a module's text; null when the module
// has no such top-level function (or does not parse).
std::shared_ptr<FunctionSource> functionFromModule(const std::string &filename,
                                                   const std::string &text,
                                                   const std::string &function);

}  // namespace kjit
