// NumpyLib.cpp - the library module's functions, made once each.
#include "compiler/NumpyLib.h"

#include <map>
#include <mutex>

#include "compiler/ModuleEnv.h"

namespace kjit {

extern const char *const kNumpyLibText;  // generated: compiler/lib/NumpyLibText.cpp.in
extern const char *const kBuiltinsLibText;

std::shared_ptr<FunctionSource> numpyLibFunction(const std::string &name) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<FunctionSource>> functions;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = functions.find(name); it != functions.end()) return it->second;
  std::shared_ptr<FunctionSource> fn;
  // Only top-level defs: a name the text merely mentions is not one.
  // Names are unique across the two texts; each text's functions call
  // only their own.
  for (auto [file, text] :
       {std::pair<const char *, std::string>{"<kjit numpy library>", kNumpyLibText},
        {"<kjit builtins library>", kBuiltinsLibText}}) {
    if (text.find("\ndef " + name + "(") == std::string::npos) continue;
    fn = functionFromModule(file, text, name);
    // An identity of its own (UfuncSource.cpp's scheme), stable across
    // processes, so that cache keys are.
    uint64_t h = 1469598103934665603ull;
    for (char c : name) h = (h ^ uint8_t(c)) * 1099511628211ull;
    if (fn) fn->identity = 0x6e706c6962000000ull ^ (h & 0xffffffffffull);
    break;
  }
  functions[name] = fn;
  return fn;
}

}  // namespace kjit
