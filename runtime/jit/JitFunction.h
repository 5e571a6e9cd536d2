// JitFunction.h - the JIT driver: one decorated function and everything
// compiled from it, for every device.
//
// A JitFunction owns the function's source, its options and its
// specialisations: host code for @jit, kernels compiled for the CPU device,
// and PTX for CUDA GPUs. Every compile goes through here: argument types
// from a key or an eager signature, the overload rules (Overloads.h), the
// disk cache (cache=True: CacheKey.h, DiskCache.h), and a CompileResult.
// The bindings turn Python values into keys and call these; nothing here
// knows Python.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "compiler/GlobalEnv.h"
#include "runtime/jit/CompileResult.h"
#include "runtime/jit/DiskCache.h"
#include "runtime/jit/Overloads.h"

namespace kjit {
class Context;
class HostJit;
class Session;
class ThreadPool;
struct TypedProgram;
}  // namespace kjit

namespace kjit::jit {

// What compiled code of every function of the process shares: the host JIT
// and the thread pool, made at first use; and what their compilations
// share, the Session (compiler/Session.h: the library functions, the
// @jitclass classes), which every Context of the driver uses. The binding
// owns one for the process (compiled code may run until the process ends).
class JitRuntime {
 public:
  JitRuntime();
  ~JitRuntime();
  HostJit &hostJit();
  ThreadPool &threadPool();
  Session &session() const { return *session_; }
  const std::shared_ptr<Session> &sharedSession() const { return session_; }

 private:
  const std::shared_ptr<Session> session_;
  std::mutex mutex_;
  std::unique_ptr<HostJit> jit_;
  std::unique_ptr<ThreadPool> pool_;
};

// @cuda.jit's code-generation options.
struct CudaOptions {
  bool fastmath = false;  // every fast-math flag, and PTX's approximate division and sqrt
  bool lineinfo = false;
  // Numba's debug=True: Python's error model, raises reported (TypedProgram::debug)
  bool debug = false;
  int maxRegisters = 0;    // 0: unset
  int maxThreads = 0;      // launch_bounds: max threads per block
  int minBlocks = 0;       // launch_bounds: min blocks per multiprocessor
  int maxClusterRank = 0;  // launch_bounds: max blocks per cluster
};

struct JitOptions {
  bool cache = false;  // keep compiled code on disk
  // Kernels on the CPU device check array accesses unless boundscheck=False
  // (an access out of bounds there would end the process).
  bool cpuBoundscheck = true;
  CudaOptions cuda;
};

class JitFunction {
 public:
  JitFunction(JitRuntime &rt, std::shared_ptr<FunctionSource> source, JitOptions options);

  const std::shared_ptr<FunctionSource> &source() const { return source_; }
  const std::string &name() const { return source_->name; }
  size_t paramCount() const { return source_->paramNames.size(); }
  const JitOptions &options() const { return options_; }

  // ---- @jit: host code ----
  // The specialisation a call with argument type key `key` runs, compiled
  // now when needed (throws JitError when signatures were given and none fits).
  CompileResult &hostFor(const std::string &key) {
    if (CompileResult *c = host_.find(key)) return *c;  // inline: the call path
    return hostMiss(key);
  }
  // Compiles an eager signature ("float64(float64, int64)"): from now on the
  // set of specialisations is closed.
  CompileResult &hostDeclare(const std::string &signature);
  // The same compile, without closing the set (the loops of a @vectorize).
  CompileResult &hostCompileSignature(const std::string &signature);
  const Specialisations &host() const { return host_; }
  // The optimised LLVM IR (or the assembly) of a host specialisation.
  std::string inspectHost(const CompileResult &c, bool wantAsm);

  // How many specialisations (of every device) came from the disk cache.
  size_t cacheHits() const;

  // ---- @cuda.jit kernels on the CPU device ----
  CompileResult &cpuKernelFor(const std::string &key) {
    if (CompileResult *c = cpu_.find(key)) return *c;  // inline: the launch path
    return cpuKernelMiss(key);
  }
  void cpuDeclare(const std::string &signature);
  const Specialisations &cpuKernels() const { return cpu_; }
  std::string inspectCpuKernel(const std::string &key, bool wantAsm);

