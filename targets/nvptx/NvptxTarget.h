// NvptxTarget.h - PTX for NVIDIA GPUs through LLVM's NVPTX backend.
//
// The module (from lowerToLLVM with the CUDA target) is linked with
// libdevice when it calls a __nv_ math function, optimised at O3 for the
// chosen sm_XX, and printed as PTX. LLVM stays out of this header.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace kjit {

struct PtxOptions {
  int ccMajor = 9;
  int ccMinor = 0;
  bool fastmath = false;  // flush denormals, approximate division and sqrt
  std::string libdevice;  // path; empty: findLibdevice()
  // Kernel launch annotations (0: none): max_registers, and launch_bounds'
  // maximum threads per block, minimum blocks per multiprocessor and
  // maximum blocks per cluster (PTX .maxntid, .minnctapersm, .maxclusterrank).
  int maxRegisters = 0;
  int maxThreadsPerBlock = 0;
  int minBlocksPerSM = 0;
  int maxClusterRank = 0;
  // The kernel uses sm_90a's instructions (wgmma, setmaxnreg): target
  // sm_90a (cc 9.0 only) instead of sm_90.
  bool archSpecific = false;
};

// libdevice.10.bc under $CUDA_HOME, /usr/local/cuda, or next to ptxas on
// PATH; empty when there is none.
std::string findLibdevice();

// The PTX ISA version kjit emits for a compute capability (e.g. 80 for 8.0).
int ptxVersionFor(int ccMajor, int ccMinor);

bool compileToPtx(llvm::Module &module, const PtxOptions &opts, std::string &ptx,
                  std::string &error);

// The PTX peephole compileToPtx ends with: a test of a register's low bit
// written `setp.eq %p, %r, 1` (after `and.b32 %r, _, 1`) becomes
// `setp.ne %p, %r, 0`, which ptxas makes one instruction.
void rewriteLowBitTests(std::string &ptx);

}  // namespace kjit
