// NumpyLib.cpp - the libraries' functions (NumpyLib.h).
#include "compiler/NumpyLib.h"

#include <vector>

#include "compiler/ModuleEnv.h"

namespace kjit {

namespace {

// A library's files, as functionFromModule takes them.
std::vector<ModuleFile> libraryModule(const LibraryFile *files) {
  std::vector<ModuleFile> out;
  for (const LibraryFile *f = files; f->name; ++f) out.push_back({f->name, f->text});
  return out;
}

}  // namespace

std::shared_ptr<FunctionSource> makeLibraryFunction(Session &session, const std::string &name) {
  // Only top-level defs: a name the text merely mentions is not one.
  // Names are unique across the two libraries; each library's functions
  // call only their own (its files are one module). (The files as
  // functionFromModule takes them: constants, made once.)
  static const std::vector<ModuleFile> numpyLib = libraryModule(kNumpyLibFiles);
  static const std::vector<ModuleFile> builtinsLib = libraryModule(kBuiltinsLibFiles);
  for (const std::vector<ModuleFile> *lib : {&numpyLib, &builtinsLib}) {
    bool defined = false;
    for (const ModuleFile &file : *lib)
      defined = defined || file.text.find("\ndef " + name + "(") != std::string::npos;
    if (!defined) continue;
    std::shared_ptr<FunctionSource> fn = functionFromModule(session, *lib, name);
    // An identity of its own (UfuncSource.cpp's scheme), stable across
    // processes, so that cache keys are.
    uint64_t h = 1469598103934665603ull;
    for (char c : name) h = (h ^ uint8_t(c)) * 1099511628211ull;
    if (fn) fn->identity = 0x6e706c6962000000ull ^ (h & 0xffffffffffull);
    return fn;
  }
  return nullptr;
}

}  // namespace kjit
