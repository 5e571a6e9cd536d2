// NumpyLib.h - NumPy functions written in kjit's own kernel language.
//
// compiler/lib/numpy_lib.py is a module of ordinary kernel-language
// functions (`def linspace(start, stop, num=50, endpoint=True): ...`),
// compiled into the compiler as text. `np.<name>` for a name it defines
// (and that no builtin typing takes first) is that function: it is typed
// and specialised like the user's own jitted functions, keyword arguments
// and defaults included, so each NumPy function is written once, in the
// language it extends, and every target compiles it. Names that start with
// an underscore are helpers the typer calls for the language itself
// (`a[mask]`, `a[index_array]`).
#pragma once

#include <memory>
#include <string>

#include "compiler/GlobalEnv.h"

namespace kjit {

// The library's function `name`, or null when it has none.
std::shared_ptr<FunctionSource> numpyLibFunction(const std::string &name);

}  // namespace kjit
