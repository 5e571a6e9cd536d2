// StaticLinkStubs.cpp - for the statically linked device bundle only
// (KJIT_LLVM_STATIC): lld's ELF linker initialises every LLVM target and
// the Polly pass plugin for link-time optimisation of bitcode inputs. kjit
// links only the AMDGPU object its own back end made (never bitcode), and
// the bundle carries only the X86, NVPTX and AMDGPU back ends, so the other
// targets' initialisers and Polly's plugin are these empty ones (weak: a
// build that has a target keeps its real one).
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>

#define KJIT_NO_TARGET(T)                                                  \
  extern "C" __attribute__((weak)) void LLVMInitialize##T##TargetInfo() {} \
  extern "C" __attribute__((weak)) void LLVMInitialize##T##Target() {}     \
  extern "C" __attribute__((weak)) void LLVMInitialize##T##TargetMC() {}   \
  extern "C" __attribute__((weak)) void LLVMInitialize##T##AsmPrinter() {} \
  extern "C" __attribute__((weak)) void LLVMInitialize##T##AsmParser() {}

KJIT_NO_TARGET(AArch64)
KJIT_NO_TARGET(ARM)
KJIT_NO_TARGET(AVR)
KJIT_NO_TARGET(BPF)
KJIT_NO_TARGET(Hexagon)
KJIT_NO_TARGET(Lanai)
KJIT_NO_TARGET(LoongArch)
KJIT_NO_TARGET(M68k)
KJIT_NO_TARGET(MSP430)
KJIT_NO_TARGET(Mips)
KJIT_NO_TARGET(PowerPC)
KJIT_NO_TARGET(RISCV)
KJIT_NO_TARGET(Sparc)
KJIT_NO_TARGET(SystemZ)
KJIT_NO_TARGET(VE)
KJIT_NO_TARGET(WebAssembly)
KJIT_NO_TARGET(XCore)
KJIT_NO_TARGET(Xtensa)

__attribute__((weak)) llvm::PassPluginLibraryInfo getPollyPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "kjit-no-polly", "0", [](llvm::PassBuilder &) {}};
}
