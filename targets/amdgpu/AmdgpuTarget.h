// AmdgpuTarget.h - AMDGCN code objects for AMD GPUs through LLVM's AMDGPU
// backend.
//
// The module (from lowerToLLVM with an AMDGPU GpuBackend) has its stack
// slots and globals in the flat address space, as the NVPTX lowering does;
// compileToHsaco moves them to the AMDGPU spaces (private 5, global 1),
// links the ROCm device libraries it calls (ocml for math, ockl for printf,
// device malloc and block reductions, with the oclc control libraries for
// the chosen processor), optimises at O3, emits an ELF object and links it
// with lld (as a library, in memory) into the code object (HSACO) that
// hipModuleLoadData takes. LLVM stays out of this header.
#pragma once

#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace kjit {

struct AmdgpuOptions {
  std::string arch = "gfx90a";  // a processor of amdgpuProcessors()
  bool fastmath = false;        // native float32 math, denormals flushed
  std::string deviceLibDir;     // empty: findRocmDeviceLibs()
  int maxThreadsPerBlock = 0;   // 0: 1024 (amdgpu-flat-work-group-size)
};

struct AmdgpuProcessor {
  const char *name;    // "gfx90a"
  unsigned wavefront;  // 64 (CDNA, GCN) or 32 (RDNA)
  const char *isa;     // its oclc_isa_version file: "90a"
};

// The processors kjit compiles for (those LLVM 19 and Debian's ROCm device
// libraries both know), and one by name (null when unknown).
const std::vector<AmdgpuProcessor> &amdgpuProcessors();
const AmdgpuProcessor *amdgpuProcessor(const std::string &name);
// "unknown AMD GPU processor 'NAME' (kjit knows gfx900, ...)".
std::string unknownProcessorMessage(const std::string &name);

// The folder of the ROCm device libraries (ocml.bc, ockl.bc, oclc_*.bc):
// $KJIT_ROCM_DEVICE_LIBS, $ROCM_PATH/amdgcn/bitcode, /opt/rocm/amdgcn/bitcode,
// or Debian's /usr/lib/x86_64-linux-gnu/amdgcn/bitcode; empty when none.
std::string findRocmDeviceLibs();

// The triple, and the data layout lowering builds with: the AMDGPU layout
// with allocas and globals in the flat address space (compileToHsaco moves
// them where AMDGPU wants them).
const char *amdgpuTriple();
std::string amdgpuLoweringDataLayout();

// The code object of `module`; `assembly`, when not null, receives the
// AMDGCN assembly of the same optimised module (kjitc --emit=amdgcn,
// inspect_asm).
bool compileToHsaco(llvm::Module &module, const AmdgpuOptions &opts, std::string &hsaco,
                    std::string *assembly, std::string &error);

// lld, in process: a relocatable ELF object to a code object.
bool linkCodeObject(const std::string &object, std::string &hsaco, std::string &error);

}  // namespace kjit
