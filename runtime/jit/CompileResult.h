// CompileResult.h - what one compile of a function for one set of argument
// types produced, whatever the device.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compiler/Types.h"

namespace kjit {
struct CpuKernelInfo;
struct KjitCallContext;
}  // namespace kjit

namespace kjit::jit {

struct CompileResult {
  std::string key;                     // the argument type key compiled for
  std::shared_ptr<TypeContext> types;  // owns `args` and `ret`
  std::vector<const Type *> args;
  const Type *ret = nullptr;
  std::string signature;  // "(float64, int64) -> float64"; kernels: "void(float32[:], int64)"
  std::string typedIR;    // inspect_types()
  // The entry's variables and their types (Numba's _type_annotation.typemap);
  // empty for code from the disk cache.
  std::vector<std::pair<std::string, std::string>> typemap;
  std::string warnings;  // rendered performance warnings, for the caller to issue
  // A cache entry that did not verify and was rebuilt (cache=True): the
  // caller issues it as a NumbaWarning.
  std::string cacheWarning;
  std::string code;  // the PTX of a CUDA compile; the object file of a cached host compile
  std::string entrySymbol;
  bool fromCache = false;  // loaded from the disk cache
  int cc = 0;              // CUDA: the compute capability compiled for (90: sm_90)

  // Host code: the C-ABI entry (compiler/Lowering.h). The CPU device: its
  // CpuKernelInfo.
  using Entry = int (*)(void **, void *, KjitCallContext *);
  Entry entry = nullptr;
  const CpuKernelInfo *cpuKernel = nullptr;

  // Memory-form sizes of the arguments and the result, for the call path.
  std::vector<size_t> argBytes;
  size_t retBytes = 0;
  void measure();
};

}  // namespace kjit::jit
