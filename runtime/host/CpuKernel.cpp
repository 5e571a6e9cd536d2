// CpuKernel.cpp - the CPU device's executor: blocks over the thread pool,
// the threads of a block as fibers when the kernel synchronises.
//
// Fiber mode, per block: every GPU thread is a fiber with its own stack. The
// scheduler (the worker's own stack) resumes each ready fiber in turn; a
// fiber runs until it finishes or reaches a barrier or a warp operation,
// where it records what it waits for and switches back. After each pass the
// scheduler releases what can go on: a syncthreads when every thread still
// running waits there, a warp operation when every running thread of the
// warp named by the participants' masks has arrived (their values are then
// exchanged, which gives shuffles and votes their lockstep meaning). A
// thread that has returned no longer counts, as on the GPU. When nothing can
// be released and no fiber is ready, the threads wait at barriers that the
// others do not reach: that is reported (divergent syncthreads), never a
// hang.
#include "runtime/host/CpuKernel.h"

#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "frontend/support/KernelAbi.h"
#include "frontend/support/Options.h"
#include "runtime/host/CpuMatrix.h"
#include "runtime/host/HostRuntime.h"
#include "runtime/host/ThreadPool.h"

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace kjit {

namespace {

// ---- context switching -------------------------------------------------------------

#if defined(__x86_64__)
// kjit_fiber_switch(from, to): saves the callee-saved registers on the
// current stack, stores the stack pointer at *from, and continues on `to`
// (a stack pointer saved by an earlier switch, or made by prepareStack).
extern "C" void kjit_fiber_switch(void **from, void *to);
extern "C" void kjit_fiber_start();
asm(R"(
    .text
    .globl kjit_fiber_switch
    .type kjit_fiber_switch,@function
kjit_fiber_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size kjit_fiber_switch,.-kjit_fiber_switch
    .globl kjit_fiber_start
    .type kjit_fiber_start,@function
kjit_fiber_start:
    andq $-16, %rsp
    movq %r12, %rdi
    callq *%r13
    ud2
    .size kjit_fiber_start,.-kjit_fiber_start
)");
#endif

constexpr uint32_t kGuardBytes = 4096;

struct Fiber;
using FiberMain = void (*)(Fiber *);

struct Stack {
  char *base = nullptr;  // the mapping, guard page first
  size_t bytes = 0;
  Stack() = default;
  Stack(const Stack &) = delete;
  Stack &operator=(const Stack &) = delete;
  ~Stack() {
    if (base) ::munmap(base, bytes);
  }
  bool allocate(size_t usable) {
    bytes = usable + kGuardBytes;
    void *p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (p == MAP_FAILED) {
      base = nullptr;
      return false;
    }
    base = static_cast<char *>(p);
    // An overflow faults instead of corrupting the next stack.
    if (::mprotect(base, kGuardBytes, PROT_NONE) != 0) {
      ::munmap(base, bytes);
      base = nullptr;
      return false;
    }
    return true;
  }
  char *top() const { return base + bytes; }
};

// Poll: at an mbarrier wait whose phase has not completed; run again each
// round until it has.
enum class Wait : uint8_t { Ready, Block, Warp, Grid, Poll, Done };

// A barrier that counts arrivals: its phase's thread count (0: no phase in
// progress), the arrivals so far, the completed phases.
struct CountedBarrier {
  uint32_t expected = 0, count = 0, generation = 0;
};

struct Site {
  const char *file = nullptr;
  int32_t line = 0, col = 0;
  const char *what = "";
  const char *awaited = "";  // (a Poll wait) what it waits for, in a deadlock report
  bool operator==(const Site &o) const {
    return line == o.line && col == o.col &&
           (file == o.file || (file && o.file && !std::strcmp(file, o.file)));
  }
};

struct BlockRun;

struct Fiber {
  Stack stack;
  void *sp = nullptr;
  CpuThreadState state{};
  KjitCallContext call;
  BlockRun *run = nullptr;
  Wait wait = Wait::Ready;
  int32_t status = 0;
  uint32_t lane = 0, warp = 0;
  // What it waits with.
  Site site;
  int32_t op = 0;
  uint32_t mask = 0;
  uint64_t value = 0;
  int32_t arg = 0;
  uint64_t result = 0;
#if !defined(__x86_64__)
  ucontext_t uc;
#endif
};

struct BlockRun {
  const CpuKernelInfo *info = nullptr;
  void **args = nullptr;
  std::vector<Fiber *> fibers;  // this block's, by linear thread index
  void *schedulerSp = nullptr;
#if !defined(__x86_64__)
  ucontext_t schedulerUc;
#endif
  uint32_t live = 0;
  uint32_t blockWaiting = 0;
  uint32_t gridWaiting = 0;  // at a grid barrier (cooperative launches)
  std::vector<uint32_t> warpWaiting;
  uint64_t barrierChanges = 0;  // mbarrier arrivals, initialisations and completed copies
  CountedBarrier groups[8];     // warpgroup syncs (wgmma.commit_group; 1024 threads at most)
  CountedBarrier named[16];     // named barriers 0-15
  int32_t bid[3] = {0, 0, 0};
  bool finished = false;
};

void fiberMain(Fiber *f);

#if defined(__x86_64__)
void prepare(Fiber *f) {
  // The first switch pops six registers and returns into kjit_fiber_start,
  // which calls fiberMain(f) (r12 = f, r13 = fiberMain).
  auto *top =
      reinterpret_cast<uint64_t *>(reinterpret_cast<uintptr_t>(f->stack.top()) & ~uintptr_t(15));
  uint64_t *sp = top;
  *--sp = 0;                                                               // alignment slot
  *--sp = reinterpret_cast<uint64_t>(&kjit_fiber_start);                   // return address
  *--sp = 0;                                                               // rbp
  *--sp = 0;                                                               // rbx
  *--sp = reinterpret_cast<uint64_t>(f);                                   // r12
  *--sp = reinterpret_cast<uint64_t>(static_cast<FiberMain>(&fiberMain));  // r13
  *--sp = 0;                                                               // r14
  *--sp = 0;                                                               // r15
  f->sp = sp;
}
void enter(BlockRun &run, Fiber *f) { kjit_fiber_switch(&run.schedulerSp, f->sp); }
void leave(Fiber *f) { kjit_fiber_switch(&f->sp, f->run->schedulerSp); }
#else
void trampoline(unsigned hi, unsigned lo) {
  fiberMain(reinterpret_cast<Fiber *>((uintptr_t(hi) << 32) | uintptr_t(lo)));
}
void prepare(Fiber *f) {
  getcontext(&f->uc);
  f->uc.uc_stack.ss_sp = f->stack.base + kGuardBytes;
  f->uc.uc_stack.ss_size = f->stack.bytes - kGuardBytes;
  f->uc.uc_link = nullptr;
  uintptr_t p = reinterpret_cast<uintptr_t>(f);
  makecontext(&f->uc, reinterpret_cast<void (*)()>(&trampoline), 2, unsigned(p >> 32), unsigned(p));
}
void enter(BlockRun &run, Fiber *f) { swapcontext(&run.schedulerUc, &f->uc); }
void leave(Fiber *f) { swapcontext(&f->uc, &f->run->schedulerUc); }
#endif

void fiberMain(Fiber *f) {
  unsigned char ret[64];
  f->status = f->run->info->thread(f->run->args, ret, &f->call);
  f->wait = Wait::Done;
  leave(f);
  std::abort();  // a finished fiber is never resumed
}

Fiber *fiberOf(void *ctx) {
  auto *call = static_cast<KjitCallContext *>(ctx);
  return static_cast<Fiber *>(call->kernel->fiber);
}

std::string where(const Site &s) {
  return fmt::format("{} at {}:{}:{}", s.what, s.file ? s.file : "<kernel>", s.line, s.col);
}

// ---- one worker's resources ----------------------------------------------------------

// One OS thread's fibers (their stacks) and shared memory.
struct Worker {
  std::vector<std::unique_ptr<Fiber>> fibers;
  std::vector<char> sharedStorage;
  char *shared = nullptr;
  bool fibersFor(uint32_t n, size_t stackBytes) {
    for (auto &f : fibers)
      if (f->stack.bytes < stackBytes + kGuardBytes) {  // a kernel with larger local arrays
        f->stack.~Stack();
        new (&f->stack) Stack();
        if (!f->stack.allocate(stackBytes)) return false;
      }
    while (fibers.size() < n) {
      auto f = std::make_unique<Fiber>();
      if (!f->stack.allocate(stackBytes)) return false;
      fibers.push_back(std::move(f));
    }
    return true;
  }
  char *sharedFor(size_t bytes) {
    if (sharedStorage.size() < bytes + 64) sharedStorage.assign(bytes + 64, 0);
    auto p = reinterpret_cast<uintptr_t>(sharedStorage.data());
    shared = reinterpret_cast<char *>((p + 63) & ~uintptr_t(63));
    return shared;
  }
};

struct Launch {
  const CpuKernelInfo *info;
  void **args;
  CpuLaunch cfg;
  std::atomic<uint64_t> nextBlock{0};
  std::atomic<bool> failed{false};
  std::mutex errMutex;
  CpuKernelError err;
  uint64_t blocks = 0;
  uint64_t chunk = 1;  // blocks taken at a time by a worker
  uint32_t threads = 0;

  void fail(const CpuKernelError &e) {
    std::lock_guard<std::mutex> lock(errMutex);
    if (!failed.exchange(true)) err = e;
  }
};

void blockIndex(const Launch &L, uint64_t b, int32_t out[3]) {
  out[0] = int32_t(b % L.cfg.grid[0]);
  out[1] = int32_t(b / L.cfg.grid[0] % L.cfg.grid[1]);
  out[2] = int32_t(b / (uint64_t(L.cfg.grid[0]) * L.cfg.grid[1]));
}

void setLaunchRegisters(CpuThreadState &s, const Launch &L, const int32_t bid[3]) {
  for (int a = 0; a < 3; ++a) {
    s.sreg[3 + a] = bid[a];
    s.sreg[6 + a] = int32_t(L.cfg.block[a]);
    s.sreg[9 + a] = int32_t(L.cfg.grid[a]);
  }
}

CpuKernelError raisedBy(KjitCallContext &call, const CpuThreadState &s) {
  CpuKernelError e;
  e.excClass = call.raised ? call.excClass : "RuntimeError";
  e.message = call.raised ? call.message : "the kernel failed";
  e.file = call.file;
  e.line = call.line;
  for (int a = 0; a < 3; ++a) {
    e.thread[a] = s.sreg[a];
    e.block[a] = s.sreg[3 + a];
  }
  e.located = true;
  return e;
}

// The results of the warp operations of warp `w`'s waiting fibers.
void exchange(BlockRun &run, uint32_t w) {
  Fiber *lanes[32] = {};
  uint32_t waiting = 0;
  for (uint32_t l = 0; l < 32; ++l) {
    uint32_t t = w * 32 + l;
    if (t >= run.fibers.size()) break;
    Fiber *f = run.fibers[t];
    if (f->wait == Wait::Warp) {
      lanes[l] = f;
      waiting |= 1u << l;
    }
  }
  // Warp matrix operations: computed once, for the lanes that came to them.
  WarpOp matrixOp = WarpOp::SyncWarp;
  void *records[32] = {};
  int32_t matrixArg = 0;
  for (uint32_t l = 0; l < 32; ++l)
    if (lanes[l] &&
        (WarpOp(lanes[l]->op) == WarpOp::Mma || WarpOp(lanes[l]->op) == WarpOp::MmaSync ||
         WarpOp(lanes[l]->op) == WarpOp::Ldmatrix || WarpOp(lanes[l]->op) == WarpOp::WgmmaA)) {
      matrixOp = WarpOp(lanes[l]->op);
      records[l] = reinterpret_cast<void *>(uintptr_t(lanes[l]->value));
      matrixArg = lanes[l]->arg;
    }
  if (matrixOp == WarpOp::Mma || matrixOp == WarpOp::MmaSync) {
    WmmaOperands *ops[32];
    for (int l = 0; l < 32; ++l) ops[l] = static_cast<WmmaOperands *>(records[l]);
    if (matrixOp == WarpOp::Mma)
      cpuWmmaMma(ops, WmmaInputs(matrixArg));
    else
      cpuMmaSync(ops, WmmaInputs(matrixArg));
  } else if (matrixOp == WarpOp::WgmmaA) {
    WgmmaAOperands *ops[32];
    for (int l = 0; l < 32; ++l) ops[l] = static_cast<WgmmaAOperands *>(records[l]);
    cpuWgmmaA(ops, matrixArg != 0);
  } else if (matrixOp == WarpOp::Ldmatrix) {
    LdmatrixOperands *ops[32];
    for (int l = 0; l < 32; ++l) ops[l] = static_cast<LdmatrixOperands *>(records[l]);
    cpuLdmatrix(ops, matrixArg & 7, (matrixArg & 8) != 0);
  }
  for (uint32_t l = 0; l < 32; ++l) {
    Fiber *f = lanes[l];
    if (!f) continue;
    uint32_t part = waiting & f->mask;
    auto valueOf = [&](int64_t src) -> uint64_t {
      if (src < 0 || src > 31 || !(part >> src & 1)) return f->value;
      return lanes[src]->value;
    };
    uint64_t r = 0;
    switch (WarpOp(f->op)) {
    case WarpOp::ShflIdx: r = valueOf(f->arg & 31); break;
    case WarpOp::ShflUp: r = valueOf(int64_t(l) - int64_t(uint32_t(f->arg))); break;
    case WarpOp::ShflDown: r = valueOf(int64_t(l) + int64_t(uint32_t(f->arg))); break;
    case WarpOp::ShflXor: r = valueOf(int64_t(l ^ (uint32_t(f->arg) & 31))); break;
    case WarpOp::VoteAll:
    case WarpOp::VoteAny:
    case WarpOp::VoteUni:
    case WarpOp::Ballot: {
      uint32_t ballot = 0;
      for (uint32_t k = 0; k < 32; ++k)
        if ((part >> k & 1) && lanes[k]->arg) ballot |= 1u << k;
      if (WarpOp(f->op) == WarpOp::Ballot)
        r = ballot;
      else if (WarpOp(f->op) == WarpOp::VoteAll)
        r = ballot == part;
      else if (WarpOp(f->op) == WarpOp::VoteAny)
        r = ballot != 0;
      else
        r = ballot == 0 || ballot == part;
      break;
    }
    case WarpOp::MatchAny: {
      uint32_t same = 0;
      for (uint32_t k = 0; k < 32; ++k)
        if ((part >> k & 1) && lanes[k]->value == f->value) same |= 1u << k;
      r = same;
      break;
    }
    case WarpOp::MatchAll: {
      bool all = true;
      for (uint32_t k = 0; k < 32; ++k)
        if ((part >> k & 1) && lanes[k]->value != f->value) all = false;
      r = all ? (uint64_t(part) | (uint64_t(1) << 32)) : 0;
      break;
    }
    case WarpOp::ActiveMask: {
      uint32_t same = 0;
      for (uint32_t k = 0; k < 32; ++k)
        if ((waiting >> k & 1) && WarpOp(lanes[k]->op) == WarpOp::ActiveMask) same |= 1u << k;
      r = same;
      break;
    }
    default: break;  // syncwarp, matrix operations (done above)
    }
    f->result = r;
  }
  for (uint32_t l = 0; l < 32; ++l)
    if (lanes[l]) lanes[l]->wait = Wait::Ready;
  run.warpWaiting[w] = 0;
}

// Whether warp `w`'s waiting fibers can go on: every running thread of the
// warp that a participant's mask names has arrived at a warp operation.
bool warpReady(BlockRun &run, uint32_t w) {
  uint32_t masks = 0, arrived = 0, running = 0;
  for (uint32_t l = 0; l < 32; ++l) {
    uint32_t t = w * 32 + l;
    if (t >= run.fibers.size()) break;
    Fiber *f = run.fibers[t];
    if (f->wait == Wait::Warp) {
      masks |= f->mask;
      arrived |= 1u << l;
    }
    if (f->wait != Wait::Done) running |= 1u << l;
  }
  return (masks & running & ~arrived) == 0;
}

std::string divergence(BlockRun &run, const int32_t bid[3]) {
  // Name the first waiting thread and the first that waits elsewhere.
  Fiber *first = nullptr, *other = nullptr;
  for (Fiber *f : run.fibers) {
    if (f->wait != Wait::Block && f->wait != Wait::Warp && f->wait != Wait::Grid) continue;
    if (!first)
      first = f;
    else if (!other && !(f->site == first->site && f->wait == first->wait))
      other = f;
  }
  auto tid = [](Fiber *f) {
    return fmt::format("({}, {}, {})", f->state.sreg[0], f->state.sreg[1], f->state.sreg[2]);
  };
  std::string msg = fmt::format("divergent barrier in block ({}, {}, {}): thread {} waits at {}",
                                bid[0], bid[1], bid[2], tid(first), where(first->site));
  if (other) {
    msg += fmt::format(", thread {} at {}", tid(other), where(other->site));
  } else {
    msg += first->wait == Wait::Warp
               ? ", which threads of its warp named by the mask have left (returned) or wait "
                 "at a syncthreads"
               : ", which other threads wait for elsewhere";
  }
  msg += "; every thread of a block must reach the same barrier";
  return msg;
}

// Block `b`'s threads as the fibers `fibers` (its `n` threads), with
// `shared` as its shared memory.
void setupBlock(Launch &L, BlockRun &run, const std::unique_ptr<Fiber> *fibers, char *shared,
                uint64_t b) {
  uint32_t n = L.threads;
  blockIndex(L, b, run.bid);
  run.info = L.info;
  run.args = L.args;
  run.fibers.resize(n);
  run.warpWaiting.assign((n + 31) / 32, 0);
  for (uint32_t t = 0; t < n; ++t) {
    Fiber *f = run.fibers[t] = fibers[t].get();
    f->run = &run;
    f->wait = Wait::Ready;
    f->status = 0;
    f->lane = t % 32;
    f->warp = t / 32;
    CpuThreadState &s = f->state;
    s.sreg[0] = int32_t(t % L.cfg.block[0]);
    s.sreg[1] = int32_t(t / L.cfg.block[0] % L.cfg.block[1]);
    s.sreg[2] = int32_t(t / (L.cfg.block[0] * L.cfg.block[1]));
    setLaunchRegisters(s, L, run.bid);
    s.shared = shared;
    s.dynamicShared = shared + ((L.info->staticSharedBytes + 15) & ~int64_t(15));
    s.dynamicSharedBytes = L.cfg.dynamicSharedBytes;
    s.fiber = f;
    f->call.kernel = &s;
    f->call.raised = false;
    f->call.setStack(reinterpret_cast<uintptr_t>(f->stack.base + kGuardBytes),
                     reinterpret_cast<uintptr_t>(f->stack.top()));
    prepare(f);
  }
  run.live = n;
}

enum class Step : uint8_t { Progress, GridWait, Done, Failed };

// One round of a block: its ready fibers run until they wait or finish,
// then what can go on is released. GridWait: every running thread is at a
// grid barrier, which only the launch can release.
Step stepBlock(Launch &L, BlockRun &run) {
  // Progress of fibers that poll an mbarrier: one of them went on, another
  // fiber ran, or a barrier changed.
  bool moved = false, polling = false;
  uint64_t changes = run.barrierChanges;
  for (Fiber *f : run.fibers) {
    bool polled = f->wait == Wait::Poll;
    if (f->wait != Wait::Ready && !polled) continue;
    f->wait = Wait::Ready;
    enter(run, f);
    if (f->wait == Wait::Poll) polling = true;
    if (!polled || f->wait != Wait::Poll) moved = true;
    if (f->wait == Wait::Done) {
      --run.live;
      if (f->status == abi::StatusRaised) {  // StatusExit: ended at an unreported raise
        L.fail(raisedBy(f->call, f->state));
        return Step::Failed;
      }
    }
  }
  if (run.live == 0) return Step::Done;
  if (run.blockWaiting > 0 && run.blockWaiting == run.live) {
    // Every running thread is at a syncthreads: the same one?
    Fiber *first = nullptr;
    int32_t count = 0;
    bool all = true, any = false;
    for (Fiber *f : run.fibers) {
      if (f->wait != Wait::Block) continue;
      if (!first)
        first = f;
      else if (!(f->site == first->site)) {
        CpuKernelError e;
        e.excClass = "RuntimeError";
        e.message = divergence(run, run.bid);
        L.fail(e);
        return Step::Failed;
      }
      count += f->arg != 0;
      all = all && f->arg != 0;
      any = any || f->arg != 0;
    }
    for (Fiber *f : run.fibers) {
      if (f->wait != Wait::Block) continue;
      f->result = f->op == 1   ? uint64_t(count)
                  : f->op == 2 ? uint64_t(all)
                  : f->op == 3 ? uint64_t(any)
                               : 0;
      f->wait = Wait::Ready;
    }
    run.blockWaiting = 0;
    return Step::Progress;
  }
  bool released = false;
  for (uint32_t w = 0; w < run.warpWaiting.size(); ++w) {
    if (run.warpWaiting[w] && warpReady(run, w)) {
      exchange(run, w);
      released = true;
    }
  }
  if (!released) {
    // activemask() where its warp has diverged: the lanes that reached it
    // are the active ones (the others wait elsewhere or have returned).
    for (uint32_t w = 0; w < run.warpWaiting.size(); ++w) {
      if (!run.warpWaiting[w]) continue;
      bool onlyActiveMask = true;
      for (uint32_t l = 0; l < 32 && w * 32 + l < run.fibers.size(); ++l) {
        Fiber *f = run.fibers[w * 32 + l];
        if (f->wait == Wait::Warp && WarpOp(f->op) != WarpOp::ActiveMask) onlyActiveMask = false;
      }
      if (onlyActiveMask) {
        exchange(run, w);
        released = true;
      }
    }
  }
  if (released) return Step::Progress;
  if (polling) {
    if (moved || run.barrierChanges != changes) return Step::Progress;
    Fiber *p = nullptr;
    for (Fiber *f : run.fibers)
      if (!p && f->wait == Wait::Poll) p = f;
    CpuKernelError e;
    e.excClass = "RuntimeError";
    e.message = fmt::format(
        "deadlock in block ({}, {}, {}): thread ({}, {}, {}) waits at {} for {} that no running "
        "thread can complete (a GPU would hang)",
        run.bid[0], run.bid[1], run.bid[2], p->state.sreg[0], p->state.sreg[1], p->state.sreg[2],
        where(p->site), p->site.awaited);
    L.fail(e);
    return Step::Failed;
  }
  if (run.gridWaiting > 0 && run.gridWaiting == run.live) return Step::GridWait;
  // Every running thread waits, and none can go on.
  CpuKernelError e;
  e.excClass = "RuntimeError";
  e.message = divergence(run, run.bid);
  L.fail(e);
  return Step::Failed;
}

// Runs block `b` with fibers; false when it failed (recorded in L).
bool runFiberBlock(Launch &L, Worker &W, uint64_t b) {
  BlockRun run;
  setupBlock(L, run, W.fibers.data(), W.shared, b);
  for (;;) {
    switch (stepBlock(L, run)) {
    case Step::Progress: continue;
    case Step::Done: return true;
    case Step::Failed: return false;
    case Step::GridWait: {  // (kind 4 is only compiled into cooperative kernels)
      CpuKernelError e;
      e.excClass = "RuntimeError";
      e.message = "grid.sync() in a launch that is not cooperative";
      L.fail(e);
      return false;
    }
    }
  }
}

// The cooperative worker's fibers beyond a block's worth go back to the
// system after the launch (each stack is two mappings, and the process has
// a limit on those).
thread_local Worker cooperativeWorker;
void releaseCooperativeStacks() {
  if (cooperativeWorker.fibers.size() > 1024) cooperativeWorker.fibers.resize(1024);
}

// A kernel with a grid barrier (cuda.cg.this_grid().sync()): every block is
// resident, as a cooperative launch makes them on a GPU, so all the grid's
// threads are fibers of this one scheduler. The grid barrier is released
// when every running thread of every block waits there; a block that has
// returned while others wait there is an error (a GPU would hang).
void runCooperative(Launch &L) {
  uint64_t max = uint64_t(kCpuMaxCooperativeThreads);
  uint64_t total = L.blocks > max ? max + 1 : L.blocks * L.threads;
  if (total > max) {
    CpuKernelError e;
    e.excClass = "RuntimeError";
    e.message = fmt::format(
        "cooperative launch too large: {} blocks of {} threads; a kernel that calls "
        "grid.sync() runs every block at once, and the CPU device holds at most {} threads "
        "(kernel.max_cooperative_grid_blocks(blockdim) gives the largest grid)",
        L.blocks, L.threads, kCpuMaxCooperativeThreads);
    L.fail(e);
    return;
  }
  Worker &W = cooperativeWorker;
  size_t stackBytes =
      std::max(cpuFiberStackBytes(), size_t(L.info->localBytes + 128 * 1024 + 4095) / 4096 * 4096);
  if (!W.fibersFor(uint32_t(total), stackBytes)) {
    CpuKernelError e;
    e.excClass = "MemoryError";
    e.message = fmt::format("cannot map the stacks of {} threads", total);
    L.fail(e);
    return;
  }
  size_t perBlock =
      size_t((((L.info->staticSharedBytes + 15) & ~int64_t(15)) + L.cfg.dynamicSharedBytes + 63) &
             ~int64_t(63));
  if (perBlock * L.blocks > size_t(kCpuMaxCooperativeSharedBytes)) {
    CpuKernelError e;
    e.excClass = "RuntimeError";
    e.message = fmt::format(
        "cooperative launch too large: {} blocks of {} bytes of shared memory; a kernel that "
        "calls grid.sync() has every block's shared memory at once, and the CPU device holds "
        "at most {} bytes of it (kernel.max_cooperative_grid_blocks(blockdim, dynsmemsize) "
        "gives the largest grid)",
        L.blocks, perBlock, kCpuMaxCooperativeSharedBytes);
    L.fail(e);
    return;
  }
  std::vector<char> storage(perBlock * L.blocks + 64, 0);
  char *shared =
      reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(storage.data()) + 63) & ~uintptr_t(63));
  std::vector<BlockRun> runs(L.blocks);
  for (uint64_t b = 0; b < L.blocks; ++b)
    setupBlock(L, runs[b], W.fibers.data() + b * L.threads, shared + b * perBlock, b);
  uint64_t finished = 0;
  while (finished < L.blocks) {
    bool progress = false;
    BlockRun *done = nullptr;  // a block that has returned
    for (BlockRun &run : runs) {
      if (run.finished) {
        done = &run;
        continue;
      }
      switch (stepBlock(L, run)) {
      case Step::Failed: return;
      case Step::Done:
        run.finished = true;
        done = &run;
        ++finished;
        progress = true;
        break;
      case Step::Progress: progress = true; break;
      case Step::GridWait: break;
      }
    }
    if (progress || finished == L.blocks) continue;
    // Every block that runs waits at the grid barrier.
    if (done) {
      Fiber *f = nullptr;
      for (BlockRun &run : runs)
        for (Fiber *g : run.fibers)
          if (!f && g->wait == Wait::Grid) f = g;
      CpuKernelError e;
      e.excClass = "RuntimeError";
      e.message = fmt::format(
          "divergent grid barrier: block ({}, {}, {}) waits at {}, and block ({}, {}, {}) has "
          "returned; every block must reach each grid.sync() (a GPU would hang)",
          f->state.sreg[3], f->state.sreg[4], f->state.sreg[5], where(f->site), done->bid[0],
          done->bid[1], done->bid[2]);
      L.fail(e);
      return;
    }
    for (BlockRun &run : runs) {
      for (Fiber *f : run.fibers)
        if (f->wait == Wait::Grid) f->wait = Wait::Ready;
      run.gridWaiting = 0;
    }
  }
}

