// KernelAbi.h - the binary interface between compiled code and the runtime:
// what the lowering (compiler/) emits and what runtime/host, runtime/cuda and
// the binding read, in one header that needs nothing but the C++ library.
//
// Values in memory (the "memory form": arguments, results, tuple fields):
//   bool                one byte (0 or 1)
//   intN/uintN/floatN   N/8 bytes, naturally aligned
//   complexN            two floatN/2, aligned as one of them
//   array               ArrayDesc, below
//   tuple               the x86-64 C layout of a struct of its elements
//   record              a pointer to the record's bytes (8 bytes): in NumPy's
//                       layout, the fields at the dtype's offsets
//   none                one (unused) byte
#pragma once

#include <cstddef>
#include <cstdint>

namespace kjit {

// ---- type sizes --------------------------------------------------------------
// A scalar type's width in bits (bool counts as 8, complex128 as 128) to its
// size and alignment in memory. compiler/Types.h applies them to a Type
// (itemSize, valueSize, valueAlign).
namespace abi {
constexpr size_t scalarBytes(unsigned bits) { return bits / 8; }
constexpr size_t scalarAlign(unsigned bits, bool complex) { return complex ? bits / 16 : bits / 8; }
constexpr size_t kPointerBytes = 8;  // a record value: a pointer to its bytes
}  // namespace abi

// ---- arrays ------------------------------------------------------------------
// An array value, as the LLVM struct %kjit.arrayN = { ptr, ptr, [N x i64],
// [N x i64] } and in memory:
//   void   *owner;         what keeps the data alive (a NumPy array, a
//                          runtime allocation or null)
//   char   *data;
//   int64_t shape[N];
//   int64_t strides[N];    in bytes, like NumPy
namespace abi {
enum ArrayField : unsigned { ArrayOwner = 0, ArrayData = 1, ArrayShape = 2, ArrayStrides = 3 };
constexpr size_t arrayDescBytes(unsigned ndim) { return 16 + 16 * size_t(ndim); }
constexpr size_t arrayShapeOffset(unsigned k) { return 16 + 8 * size_t(k); }
constexpr size_t arrayStrideOffset(unsigned ndim, unsigned k) { return 16 + 8 * size_t(ndim + k); }
constexpr size_t kArrayAlign = 8;
}  // namespace abi

// ---- the CPU device ------------------------------------------------------------
// A CUDA kernel compiled for the host (compiler/LoweringCpuKernel.cpp) and run
// by runtime/host/CpuKernel. Compiled code receives a KjitCallContext*
// (runtime/host/HostRuntime.h) whose first member points to its thread's
// CpuThreadState; it reads the fields below by offset.
struct CpuThreadState {
  int32_t sreg[12];     // threadIdx, blockIdx, blockDim, gridDim (x, y, z each)
  char *shared;         // the block's static shared arrays
  char *dynamicShared;  // the block's dynamic shared memory
  int64_t dynamicSharedBytes;
  void *fiber;  // the executor's record of this thread (fiber mode)
};
static_assert(sizeof(CpuThreadState) == 80, "CpuThreadState's layout is read by compiled code");

// The constant a compiled CPU kernel exports (LLVM { ptr, ptr, i64, i32, i64 }).
struct CpuKernelInfo {
  int32_t (*thread)(void **args, void *ret, void *ctx);  // one GPU thread
  int32_t (*block)(void **args, void *ret, void *ctx);   // a whole block in a loop (null: fibers)
  int64_t staticSharedBytes;
  int32_t needsFibers;
  int64_t localBytes;  // the local arrays of the kernel and what it calls (stack space)
};

// The operation codes of kjit_cpu_warp(ctx, op, mask, value, arg, ...).
enum class WarpOp : int32_t {
  ShflIdx = 0,
  ShflUp = 1,
  ShflDown = 2,
  ShflXor = 3,
  VoteAll = 4,
  VoteAny = 5,
  VoteUni = 6,
  Ballot = 7,
  MatchAny = 8,
  MatchAll = 9,
  SyncWarp = 10,
  ActiveMask = 11,  // kjit_cpu_activemask
};

// ---- runtime entry points ------------------------------------------------------
// A function compiled code calls by name, and its address, for a JIT's symbol
// table (runtime/host/HostRuntime.cpp lists them; targets/host/HostJit
// defines them).
struct RuntimeSymbol {
  const char *name;
  void *address;
};

}  // namespace kjit
