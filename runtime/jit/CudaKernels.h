// CudaKernels.h - a kernel's modules loaded on CUDA devices, for the launch
// path: the argument type key of a launch resolved (declared signatures),
// compiled for the device's compute capability (JitFunction), loaded, and
// kept per device and context generation. A launch miss runs entirely here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/jit/JitFunction.h"
#include "runtime/jit/LaunchConfig.h"

namespace kjit::cuda {
class Runtime;
struct LoadedKernel;
}  // namespace kjit::cuda

namespace kjit::jit {

struct LoadedEntry {
  std::string key;  // the argument type key launched with
  int device = 0;
  uint64_t generation = 0;
  std::shared_ptr<cuda::LoadedKernel> kernel;
  const CompileResult *compiled = nullptr;  // its types (args), owned by the JitFunction
  int dynamicSharedSet = 0;                 // the opt-in size given to the driver
  uint64_t serial = 0;  // unique in the process: entries move, serials are not reused
};

class CudaKernels {
 public:
  explicit CudaKernels(std::shared_ptr<JitFunction> fn) : fn_(std::move(fn)) {}
  JitFunction &function() { return *fn_; }
  const std::string &name() const { return fn_->name(); }

  // The loaded kernel for a launch's argument type key on the runtime's
  // current device. `compiled` is set when this call compiled code (its
  // warnings are the caller's to issue).
  LoadedEntry &entry(cuda::Runtime &rt, const std::string &key, const CompileResult **compiled);
  // The same when loaded already, else null.
  LoadedEntry *find(cuda::Runtime &rt, const std::string &key);
  // Whether entry() would compile nothing (loaded, or the PTX made).
  bool compiled(cuda::Runtime &rt, const std::string &key);

  // Checks `c` against the device's and the kernel's limits, once per entry
  // and configuration, and opts in to the dynamic shared memory it needs.
  void prepareLaunch(cuda::Runtime &rt, LoadedEntry &e, const LaunchConfig &c,
                     uint64_t &checkedSerial);

  bool warnedCopy = false;  // the host-array copy warning, once per kernel

 private:
  std::shared_ptr<JitFunction> fn_;
  std::vector<LoadedEntry> entries_;
};

DeviceLimits limitsOf(cuda::Runtime &rt, int device);

}  // namespace kjit::jit