void runWorker(Launch &L);

// A worker's run; memory it cannot get fails the launch (never the process).
void worker(Launch &L) {
  try {
    runWorker(L);
  } catch (const std::bad_alloc &) {
    CpuKernelError e;
    e.excClass = "MemoryError";
    e.message = "the CPU device cannot allocate a block's shared memory or its threads' stacks";
    L.fail(e);
  }
}

void runWorker(Launch &L) {
  // Stacks and shared memory stay with the OS thread from launch to launch
  // (mapping hundreds of stacks per launch cost more than small kernels).
  thread_local Worker W;
  int64_t sharedBytes =
      ((L.info->staticSharedBytes + 15) & ~int64_t(15)) + L.cfg.dynamicSharedBytes;
  W.sharedFor(size_t(sharedBytes));
  bool fibers = L.info->needsFibers != 0;
  size_t stackBytes =
      std::max(cpuFiberStackBytes(), size_t(L.info->localBytes + 128 * 1024 + 4095) / 4096 * 4096);
  if (fibers && !W.fibersFor(L.threads, stackBytes)) {
    CpuKernelError e;
    e.excClass = "MemoryError";
    e.message = fmt::format("cannot map the stacks of {} threads", L.threads);
    L.fail(e);
    return;
  }
  KjitCallContext call;
  CpuThreadState state{};
  state.shared = W.shared;
  state.dynamicShared = W.shared + ((L.info->staticSharedBytes + 15) & ~int64_t(15));
  state.dynamicSharedBytes = L.cfg.dynamicSharedBytes;
  call.kernel = &state;
  unsigned char ret[64];
  for (;;) {
    if (L.failed.load(std::memory_order_relaxed)) return;
    uint64_t first = L.nextBlock.fetch_add(L.chunk, std::memory_order_relaxed);
    if (first >= L.blocks) return;
    uint64_t last = std::min(L.blocks, first + L.chunk);
    for (uint64_t b = first; b < last; ++b) {
      if (fibers) {
        if (!runFiberBlock(L, W, b)) return;
        continue;
      }
      int32_t bid[3];
      blockIndex(L, b, bid);
      setLaunchRegisters(state, L, bid);
      if (L.info->block(L.args, ret, &call) != 0) {
        L.fail(raisedBy(call, state));  // the block function stored the thread's index
        return;
      }
    }
  }
}

}  // namespace

