// CpuKernel.h - the CPU device: @cuda.jit kernels compiled for the host and
// run with the launch semantics of a GPU.
//
// The compiled module (compiler/LoweringCpuKernel.cpp) exports one constant,
// a CpuKernelInfo, naming two entry points with the host ABI of
// compiler/Lowering.h (i32 (ptr args, ptr ret, ptr ctx)):
//   - `thread` runs one GPU thread; the executor runs the threads of a block
//     as fibers, switching at barriers and warp operations, when the kernel
//     has any (needsFibers);
//   - `block` runs every thread of a block in a plain loop (the kernel body
//     inlined, threadIdx as the loop counters): what barrier-free kernels
//     use, and what LLVM vectorises.
// Blocks are spread over the ThreadPool. Compiled code finds its thread's
// indices through the KjitCallContext: its first member points to a
// CpuThreadState, whose layout below is read by the generated code.
#pragma once

#include <cstdint>
#include <string>

#include "frontend/support/KernelAbi.h"  // CpuThreadState, CpuKernelInfo

namespace kjit {

class ThreadPool;

struct CpuLaunch {
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  int64_t dynamicSharedBytes = 0;
};

// What stopped a launch: the exception of the first failing thread.
struct CpuKernelError {
  std::string excClass;  // a builtin exception's name
  std::string message;
  std::string file;
  int line = 0;
  int32_t thread[3] = {0, 0, 0}, block[3] = {0, 0, 0};
  bool located = false;  // thread/block name the thread that raised
};

// Runs a launch; false with `err` set when a thread raised or the block's
// threads cannot all pass a barrier (divergent syncthreads). `pool` may be
// null (one thread).
bool runCpuKernel(const CpuKernelInfo &info, void **args, const CpuLaunch &launch, ThreadPool *pool,
                  CpuKernelError &err);

// Fiber stack size in bytes (KJIT_CPU_STACK, default 256 KiB); a kernel's
// fibers get at least its local arrays' bytes + 128 KiB.
size_t cpuFiberStackBytes();

// For the Hopper operations of a thread run as a fiber (CpuHopper.cpp; ctx
// is the thread's KjitCallContext): wait (poll) until the next round, with
// the site named if it never ends; end the thread with its raised exception
// (never returns); note that an mbarrier changed (progress for pollers); the
// thread's linear index in its block.
void fiberPoll(void *ctx, const char *file, int32_t line, int32_t col, const char *what,
               const char *awaited = "an mbarrier phase");
[[noreturn]] void fiberEnd(void *ctx);
void fiberBarrierChanged(void *ctx);
uint32_t fiberLinearThread(void *ctx);
// Waits (polling) until every thread of the caller's warpgroup (128
// threads by linear index) has come.
void fiberWarpgroupSync(void *ctx, const char *file, int32_t line, int32_t col);
// Arrives at named barrier `id` of the block, counting `count` threads, and
// with `wait` waits (polling) until they have all come; false (with err)
// for a barrier or count out of range, or a count the phase does not have.
bool fiberNamedBarrier(void *ctx, int64_t id, int64_t count, bool wait, const char *file,
                       int32_t line, int32_t col, std::string &err);

// A GPU thread's local memory limit, and an H100 block's shared memory
// limit (with the opt-in kjit's CUDA launches make), which the CPU device
// keeps too.
constexpr int64_t kCpuMaxLocalBytes = 512 * 1024;
constexpr int64_t kCpuMaxSharedBytes = 227 * 1024;
// A kernel with a grid barrier runs all its threads at once, each a fiber
// with its own stack: the most threads such a launch may have.
constexpr int64_t kCpuMaxCooperativeThreads = 16384;
// ... and the most shared memory its blocks have together.
constexpr int64_t kCpuMaxCooperativeSharedBytes = 256 * 1024 * 1024;

}  // namespace kjit
