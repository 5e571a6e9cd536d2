// py_dispatcher.h - the Python face of a jit::JitFunction, shared by the
// binding files: @jit's call path (py_jit.cpp), kernels launched on the CPU
// device and on CUDA GPUs (py_launch.cpp, py_cuda_launch.cpp).
#pragma once

#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/GlobalEnv.h"
#include "py_values.h"
#include "runtime/jit/JitFunction.h"

namespace kjit {
struct KjitCallContext;
}

namespace kjit::py {

// The module's JIT runtime (ModuleState, py_common.h): the host JIT, the
// thread pool and the compiler's Session.
jit::JitRuntime &jitRuntime();
// The exception class compiled code raised by name: a builtin's name, or
// the module.qualname of a user's class that kjit.errors registered when the
// compiler resolved it (RuntimeError for a name that is neither).
pybind11::object exceptionClass(const std::string &name);

// Arguments in their memory form, for an entry's `args` array.
struct Marshalled {
  ArgSlot slots[kMaxArgs];
  void *ptrs[kMaxArgs];
  std::vector<std::vector<unsigned char>> large;  // arguments bigger than a slot
  ListArgs lists;                                 // list arguments (reflected)
};
// Writes the arguments in `c`'s memory forms; `who` is for messages.
void marshal(const jit::CompileResult &c, PyObject **argv, size_t n, Marshalled &m,
             const jit::Caller &who);

class Dispatcher {
 public:
  Dispatcher(pybind11::object pyfunc, std::string name, std::string filename, std::string text,
             uint32_t firstLine, pybind11::object resolver, pybind11::dict options,
             pybind11::object sourceMap = pybind11::none());

  jit::JitFunction &function() { return *fn_; }
  const std::shared_ptr<jit::JitFunction> &functionPtr() const { return fn_; }
  const std::string &name() const { return fn_->name(); }

  pybind11::object call(PyObject *args, PyObject *kwargs);
  // The argument type key of a call, or of a kernel's launch; a value no
  // key stands for is a TypeError (the driver's message).
  std::string argumentKey(PyObject **argv, size_t n, bool kernel) const;

  // A kernel's eager signatures for the CPU device: noted when the kernel
  // is made (kjit/cuda/compiler.py), compiled before its first launch
  // there, so that other devices never compile them for the host.
  void cpuDeclareLater(std::string signature) { cpuPending_.push_back(std::move(signature)); }
  void flushCpuDeclared() {
    for (const std::string &sig : cpuPending_) fn_->cpuDeclare(sig);
    cpuPending_.clear();  // (after them all: a failure is met again next time)
  }

 private:
  std::shared_ptr<jit::JitFunction> fn_;
  pybind11::object pyfunc_;
  pybind11::object resolver_;
  pybind11::tuple defaults_;
  bool nogil_ = false;
  bool generator_ = false;  // a generator function: results are iterators
  bool parallel_ = false;
  std::vector<std::string> cpuPending_;

  // The owner (a capsule that frees it) of each allocation returned, shared
  // by every array of the result that views it; and, under reflectedKey(l),
  // the Python object (a list, a @jitclass instance) a list argument `l`
  // was made from, which the result and the written-back values reuse.
  using Owners = std::map<void *, pybind11::object>;
  static void *reflectedKey(const void *list) {
    return reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(list) | 1);  // (odd: no owner)
  }

  pybind11::tuple bind(const pybind11::tuple &args, const pybind11::dict &kwargs);
  pybind11::object invoke(const jit::CompileResult &c, PyObject **argv, size_t n);
  void raise(KjitCallContext &ctx);
  // A new Python list of the elements of `l`, each of type `elem`.
  pybind11::list elementsToPython(const Type *elem, const KjitList *l, KjitCallContext &ctx,
                                  PyObject **argv, size_t n, Owners &owners);
  pybind11::object toPython(const Type *t, unsigned char *p, KjitCallContext &ctx, PyObject **argv,
                            size_t n, Owners &owners);
  static std::optional<GlobalValue> resolveGlobal(const pybind11::object &resolver,
                                                  const std::string &name);
  static std::optional<GlobalValue> fromClassified(const pybind11::object &resolver,
                                                   const pybind11::object &r);
};

// The compiler's questions about a function's global names, answered as
// kjit/dispatcher.py's _Resolver (`resolver`) answers them: the tuple
// (kind, value), or None for a name that stands for nothing. In C++ for the
// common kinds of values, by _Resolver.classify for the others
// (py_globals.cpp says which and why).
pybind11::object resolveGlobalName(const pybind11::object &resolver, const std::string &name);
pybind11::object classifyGlobal(const pybind11::object &resolver, PyObject *value);

// Issues a compile's performance warnings (kjit.errors.PerformanceWarning).
void warnPerformance(const std::string &text, int stacklevel);
// A cache entry that did not verify and was rebuilt (kjit.errors.NumbaWarning).
void warnCache(const std::string &text, int stacklevel);

}  // namespace kjit::py