size_t cpuFiberStackBytes() {
  static const size_t bytes = [] {
    size_t v = size_t(envInt("KJIT_CPU_STACK", 256 * 1024, 16 * 1024));
    return (v + 4095) / 4096 * 4096;
  }();
  return bytes;
}

bool runCpuKernel(const CpuKernelInfo &info, void **args, const CpuLaunch &launch, ThreadPool *pool,
                  CpuKernelError &err) {
  Launch L;
  L.info = &info;
  L.args = args;
  L.cfg = launch;
  L.blocks = uint64_t(launch.grid[0]) * launch.grid[1] * launch.grid[2];
  L.threads = launch.block[0] * launch.block[1] * launch.block[2];
  if (L.blocks == 0 || L.threads == 0) return true;
  int64_t shared = ((info.staticSharedBytes + 15) & ~int64_t(15)) + launch.dynamicSharedBytes;
  if (launch.dynamicSharedBytes < 0 || shared > kCpuMaxSharedBytes) {
    err.excClass = "RuntimeError";
    err.message = fmt::format(
        "the kernel's shared memory is {} bytes per block ({} static, {} dynamic); a GPU "
        "block has at most {} (227 KiB), and so does the CPU device",
        shared, info.staticSharedBytes, launch.dynamicSharedBytes, kCpuMaxSharedBytes);
    return false;
  }
  if (info.localBytes > kCpuMaxLocalBytes) {
    err.excClass = "RuntimeError";
    err.message = fmt::format(
        "the kernel's local arrays take {} bytes per thread; a GPU thread has at most {} "
        "(512 KiB) of local memory, and so does the CPU device",
        info.localBytes, kCpuMaxLocalBytes);
    return false;
  }
  if (info.needsFibers == 2) {  // a grid barrier: every block at once, on this thread
    try {
      runCooperative(L);
      releaseCooperativeStacks();
    } catch (const std::bad_alloc &) {
      err.excClass = "MemoryError";
      err.message =
          "the CPU device cannot allocate the grid's shared memory or its threads' stacks";
      return false;
    }
    if (L.failed) err = L.err;
    return !L.failed;
  }
  unsigned workers = pool ? unsigned(std::min<uint64_t>(pool->size(), L.blocks)) : 1;
  // About 16 chunks per worker: few atomic operations, and the load still
  // balances when blocks differ in cost.
  L.chunk = std::max<uint64_t>(1, L.blocks / (uint64_t(workers) * 16));
  if (workers <= 1) {
    worker(L);
  } else {
    pool->run(workers, [&](unsigned) { worker(L); });
  }
  if (L.failed) {
    err = L.err;
    return false;
  }
  return true;
}

