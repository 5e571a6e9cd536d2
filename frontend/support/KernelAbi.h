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
//   list                a pointer to its KjitList (8 bytes), below
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

// ---- lists -------------------------------------------------------------------
// A list value is a pointer to its KjitList; the elements lie packed in
// `data` in their memory form (the size of each is the element type's).
// Host code only. The binding makes one per list argument (and writes its
// contents back into the Python list after the call, as Numba reflects a
// list); compiled code makes them with kjit_rt_list_new and grows them with
// kjit_rt_list_reserve (runtime/host). `data` is malloc'd memory.
struct KjitList {
  int64_t size;
  int64_t capacity;
  unsigned char *data;
};
namespace abi {
enum ListField : unsigned { ListSize = 0, ListCapacity = 1, ListData = 2 };
}

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

// The constant a compiled CPU kernel exports (LLVM { ptr, ptr, i64, i32, i64, i64 }).
struct CpuKernelInfo {
  int32_t (*thread)(void **args, void *ret, void *ctx);  // one GPU thread
  int32_t (*block)(void **args, void *ret, void *ctx);   // a whole block in a loop (null: fibers)
  int64_t staticSharedBytes;
  int32_t needsFibers;  // 1: threads as fibers; 2: and a grid barrier (all blocks at once)
  int64_t localBytes;   // the local arrays of the kernel and what it calls (stack space)
  int64_t constBytes;   // what a GPU's constant memory would hold: global arrays, print formats
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
  // cuda.wmma.mma_sync: value is the address of the lane's WmmaOperands
  // (below), arg a WmmaInputs code; the warp's product is computed when
  // all its lanes have come (runtime/host/CpuMatrix.cpp).
  Mma = 12,
  // cuda.mma_sync (m16n8k16 in PTX's layouts): value is the address of the
  // lane's WmmaOperands (a: 8 values, b: 4, c and d: 4 float32), arg a
  // WmmaInputs code.
  MmaSync = 13,
  // cuda.ldmatrix: value is the address of the lane's LdmatrixOperands, arg
  // the number of matrices (1, 2, 4) plus 8 when transposed.
  Ldmatrix = 14,
  // cuda.wgmma.mma_async with a in registers: value is the address of the
  // lane's WgmmaAOperands, arg 1 for bfloat16 (else float16); each lane
  // gets the warp's 16 x 16 slice of a (its rows, the k step's columns).
  WgmmaA = 15,
};

struct WgmmaAOperands {
  const float *a;  // the lane's 8 values (accumulator layout), rounded here
  float *out;      // 16 x 16, row-major: the warp's rows of a
};

struct LdmatrixOperands {
  const uint16_t *row;  // the 8 elements this lane supplies
  uint16_t *out;        // 2 x num elements
};

// One lane's part of a warp matrix product on the CPU device: its elements
// of a, b and c (a and b: 8 distinct values, float16 ones each held twice,
// 16 in all; c and d: 8 float32), and where its elements of d go. Lane l's
// element j is element 8 * l + j of the 16x16 matrix in row-major order.
struct WmmaOperands {
  const void *a;
  const void *b;
  const float *c;
  float *d;
};
enum class WmmaInputs : int32_t { Float16 = 0, BFloat16 = 1 };

// The operation codes of kjit_cpu_hopper(ctx, op, a, b, c, x, y, file, line,
// col) (runtime/host/CpuHopper.cpp): Hopper's asynchronous operations on the
// CPU device. An mbarrier is a uint64 (kjit's encoding, CpuHopper.cpp), a
// tensor map 16 uint64 (kjit's, made by cuda.make_tensor_map for the CPU
// device), a wgmma operand a tile in the layout a 128-byte swizzle gives.
enum class HopperOp : int32_t {
  MbarrierInit = 0,      // a: the barrier; x: the arrivals of a phase
  MbarrierArrive = 1,    // a
  MbarrierExpectTx = 2,  // a; x: bytes (arrives, and expects the bytes)
  MbarrierTryWait = 3,   // a; x: the parity -> 1 when that phase has completed
  MbarrierWait = 4,      // a; x: the parity; the fiber waits (polls) until then
  TmaLoad = 5,           // a: destination, b: map, c: barrier; x: TmaRecord *; y: the rank
  TmaStore = 6,          // a: source, b: map; x: TmaRecord *; y: the rank
  Wgmma = 7,             // a, b: tiles, c: float acc[n/2] (in, out); x: WgmmaRecord *;
                         // y: n | the kWgmma flags
  WarpgroupSync = 8,     // wgmma.commit_group: waits for the 128 threads of the warpgroup
  NamedBarrier = 9,      // x: the barrier (0-15), y: the thread count | 1 << 32 to wait
};
struct TmaRecord {
  int64_t coords[5];  // index order
  int64_t tileBytes;  // the shared tile's size
};
struct WgmmaRecord {
  int64_t k;
  int64_t a[4], b[4];             // rows, columns, row stride and column stride (bytes)
  int64_t bBlocks, bBlockStride;  // b N-major (3-d): its 64-wide blocks, their stride
};
// WgmmaRecord's flags, with n, in kjit_cpu_hopper's y.
constexpr int64_t kWgmmaBFloat16 = 1 << 16, kWgmmaRegisterA = 1 << 17, kWgmmaNMajor = 1 << 18;
// 8-bit a and b (k32: 32 values a step), and which of them are e5m2 (else e4m3)
constexpr int64_t kWgmmaFloat8 = 1 << 19, kWgmmaE5M2A = 1 << 20, kWgmmaE5M2B = 1 << 21;

// ---- status and kernel exceptions ----------------------------------------------
// What a compiled function returns (compiler/Lowering.h): 0, or 1 when it
// raised (the exception is recorded for the caller), or, in a kernel
// without debug=True, 2: a `raise` ended the thread without a report (Numba's
// rule; the CPU device and the GPU count the thread as finished).
namespace abi {
enum Status : int32_t { StatusOk = 0, StatusRaised = 1, StatusExit = 2 };

// The error record of a CUDA module (compiler/LoweringCuda.cpp writes it,
// runtime/cuda reads it): 16 x u32 in mapped host memory, whose device
// address the module's global `kjit_error_record` holds (null: none). The
// first failing thread (claimed through the device global `kjit_error_claim`)
// writes the fields, then sets RecComplete to 1, and returns. RecRaise is 0
// for a failed bounds check (RecAxis, RecIndex, RecSize say which), else k
// for the k-th entry of `kjit_error_raises` ("Class:message", each ended by
// a NUL byte). RecFile counts from 1 in `kjit_error_files` (the module's
// file names, each ended by a NUL byte).
enum ErrorRecordField : unsigned {
  RecComplete = 0,
  RecLine = 1,
  RecCol = 2,
  RecAxis = 3,
  RecIndex = 4,   // i64: low word, high word
  RecSize = 6,    // i64: low word, high word
  RecThread = 8,  // threadIdx x, y, z
  RecBlock = 11,  // blockIdx x, y, z
  RecFile = 14,
  RecRaise = 15,
  RecWords = 16
};
}  // namespace abi

// ---- runtime entry points ------------------------------------------------------
// A function compiled code calls by name, and its address, for a JIT's symbol
// table (runtime/host/HostRuntime.cpp lists them; targets/host/HostJit
// defines them).
struct RuntimeSymbol {
  const char *name;
  void *address;
};

}  // namespace kjit
