// Lowering.h - typed IR to LLVM IR.
//
// Every kjit function becomes an internal LLVM function
//     i32 @sym(ptr %ret, ptr %ctx, <args by value>)
// returning 0, or 1 when it raised (the exception is recorded in *ctx by a
// runtime call). The entry function also gets a C-ABI wrapper
//     i32 @sym_entry(ptr %args, ptr %ret, ptr %ctx)
// where args[i] points to argument i in its memory form (bool as one byte,
// arrays as ArrayDesc) and the result is stored at %ret in memory form.
//
// LLVM stays out of this header: include it anywhere.
#pragma once

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace kjit {

struct TypedProgram;
class SourceManager;

struct LoweringOptions {
  // Prefixes every symbol: unique per module added to one JIT.
  std::string moduleName = "kjit";
  // Line tables pointing at the Python source (lineinfo=True): profilers and
  // the PTX's .loc directives then name the user's file and lines.
  bool lineinfo = false;
  // The target's data layout and triple, set before any IR is built, so that
  // loads and stores get the target's alignments (empty: the host's, via
  // the caller; NVPTX: nvptxDataLayout()).
  std::string dataLayout;
  std::string triple;
  // A CUDA kernel for the CPU device: host code, the kernel language run by
  // runtime/host/CpuKernel; the entry symbol is its CpuKernelInfo.
  bool cpuKernel = false;
  // The GPU a CUDA program is lowered for: NVIDIA's (NVPTX) or AMD's
  // (AMDGPU: dataLayout and triple from targets/amdgpu, `wavefront` lanes).
  enum class Gpu { NVPTX, AMDGPU } gpu = Gpu::NVPTX;
  unsigned wavefront = 32;
};

// NVPTX64's data layout and triple.
const char *nvptxDataLayout();
const char *nvptxTriple();

std::unique_ptr<llvm::Module> lowerToLLVM(llvm::LLVMContext &llctx, const TypedProgram &prog,
                                          const SourceManager &sm, const LoweringOptions &opts);

// The symbol of the C-ABI wrapper of a program's entry function.
std::string entrySymbol(const TypedProgram &prog, const LoweringOptions &opts);

}  // namespace kjit