// ---- what the CPU device's Hopper operations need (CpuHopper.cpp) ---------------------

void fiberPoll(void *ctx, const char *file, int32_t line, int32_t col, const char *what,
               const char *awaited) {
  Fiber *f = fiberOf(ctx);
  f->site = {file, line, col, what, awaited};
  f->wait = Wait::Poll;
  leave(f);
}

[[noreturn]] void fiberEnd(void *ctx) {
  Fiber *f = fiberOf(ctx);
  f->status = abi::StatusRaised;
  f->wait = Wait::Done;
  leave(f);
  std::abort();  // never resumed
}

void fiberBarrierChanged(void *ctx) { ++fiberOf(ctx)->run->barrierChanges; }

namespace {

// An arrival at `b` (whose phase counts b.expected threads); with `wait`,
// polls until the phase completes.
void arrive(void *ctx, CountedBarrier &b, bool wait, const char *file, int32_t line, int32_t col,
            const char *what) {
  uint32_t generation = b.generation;
  ++fiberOf(ctx)->run->barrierChanges;
  if (++b.count == b.expected) {
    b = CountedBarrier{0, 0, generation + 1};
    return;
  }
  while (wait && b.generation == generation)
    fiberPoll(ctx, file, line, col, what, "a barrier phase");
}

}  // namespace

