// ModuleEnv.h - globals from a module file, for compiling without Python
// (kjitc, the unit tests): `import math`, `import numpy as np`,
// `from math import sqrt`, `from kjit import cuda, float32`, constants
// (`TPB = 16`, `SHAPE = (4, 4)`) and the module's other top-level functions
// resolve; nothing else does.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/GlobalEnv.h"

namespace kjit {

class Session;

// The FunctionSource of `function` in a module's text; null when the module
// has no such top-level function (or does not parse). What it imports from
// the modules kernels know resolves now, the library's functions as
// `session`'s (Builtins.h, moduleAttribute).
std::shared_ptr<FunctionSource> functionFromModule(Session &session, const std::string &filename,
                                                   const std::string &text,
                                                   const std::string &function);

// One file of a module whose text is split over several files.
struct ModuleFile {
  std::string filename;
  std::string text;
};

// As above, for a module split over `files`: each is parsed on its own (its
// functions' locations name it), and the globals of all of them (functions,
// imports, constants) are the module's, so that a function in one file
// calls those in the others. Of two definitions of a name, the later wins.
std::shared_ptr<FunctionSource> functionFromModule(Session &session,
                                                   const std::vector<ModuleFile> &files,
                                                   const std::string &function);

}  // namespace kjit
