// HostJit.h - compiled code for the host CPU, through ORC LLJIT.
//
// One HostJit per process (the binding owns it): it optimises each lowered
// module at O3 for the host's CPU (vector width and all), links the runtime's
// entry points by name, and returns the address of the entry wrapper.
// LLVM stays out of this header.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "frontend/support/KernelAbi.h"  // RuntimeSymbol

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace kjit {

struct CompiledCode {
  void *entry = nullptr;
  std::string optimizedIR;  // optimizeOnly: the optimised LLVM IR (inspect_llvm)
  std::string assembly;     // filled when asked (inspect_asm)
};

class HostJit {
 public:
  // Null with `error` set when the host target cannot be set up. Compiled
  // code finds `runtime`'s entry points by name, and libc and libm.
  static std::unique_ptr<HostJit> create(const std::vector<RuntimeSymbol> &runtime,
                                         std::string &error);
  ~HostJit();

  // Optimises `module` and adds it to the JIT; false with `error` on failure.
  bool add(std::unique_ptr<llvm::LLVMContext> ctx, std::unique_ptr<llvm::Module> module,
           const std::string &entrySymbol, CompiledCode &out, std::string &error);

  // Optimises and compiles `module` to an object file (for the disk cache).
  bool compileToObject(llvm::Module &module, std::string &object, std::string &error);
  // Adds an object file made by compileToObject; a symbol already in the JIT
  // (the same cached code loaded twice) is reused.
  bool addObject(const std::string &object, const std::string &entrySymbol, CompiledCode &out,
                 std::string &error);
  // The host's CPU and features: part of every cache key.
  std::string targetDescription() const;

  // Optimises without adding (kjitc --emit=llvm|asm).
  bool optimizeOnly(llvm::Module &module, bool wantAsm, CompiledCode &out, std::string &error);

  const std::string &cpuName() const;
  // The host's data layout and triple (for LoweringOptions).
  std::string dataLayout() const;
  std::string triple() const;
  // A module name not used before in this JIT (symbols are prefixed by it).
  std::string uniqueModuleName();

 private:
  HostJit();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kjit