void fiberWarpgroupSync(void *ctx, const char *file, int32_t line, int32_t col) {
  BlockRun &run = *fiberOf(ctx)->run;
  uint32_t g = fiberLinearThread(ctx) / 128;
  run.groups[g].expected = std::min<uint32_t>(128, uint32_t(run.fibers.size()) - g * 128);
  arrive(ctx, run.groups[g], true, file, line, col, "wgmma.commit_group()");
}

bool fiberNamedBarrier(void *ctx, int64_t id, int64_t count, bool wait, const char *file,
                       int32_t line, int32_t col, std::string &err) {
  BlockRun &run = *fiberOf(ctx)->run;
  if (id < 0 || id > 15) {
    err = fmt::format("the barrier is {}; a block has barriers 0 to 15", id);
    return false;
  }
  if (count <= 0 || count % 32 || count > 1024) {
    err = fmt::format("the thread count is {}; it is a multiple of 32 (whole warps) up to 1024",
                      count);
    return false;
  }
  CountedBarrier &b = run.named[id];
  if (b.expected == 0) b.expected = uint32_t(count);
  if (b.expected != uint32_t(count)) {
    err = fmt::format("barrier {} is counting {} threads; this thread says {}", id, b.expected,
                      count);
    return false;
  }
  arrive(ctx, b, wait, file, line, col, "named_barrier_sync()");
  return true;
}

