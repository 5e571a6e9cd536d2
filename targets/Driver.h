// Driver.h - the back half of the pipeline (lowering, optimisation, code
// for a target) behind an API without LLVM types, for code that must not
// include LLVM: the Python binding, which is built where no LLVM headers
// exist (the GPU machine's bundle).
#pragma once

#include <string>

namespace kjit {

class Context;
class HostJit;
struct AmdgpuOptions;
struct PtxOptions;
struct TypedProgram;

struct HostBuild {
  std::string moduleName;  // prefixes the symbols: unique per JIT, or the cache key's
  bool toObject = false;   // compile to an object file (kept in `object`) and load that
  bool lineinfo = false;
  bool cpuKernel = false;  // a CUDA kernel for the CPU device: `entry` is its CpuKernelInfo
};

struct HostCode {
  void *entry = nullptr;  // the C-ABI entry (see compiler/Lowering.h)
  std::string symbol;     // its name
  std::string object;     // with toObject: the object file
};

// Lowers `prog`, optimises it for the host and adds it to `jit`.
bool buildForHost(const Context &ctx, const TypedProgram &prog, HostJit &jit, const HostBuild &opts,
                  HostCode &out, std::string &error);

// The optimised LLVM IR (or, with wantAsm, the assembly) of `prog` for the
// host, without adding it anywhere (inspect_llvm, inspect_asm).
bool inspectForHost(const Context &ctx, const TypedProgram &prog, HostJit &jit, bool wantAsm,
                    std::string &out, std::string &error, bool cpuKernel = false);

// The LLVM IR of `prog` as lowered, before any optimisation (kjitc
// --emit=llvm): for the host (`jit` gives the data layout) or, with a null
// `jit`, for CUDA.
std::string loweredText(const Context &ctx, const TypedProgram &prog, HostJit *jit, bool lineinfo);

// The PTX of `prog` (a CUDA program) and, for a kernel, the name of its
// .entry in the PTX; `llvmText`, when not null, receives the LLVM IR as
// lowered.
bool buildForCuda(const Context &ctx, const TypedProgram &prog, const PtxOptions &opts,
                  bool lineinfo, std::string &ptx, std::string &entry, std::string *llvmText,
                  std::string &error);

// The code object (HSACO) of `prog` (a CUDA program) for an AMD GPU, and
// the kernel's symbol in it; `assembly` and `llvmText`, when not null,
// receive the AMDGCN assembly and the LLVM IR as lowered.
bool buildForAmdgpu(const Context &ctx, const TypedProgram &prog, const AmdgpuOptions &opts,
                    bool lineinfo, std::string &hsaco, std::string &entry, std::string *assembly,
                    std::string *llvmText, std::string &error);

}  // namespace kjit
