// HostRuntime.h - what compiled host code calls at run time, and the
// context of one call of compiled code.
//
// Compiled functions receive a KjitCallContext*. They report an exception by
// calling kjit_rt_raise* and returning status 1; the dispatcher turns that
// into a Python exception. Arrays allocated by compiled code are recorded in
// the context's arena: the dispatcher hands the ones that are returned to
// NumPy and frees the others when the call ends (nothing else can keep a
// reference in the kernel language).
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "frontend/support/KernelAbi.h"  // CpuThreadState, RuntimeSymbol

namespace kjit {

class ThreadPool;

struct KjitCallContext {
  // A kernel run by the CPU device: its thread's indices and shared memory
  // (frontend/support/KernelAbi.h). First: compiled kernels load it at offset 0.
  CpuThreadState *kernel = nullptr;
  // The threads prange loops run on (null: run serially).
  ThreadPool *pool = nullptr;
  // The stack the call runs on, for the entry check of recursive functions
  // (compiler/LoweringRecursion.cpp; compiled code loads stackLimit and
  // stackSpan at offsets 16 and 24): room is left while
  // stackLimit <= sp < stackLimit + stackSpan. Unknown (0) until the first
  // check's slow path, kjit_rt_stack_check, takes the running thread's
  // stack, where one thread runs the context (all but a parallel call's:
  // a call's entry pays nothing for recursion it does not do); set by the
  // CPU device for its fibers, by useThreadStack() for a parallel call's
  // caller. A thread on another stack (a prange worker) always gets the
  // slow path, which reads that thread's own stack.
  uintptr_t stackLimit = 0;
  uintptr_t stackSpan = 0;
  uintptr_t stackLow = 0;  // below stackLimit: the reserve kept for the runtime
  std::mutex raiseMutex;

  // The exception raised, if any.
  bool raised = false;
  std::string excClass;
  std::string message;
  std::string file;
  int line = 0;
  // Allocations made during the call (data pointers, 64-byte aligned).
  std::mutex arenaMutex;
  std::vector<void *> arena;
  // Lists made during the call (KjitList*): freed with their data when it
  // ends; the dispatcher converts a returned one to a Python list first.
  std::vector<KjitList *> lists;

  KjitCallContext() = default;
  ~KjitCallContext();
  // The code runs on the stack [low, high) (a fiber's).
  void setStack(uintptr_t low, uintptr_t high);
  // The code runs on the calling thread's stack.
  void useThreadStack();
  // Removes `data` from the arena and returns true if it was allocated there;
  // the caller then owns it (free it with kjitFree).
  bool release(void *data);
};

// The stack of the calling thread, [low, high) (cached per thread; both 0
// where unknown), and the part of a stack of `bytes` kept for the runtime and
// the exception when recursion fills it.
struct StackBounds {
  uintptr_t low = 0, high = 0;
};
StackBounds threadStack();
size_t stackReserve(size_t bytes);

// A list of `size` elements of `itemBytes` each (zeroed), at least `capacity`
// of room; null when memory runs out. Free it with freeList.
KjitList *newList(int64_t size, int64_t capacity, int64_t itemBytes);
void freeList(KjitList *l);
// Makes room for `need` elements (doubling); false when memory runs out.
bool reserveList(KjitList *l, int64_t need, int64_t itemBytes);

// Array memory (64-byte aligned), freed with kjitFree.
void *kjitAllocate(size_t nbytes);
void kjitFree(void *data);

// Name and address of every runtime entry point, for the JIT's symbol table.
const std::vector<RuntimeSymbol> &runtimeSymbols();

}  // namespace kjit
