// NumpyLib.h - NumPy functions and Python builtins written in kjit's own
// kernel language.
//
// The numpy library, compiler/lib/numpy/*.kjit, is a module of ordinary
// kernel-language functions (`def linspace(start, stop, num=50,
// endpoint=True): ...`), compiled into the compiler as text. `np.<name>`
// for a name it defines (and that no builtin typing takes first) is that
// function: it is typed and specialised like the user's own jitted
// functions, keyword arguments and defaults included, so each NumPy
// function is written once, in the language it extends, and every target
// compiles it. Each follows NumPy's (and Numba's) results and errors;
// arrays of any dimension are read through ravel(), which is a view of a
// C-contiguous array and a copy of another. Names that start with an
// underscore are helpers the typer calls for the language itself
// (`a[mask]`, `a[index_array]`).
//
// The builtins library, compiler/lib/builtins/*.kjit, has Python's lists,
// dicts, sets and strings and the builtins over sequences: the typer calls
// `_list_<method>` for list.<method>() and list operators, `_builtin_<name>`
// for the builtins (sum, sorted, min, max, any, all, list), and so on; each
// follows Python's results and messages (and Numba's where Numba differs).
//
// Each library is one module split over files by family: a function of
// one file calls those of the others (ModuleEnv.h's functionFromModule of
// several files), and an error in one is located in its file
// (`compiler/lib/numpy/sorting.kjit:41:12: error: ...`). Names are unique
// across the two libraries; each library's functions call only their own.
#pragma once

#include <memory>
#include <string>

#include "compiler/GlobalEnv.h"

namespace kjit {

class Session;

// The libraries' function `name` made anew (its module read, its globals
// resolved through `session`), or null when they have none. The compiler
// asks Session::libraryFunction, which makes each once and keeps it.
std::shared_ptr<FunctionSource> makeLibraryFunction(Session &session, const std::string &name);

// One file of a library, as compiled in (generated from
// compiler/lib/NumpyLibText.cpp.in): its path in kjit's sources and its text.
struct LibraryFile {
  const char *name;
  const char *text;
};
// The libraries' files, each list ended by {nullptr, nullptr}.
extern const LibraryFile kNumpyLibFiles[];
extern const LibraryFile kBuiltinsLibFiles[];

}  // namespace kjit