uint32_t fiberLinearThread(void *ctx) {
  const int32_t *s = fiberOf(ctx)->state.sreg;
  return uint32_t(s[0] + s[6] * (s[1] + s[7] * s[2]));
}

}  // namespace kjit

// ---- what compiled kernels call -------------------------------------------------------

using kjit::Fiber;

extern "C" {

// syncthreads (kind 0), syncthreads_count/_and/_or (1/2/3) and the grid
// barrier of cooperative kernels (4).
int32_t kjit_cpu_sync(void *ctx, int32_t kind, int32_t pred, const char *file, int32_t line,
                      int32_t col) {
  Fiber *f = kjit::fiberOf(ctx);
  f->op = kind;
  f->arg = pred;
  f->site = {file, line, col,
             kind == 0   ? "syncthreads()"
             : kind == 1 ? "syncthreads_count()"
             : kind == 2 ? "syncthreads_and()"
             : kind == 3 ? "syncthreads_or()"
                         : "grid.sync()"};
  if (kind == 4) {
    f->wait = kjit::Wait::Grid;
    ++f->run->gridWaiting;
  } else {
    f->wait = kjit::Wait::Block;
    ++f->run->blockWaiting;
  }
  kjit::leave(f);
  return int32_t(f->result);
}

// Warp operations (WarpOp, frontend/support/KernelAbi.h): `value` is the
// operand's bits, `arg` the lane, delta, lane mask or predicate.
uint64_t kjit_cpu_warp(void *ctx, int32_t op, int32_t mask, uint64_t value, int32_t arg,
                       const char *file, int32_t line, int32_t col) {
  static const char *const names[] = {"shfl_sync()",      "shfl_up_sync()", "shfl_down_sync()",
                                      "shfl_xor_sync()",  "all_sync()",     "any_sync()",
                                      "eq_sync()",        "ballot_sync()",  "match_any_sync()",
                                      "match_all_sync()", "syncwarp()"};
  Fiber *f = kjit::fiberOf(ctx);
  f->wait = kjit::Wait::Warp;
  f->op = op;
  f->mask = uint32_t(mask) | (1u << f->lane);
  f->value = value;
  f->arg = arg;
  f->site = {file, line, col, names[op >= 0 && op <= 10 ? op : 10]};
  ++f->run->warpWaiting[f->warp];
  kjit::leave(f);
  return f->result;
}

// The lanes of the caller's warp that execute with it: those that reach
// this activemask() together (every running lane of a converged warp).
int32_t kjit_cpu_activemask(void *ctx) {
  Fiber *f = kjit::fiberOf(ctx);
  f->wait = kjit::Wait::Warp;
  f->op = int32_t(kjit::WarpOp::ActiveMask);
  f->mask = 0xffffffffu;
  f->value = 0;
  f->arg = 0;
  f->site = {nullptr, 0, 0, "activemask()"};
  ++f->run->warpWaiting[f->warp];
  kjit::leave(f);
  return int32_t(f->result);
}

}  // extern "C"
