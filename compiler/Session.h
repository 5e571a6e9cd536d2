// Session.h - what outlives one compilation.
//
// A Context (Context.h) is one compilation: its sources, diagnostics,
// arenas and types, dropped when it ends. A Session is what compilations
// share and what is made once for all of them:
//   - the library functions made so far: the numpy and builtins libraries'
//     (NumpyLib.h), the cmath functions (CmathSource.h) and the ufuncs'
//     loops (UfuncSource.h), each made at its first use and kept, so that
//     every compilation gets the same FunctionSource (and identity) for it;
//   - the @jitclass classes registered (JitClass.h).
// Every Context refers to one Session: a Context made alone makes its own
// (kjitc, the unit tests); the JIT's runtime (runtime/jit/JitFunction.h,
// JitRuntime) owns one that all its compilations share, and the Python
// extension module owns that runtime. Nothing of this lives in static
// storage: two Sessions share nothing.
//
// A Session is thread-safe: compilations on several threads use one. Its one
// mutex guards lookups and insertions only; a function is made outside it,
// since making one may ask the Session for another (a module's
// `from numpy import f` resolves f while the module is read), and when two
// threads make the same function the first inserted wins.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "compiler/GlobalEnv.h"

namespace kjit {

struct JitClassInfo;
struct UfuncLoopSpec;

class Session {
 public:
  Session();
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  // The libraries' function `name` (NumpyLib.h), or null when they have none.
  std::shared_ptr<FunctionSource> libraryFunction(const std::string &name);
  // The cmath function `name` on complex128 (CmathSource.h), or null.
  std::shared_ptr<FunctionSource> cmathFunction(const std::string &name);
  // The loop of a ufunc on arrays for `spec` (UfuncSource.h).
  std::shared_ptr<FunctionSource> ufuncLoopFunction(const UfuncLoopSpec &spec);

  // @jitclass classes, by id (JitClassInfo::id); a later registration of an
  // id replaces the earlier.
  void registerJitClass(std::shared_ptr<const JitClassInfo> info);
  std::shared_ptr<const JitClassInfo> findJitClass(const std::string &id) const;

 private:
  // The functions of one kind made so far, by key; `made` counts the makes
  // begun (each function's ordinal, which its identity may use).
  struct Functions {
    std::map<std::string, std::shared_ptr<FunctionSource>> byKey;
    uint64_t made = 0;
  };
  // The function `key` of `table`: found, or made by make(ordinal) outside
  // the lock and inserted (the first insertion wins).
  template <class Make>
  std::shared_ptr<FunctionSource> madeOnce(Functions &table, const std::string &key, Make make);

  mutable std::mutex mutex_;
  Functions library_, cmath_, ufuncLoops_;
  std::map<std::string, std::shared_ptr<const JitClassInfo>> jitClasses_;
};

}  // namespace kjit
