// py_common.h - what the binding files share: the exception that carries
// diagnostics to Python, and the define_<area> functions.
#pragma once

#include <pybind11/pybind11.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/jit/Errors.h"

namespace kjit::jit {
class JitRuntime;
}  // namespace kjit::jit

namespace kjit::hip {
class Runtime;
}  // namespace kjit::hip

namespace kjit::device {
class Device;
}  // namespace kjit::device

namespace kjit::py {

// What the extension module keeps for the process: made by PYBIND11_MODULE
// (py_module.cpp) before any binding runs, and owned by the module (its
// `_state` capsule), so that no binding keeps state of its own:
//   - the JIT's runtime (the host JIT, the thread pool, and the compiler's
//     Session: the library functions, the @jitclass classes), which every
//     JitFunction of the bindings uses;
//   - caches of what Python objects stand for (record specs of dtypes).
// Only the thread holding the GIL uses the caches.
class ModuleState {
 public:
  ModuleState();
  ~ModuleState();
  ModuleState(const ModuleState &) = delete;
  ModuleState &operator=(const ModuleState &) = delete;

  jit::JitRuntime &jitRuntime() { return *jitRuntime_; }
  // The HIP runtime (AMD GPUs), loaded at its first use (py_hip.cpp).
  hip::Runtime &hipRuntime();
  // The device layer of a kind, "cuda", "hip" or "cpu", made at its first
  // use (py_device.cpp).
  device::Device &device(const std::string &kind);
  // A structured dtype's record spec, by the dtype object (py_values.cpp,
  // dtypeKeyOf): each is kept alive (a reference), so that its address
  // names it.
  std::map<PyObject *, std::string> recordSpecs;

 private:
  jit::JitRuntime *jitRuntime_;  // see ~ModuleState
  std::once_flag hipOnce_;
  hip::Runtime *hip_ = nullptr;  // likewise left to the process
  std::mutex devicesMutex_;
  device::Device *cuda_ = nullptr, *hipDevice_ = nullptr, *host_ = nullptr;  // likewise
};
// The module's state (the module's own, reached from the binding files'
// functions and the tp_call slots, which have no module at hand).
ModuleState &moduleState();

// Sets the Python exception (kjit.errors.*) for a compile failure.
void raiseCompileFailure(const jit::CompileFailure &f);
// Sets the Python exception for a driver error (TypeError, ValueError,
// kjit.cuda.errors.LaunchConfigError, RuntimeError).
void raiseJitError(const jit::JitError &e);

// Sets the Python exception for one of kjit's own C++ exceptions (a
// compile failure, a driver or device error, a kernel's raise,
// device::Unsupported); false, setting nothing, for any other. The
// module's exception translator (py_module.cpp) is this.
bool setKjitError(std::exception_ptr p);
// Sets the Python exception for the C++ exception being handled, as the
// module's translators do (kjit's, then pybind11's built-in ones); for the
// tp_call slots, which pybind11 does not wrap. Call it from a catch block.
void setErrorFromCurrentException();

void define_frontend(pybind11::module_ &m);
void define_jit(pybind11::module_ &m);
void define_globals(pybind11::module_ &m);
void define_ufunc(pybind11::module_ &m);
void define_launch(pybind11::module_ &m);
void define_device(pybind11::module_ &m);
void define_cuda(pybind11::module_ &m);
void define_hip(pybind11::module_ &m);
void define_records(pybind11::module_ &m);

}  // namespace kjit::py
