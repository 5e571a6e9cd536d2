// Codegen.h - what the host and NVPTX targets share: the O3 pipeline and
// printing a module as assembly, PTX or an object file. Includes no LLVM.
#pragma once

#include <string>

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace kjit {

// LLVM's O3 pipeline for `tm`'s target (the target adds its own passes:
// NVVMReflect for NVPTX), with loop and SLP vectorisation.
void optimizeO3(llvm::Module &m, llvm::TargetMachine &tm);

// The GPU targets' common steps before code generation: fast-math function
// attributes (flushed float32 denormals, unsafe FP math) on every defined
// function when `fastmath`, then the IR verifier; false (and `error`) when
// the lowering made invalid IR.
bool finishGpuModule(llvm::Module &m, bool fastmath, std::string &error);

// The module as assembly (PTX for NVPTX) or as an object file; false when
// the target cannot emit that kind of file.
bool emitFile(llvm::Module &m, llvm::TargetMachine &tm, bool object, std::string &out);

}  // namespace kjit