  // ---- @cuda.jit for CUDA GPUs: PTX ----
  // Compiles an explicit signature for compute capability `cc` (90: 9.0);
  // kept, and listed by cudaResults(). `device`: a device function.
  CompileResult &cudaCompile(const std::string &signature, bool device, int cc);
  // The LLVM IR as lowered for a signature (inspect_llvm).
  std::string cudaLLVM(const std::string &signature, bool device, int cc);
  // Declares an eager kernel signature: launches convert to the declared
  // types (Overloads.h) before they compile.
  void cudaDeclare(const std::string &signature);
  // The argument type key a launch with key `key` compiles for: itself, or
  // the declared signature its types convert to.
  std::string cudaResolve(const std::string &key);
  // The kernel for a launch's resolved key, for compute capability `cc`:
  // compiled (or read from the disk cache) now when needed.
  CompileResult &cudaKernelFor(const std::string &key, int cc);
  // Whether cudaKernelFor(key, cc) has its code in memory already.
  bool cudaHas(const std::string &key, int cc);
  const std::vector<std::unique_ptr<CompileResult>> &cudaResults() const { return cuda_; }

  // ---- @cuda.jit for AMD GPUs: code objects ----
  // The code object (HSACO, in `code`) of an explicit signature for the AMD
  // processor `arch` ("gfx90a"), typed for its wavefront; `assembly`, when
  // not null, receives the AMDGCN assembly. Not kept (nothing launches it
  // from here yet).
  std::unique_ptr<CompileResult> amdgpuCompile(const std::string &signature, bool device,
                                               const std::string &arch, std::string *assembly);

  // What a disk cache key of this function hashes (compiler/CacheKey.h).
  std::string fingerprint() const;
  std::string cacheFolder() const;

 private:
  JitRuntime &rt_;
  std::shared_ptr<FunctionSource> source_;
  JitOptions options_;
  Specialisations host_;                              // @jit
  Specialisations cpu_;                               // kernels on the CPU device
  Specialisations cudaDeclared_;                      // declared kernel signatures (no code)
  std::vector<std::unique_ptr<CompileResult>> cuda_;  // PTX, by key (or signature) and cc
  std::mutex cudaMutex_;

  std::unique_ptr<CompileResult> parseEager(const std::string &signature) const;
  CompileResult &cpuCompile(const std::string &key);
  CompileResult &hostMiss(const std::string &key);
  CompileResult &cpuKernelMiss(const std::string &key);
  std::string hostCacheKey(const std::string &key, const Type *declaredRet, const char *kind);
  bool loadHostCode(const std::string &ckey, CompileResult &c);
  // The disk cache's entry `ckey` when it verifies and has `fields` fields;
  // else nothing, and `warning` says why when a file was there.
  std::optional<CacheEntry> loadEntry(const std::string &ckey, size_t fields,
                                      std::string &warning) const;
  void buildHostCode(Context &ctx, const TypedProgram &prog, const std::string &ckey,
                     bool cpuKernel, CompileResult &c);
  CompileResult &hostCompile(const std::string &key, const std::vector<const Type *> &args,
                             const Type *declaredRet);
  std::unique_ptr<CompileResult> compileCuda(const std::vector<const Type *> &args, const Type *ret,
                                             bool device, int cc, std::string *llvmText);
  // A GPU compile's typing (into `prog`, in `ctx`, whose warpSize is the
  // GPU's) and its result but for the code: CUDA's and AMD's share it.
  std::unique_ptr<CompileResult> typeForGpu(Context &ctx, const std::vector<const Type *> &args,
                                            const Type *ret, bool device, TypedProgram &prog) const;
  std::shared_ptr<FunctionSource> cudaSource() const;
  // The typed program of the CUDA target, with @cuda.jit's debug option.
  TypedProgram cudaProgram(Context &ctx, const std::vector<const Type *> &args,
                           const Type *declaredRet, bool kernel) const;
  std::string cudaOptionsText(int cc) const;
};

}  // namespace kjit::jit
