// LoweringImpl.h - the classes behind lowerToLLVM, shared by Lowering.cpp
// (statements, scalars, calls) and LoweringArrays.cpp (arrays). Only those
// two files include it: it pulls in LLVM.
#pragma once

#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/IR.h"
#include "compiler/Lowering.h"
#include "compiler/TypeInference.h"
#include "compiler/Wmma.h"
#include "frontend/support/KernelAbi.h"  // abi::Status, the CUDA error record

namespace kjit::lowering {

// Module-wide state: LLVM types of kjit types, declared functions, runtime
// entry points, string constants.
class ProgramLowering {
 public:
  ProgramLowering(llvm::LLVMContext &c, llvm::Module &m, const SourceManager &sm,
                  std::string prefix)
      : C(c), M(m), sm(sm), prefix(std::move(prefix)) {}
  llvm::LLVMContext &C;
  llvm::Module &M;
  const SourceManager &sm;
  std::string prefix;  // of every symbol
  bool cuda = false;   // a GPU: the kernel language, device math, error records
  // ... on an AMD GPU (LoweringAmdgpu.cpp): AMDGPU intrinsics, ocml math,
  // ockl printf and malloc; `wavefront` lanes a warp.
  bool amdgpu = false;
  unsigned wavefront = 32;
  // The CUDA error model (x // 0 is 0, no ZeroDivisionError): NVPTX and
  // the CPU device.
  bool gpuModel = false;
  // A kernel's `raise` is reported (debug=True, TypedProgram::debug); else it
  // ends the thread (abi::StatusExit).
  bool reportRaises = true;
  // NVPTX: the exceptions a debug kernel can raise, "Class:message", by
  // their number in the error record (from 1) (emitErrorTables).
  std::map<std::string, uint32_t> raiseSites;
  // The CPU device: a kernel lowered for the host (LoweringCpuKernel.cpp).
  bool cpuKernel = false;
  bool cpuNeedsFibers = false;  // a barrier or warp operation was lowered
  // A TMA copy or wgmma was lowered: dynamic shared memory starts 1024-byte
  // aligned (the 128-byte swizzle's pattern repeats every 1024 bytes).
  bool sharedAlign1024 = false;
  bool cpuGridSync = false;    // a grid barrier: every block's threads run together
  int64_t cpuSharedBytes = 0;  // static shared arrays, laid out one after another
  int64_t cpuConstBytes = 0;   // what a GPU's constant memory would hold (arrays, print formats)
  int64_t cpuLocalBytes = 0;   // local arrays of every function: a bound on a thread's
  llvm::Function *cpuSregFn = nullptr;
  llvm::Function *cpuSreg();  // i32 (ptr ctx, i32 k): CpuThreadState::sreg[k]
  // Line tables (lineinfo): null when off.
  std::unique_ptr<llvm::DIBuilder> di;
  llvm::DICompileUnit *cu = nullptr;
  llvm::DISubprogram *subprogram(const std::string &name, SourceLoc loc);
  // lineinfo: gives a wrapper (entry, kernel) a subprogram and `B` its
  // location, so that the body inlined into it keeps its lines.
  void describeWrapper(llvm::Function *fn, const std::string &name, SourceLoc loc,
                       llvm::IRBuilder<> &B);
  std::map<const ir::Function *, llvm::Function *> functions;

  llvm::Type *lt(const Type *t);     // the register form
  llvm::Type *memTy(const Type *t);  // the memory form (bool as i8)
  // What an array element of dtype `t` is in memory: the memory form, or
  // a record's bytes.
  llvm::Type *elemTy(const Type *t);
  llvm::StructType *arrayTy(unsigned ndim);
  llvm::Constant *cstr(const std::string &s);
  llvm::Constant *constString(const std::string &s);  // NVPTX: in constant memory
  llvm::FunctionCallee runtime(const char *name);
  llvm::Function *declare(const ir::Function &f);

 private:
  std::map<unsigned, llvm::StructType *> arrayTypes_;
  std::map<std::string, llvm::Constant *> strings_, constStrings_;
};

class FunctionLowering {
 public:
  FunctionLowering(ProgramLowering &p, const ir::Function &f);
  // Lowering into another LLVM function (a prange loop's outlined body),
  // with the variables of `f`.
  FunctionLowering(ProgramLowering &p, const ir::Function &f, llvm::Function *target,
                   llvm::Value *ctx);
  void run();

  ProgramLowering &P;
  llvm::LLVMContext &C;
  llvm::IRBuilder<> B;
  const ir::Function &F;
  // Division by zero: NumPy's results, not ZeroDivisionError (CUDA, and
  // error_model='numpy').
  bool numpyErrors() const { return (P.gpuModel && !P.reportRaises) || F.numpyErrors; }
  llvm::Function *LF = nullptr;
  llvm::Value *retPtr = nullptr;
  llvm::Value *ctxPtr = nullptr;
  std::vector<llvm::AllocaInst *> slots;  // by Var::id
  struct Loop {
    llvm::BasicBlock *cont;
    llvm::BasicBlock *brk;
  };
  std::vector<Loop> loops;
  llvm::DISubprogram *scope = nullptr;  // lineinfo: this function's
  // Values of nodes shared within one statement (see IR.h); scoped so that
  // a value computed in a branch is not used past the branch's merge.
  std::unordered_map<const ir::Expr *, llvm::Value *> memo;
  std::vector<std::vector<const ir::Expr *>> memoScopes;

  // ---- helpers ----
  llvm::BasicBlock *block(const char *name) { return llvm::BasicBlock::Create(C, name, LF); }
  llvm::AllocaInst *entryAlloca(llvm::Type *t, const char *name);
  // The CPU device's warp operations take their operands as one record of
  // pointers: the record's address as an i64 (runtime/host/CpuMatrix.cpp).
  llvm::Value *pointerRecord(llvm::ArrayRef<llvm::Value *> ptrs, const char *name);
  // A tuple's n elements (of LLVM type et) stored into a stack array, for
  // run-time indexing (LLVM turns it back into registers once the index is
  // known); and a run-time tuple index made non-negative, IndexError outside.
  llvm::AllocaInst *spillTuple(llvm::Value *tuple, llvm::Type *et, unsigned n, const char *name);
  llvm::Value *tupleIndex(llvm::Value *i, int64_t n, SourceLoc loc);
  void startDeadBlock();  // after a terminator: code that follows is unreachable
  bool terminated() const { return B.GetInsertBlock()->getTerminator() != nullptr; }
  // Raises exc(msg) at loc when `bad` is true, continuing otherwise.
  void raiseIf(llvm::Value *bad, const std::string &exc, const std::string &msg, SourceLoc loc);
  // A Python exception: in a kernel without debug=True, the thread ends
  // instead (Numba's rule); `always` reports it there too (kjit's own
  // errors, such as a call the CPU device cannot make).
  void emitRaise(const std::string &exc, const std::string &msg, SourceLoc loc,
                 bool always = false);
  void checkStatus(llvm::Value *status);
  // After an exception was recorded: to the innermost enclosing try's
  // handler, or return `status` to the caller.
  void propagate(llvm::Value *status);
  std::vector<llvm::BasicBlock *> handlers;  // the enclosing try statements' handlers
  void tryStmt(const ir::Try *t);
  llvm::Value *i64(int64_t v) { return B.getInt64(uint64_t(v)); }
  llvm::Value *toMem(llvm::Value *v, const Type *t);
  llvm::Value *fromMem(llvm::Value *v, const Type *t);
  llvm::Value *zeroOf(const Type *t) { return llvm::Constant::getNullValue(P.lt(t)); }

  // ---- statements ----
  void block(const ir::Block &b);
  void stmt(const ir::Stmt *s);
  void forRange(const ir::ForRange *f);
  void whileLoop(const ir::While *w);
  void allocateSlots();
  // By Var::id: the variable owns the arrays assigned to it
  // (passes::arrayOwnership): each is freed when the next is assigned. Empty
  // on the GPU and for CPU kernels.
  std::vector<char> ownsArray;
  // prange: the body outlined and run on the thread pool (LoweringParallel.cpp).
  void parallelFor(const ir::ForRange *f);

  // ---- expressions (Lowering.cpp) ----
  llvm::Value *expr(const ir::Expr *e);
  llvm::Value *exprUncached(const ir::Expr *e);
  llvm::Value *constant(const ir::Const *c);
  llvm::Value *convert(llvm::Value *v, const Type *from, const Type *to);
  llvm::Value *roundToOddFloat(llvm::Value *d);
  llvm::Value *float8Convert(llvm::Value *v, const Type *from, const Type *to);
  llvm::Value *float8ToFloat(llvm::Value *b8, bool e5m2);
  llvm::Value *floatToFloat8(llvm::Value *f, bool e5m2);
  llvm::Value *optionalCast(const ir::Cast *c);
  llvm::Value *truthOf(llvm::Value *v, const Type *from);  // a number's truth, as i1
  llvm::Value *unary(const ir::Unary *u);
  llvm::Value *binary(const ir::Binary *b);
  llvm::Value *intBinary(ir::BinOp op, llvm::Value *l, llvm::Value *r, const Type *t,
                         SourceLoc loc);
  llvm::Value *floatBinary(ir::BinOp op, llvm::Value *l, llvm::Value *r, const Type *t,
                           SourceLoc loc);
  llvm::Value *complexBinary(ir::BinOp op, llvm::Value *l, llvm::Value *r, const Type *t,
                             SourceLoc loc);
  llvm::Value *logical(const ir::Logical *l);
  llvm::Value *select(const ir::Select *s);
  llvm::Value *call(const ir::Call *c);
  llvm::Value *intrinsic(const ir::Intrinsic *in);
  llvm::Value *mathCall(ir::IntrinsicId id, std::vector<llvm::Value *> args, const Type *t);
  llvm::Value *intPow(llvm::Value *a, llvm::Value *b, const Type *t, SourceLoc loc);
  llvm::Value *floatPowInt(llvm::Value *a, llvm::Value *b);
  llvm::Value *complexPow(llvm::Value *a, llvm::Value *b, const Type *t);
  void print(const ir::Intrinsic *in);

  // ---- arrays (LoweringArrays.cpp) ----
  // (An axis the array lacks is a typer's bug: an internal error, not a
  // crash in LLVM.)
  llvm::Value *shapeOf(llvm::Value *desc, unsigned d) { return descField(desc, 2u, d); }
  llvm::Value *strideOf(llvm::Value *desc, unsigned d) { return descField(desc, 3u, d); }
  llvm::Value *descField(llvm::Value *desc, unsigned field, unsigned d);
  llvm::Value *dataOf(llvm::Value *desc) { return B.CreateExtractValue(desc, {1u}); }
  llvm::Value *elementAddress(llvm::Value *desc, const Type *arrTy, std::vector<llvm::Value *> idx,
                              bool wraparound, bool boundscheck, SourceLoc loc);
  llvm::Value *arrayLoad(const ir::ArrayLoad *l);
  void arrayStore(const ir::Store *s);
  llvm::Value *arrayView(const ir::ArrayView *v);
  llvm::Value *allocate(const Type *arrTy, const std::vector<llvm::Value *> &dims, SourceLoc loc);
  // Calls body(address, flatIndex) for every element, in C order.
  void forEachElement(llvm::Value *desc, const Type *arrTy,
                      const std::function<void(llvm::Value *, llvm::Value *)> &body);
  llvm::Value *arrayIntrinsic(const ir::Intrinsic *in);
  // A new C-contiguous array of type t (the dtype of st) with src's elements.
  llvm::Value *copyArray(llvm::Value *src, const Type *st, const Type *t, SourceLoc loc);
  // Records: field reads and writes, the fields of arrays of records, and
  // the copy of a record's bytes.
  llvm::Value *recordIntrinsic(const ir::Intrinsic *in);
  void copyRecord(llvm::Value *dst, llvm::Value *src, const Type *rec);
  llvm::Value *accumulate(const ir::Expr *arrayExpr, const Type *t, double identity, bool skipNan,
                          const std::function<llvm::Value *(llvm::Value *, llvm::Value *)> &step,
                          llvm::Value *init = nullptr);
  llvm::Value *divideByCount(llvm::Value *x, llvm::Value *n, const Type *t);
  // An IndexError for `index` on `axis` (of length `n`): on the host through
  // the runtime, on the GPU in the module's error record.
  void indexError(llvm::Value *index, unsigned axis, llvm::Value *n, SourceLoc loc);

  // ---- lists (LoweringLists.cpp) ----
  llvm::Value *listIntrinsic(const ir::Intrinsic *in);

  // ---- CUDA (LoweringCuda.cpp) ----
  llvm::Value *cudaIntrinsic(const ir::Intrinsic *in);
  void gridSync();                                    // cuda.cg.this_grid().sync() on NVIDIA GPUs
  llvm::Value *cacheHinted(const ir::Intrinsic *in);  // cuda.ldcs(), cuda.stcs() ...
  // threadIdx, blockIdx, blockDim, gridDim (i32) on either GPU.
  llvm::Value *gpuSreg(ir::IntrinsicId id, unsigned axis);
  // ---- AMD GPUs (LoweringAmdgpu.cpp) ----
  // The kernel-language intrinsics whose AMDGPU form differs from NVPTX's;
  // null for the others.
  llvm::Value *amdgpuIntrinsic(const ir::Intrinsic *in);
  llvm::Value *amdgpuSreg(ir::IntrinsicId id, unsigned axis);
  llvm::Value *amdgpuDynamicSharedBytes();  // i32
  // A fence: "workgroup", "agent" or "" (the system).
  void amdgpuFence(const char *scope, llvm::AtomicOrdering order);
  void amdgpuPrint(const ir::Intrinsic *in);
  llvm::Value *atomic(const ir::Intrinsic *in);
  void cudaPrint(const ir::Intrinsic *in);
  std::vector<llvm::Value *> printfValues(const ir::Intrinsic *in);
  void cudaIndexError(llvm::Value *index, unsigned axis, llvm::Value *n, SourceLoc loc);
  void cudaRaise(const std::string &exc, const std::string &msg, SourceLoc loc);
  // Fills the error record (the first failing thread only) and returns
  // StatusRaised: the thread ends, the runtime reports the record.
  void cudaRecordError(SourceLoc loc, uint32_t raise, llvm::Value *index, unsigned axis,
                       llvm::Value *n);

  // ---- the CPU device (LoweringCpuKernel.cpp) ----
  // The kernel language on the host; null for what is lowered as on the GPU.
  llvm::Value *cpuKernelIntrinsic(const ir::Intrinsic *in);
  // kjit_cpu_warp(ctx, op, mask, bits, arg, site): a warp operation of `in`.
  llvm::Value *cpuWarpCall(const ir::Intrinsic *in, WarpOp op, llvm::Value *mask, llvm::Value *bits,
                           llvm::Value *arg);

  // ---- cuda.wmma (LoweringWmma.cpp) ----
  llvm::Value *wmmaIntrinsic(const ir::Intrinsic *in);
  llvm::Value *cpuWmmaIntrinsic(const ir::Intrinsic *in, llvm::Value *lane);
  // LLVM's intrinsic `name` (its overloaded types, if any, given).
  llvm::Function *nvvmIntrinsic(const std::string &name,
                                llvm::ArrayRef<llvm::Type *> overloads = {});
  std::vector<llvm::Value *> wmmaRegisters(llvm::Value *frag, const wmma::Fragment &f);
  llvm::Value *wmmaFragment(llvm::Value *regs, const Type *t, const wmma::Fragment &f);
  std::vector<llvm::Value *> tensorRegisters(llvm::Value *tuple, unsigned n, const Type *elem);
  llvm::Value *tensorTuple(llvm::Value *regs, const Type *t, unsigned n, const Type *elem);
  void cpAsyncAddresses(const ir::Intrinsic *in, llvm::Value *&dst, llvm::Value *&src);
  llvm::Value *cpuMatrixProduct(const ir::Intrinsic *in, WarpOp op);
  llvm::Value *externCall(const ir::Intrinsic *in);  // cuda.declare_device (LoweringIntrinsics.cpp)

  // ---- Hopper: mbarriers, TMA, wgmma, setmaxnreg (LoweringHopper.cpp) ----
  llvm::Value *hopperIntrinsic(const ir::Intrinsic *in);
  llvm::Value *cpuHopperIntrinsic(const ir::Intrinsic *in);
  llvm::Value *ptxAsm(llvm::Type *ret, const std::string &text, const std::string &constraints,
                      llvm::ArrayRef<llvm::Value *> args);
  llvm::Value *sharedAddress(llvm::Value *generic);
  llvm::Value *linearThreadIndex();
  void wgmmaStore(const ir::Intrinsic *in);
  bool unrollWhole(const ir::ForRange *f);
  void alignForTensorCopies(llvm::GlobalVariable *gv);
};

// Lowering.cpp: a value's register form (bool as i1) <-> memory form (i8).
llvm::Value *toMemForm(llvm::IRBuilder<> &B, ProgramLowering &P, llvm::Value *v, const Type *t);
llvm::Value *fromMemForm(llvm::IRBuilder<> &B, ProgramLowering &P, llvm::Value *v, const Type *t);

// Lowering.cpp: the C library's name of a math intrinsic, or null.
const char *cMathName(ir::IntrinsicId id);

// LoweringCuda.cpp
std::string libdeviceName(ir::IntrinsicId id, bool f32);
// LoweringAmdgpu.cpp: ocml's name for a math function (`__ocml_sin_f64`),
// or empty where LLVM's own intrinsic is used.
std::string ocmlName(ir::IntrinsicId id, unsigned bits, bool fastmath);
void emitKernelEntry(ProgramLowering &P, const ir::Function &f);
void defineDeviceAllocator(ProgramLowering &P);  // CUDA: kjit_rt_alloc/free on the device heap
// The vprintf format of print(...) in a kernel (LoweringCuda.cpp).
std::string vprintfFormat(const ir::Intrinsic *in);
// print(): whether item i follows a space (tuples glue their punctuation),
// and how many values vprintf would take (a complex number is two); past
// kMaxPrintfValues a kernel prints the raw format, as CUDA's printf limits.
bool printSpaceBefore(const ir::Intrinsic *in, size_t i);
size_t printfValueCount(const ir::Intrinsic *in);
constexpr size_t kMaxPrintfValues = 32;
// The raise table of a module whose kernels record exceptions
// (`kjit_error_raises`, abi::ErrorRecordField), after its functions.
void emitErrorTables(ProgramLowering &P);
// LoweringRecursion.cpp: host code's functions on a cycle of calls check at
// their entry that the stack has room, raising RecursionError where not.
void emitRecursionChecks(ProgramLowering &P);
// LoweringCpuKernel.cpp: the block function and the CpuKernelInfo constant
// named `infoSymbol`; `thread` is the entry wrapper of `f`.
void emitCpuKernel(ProgramLowering &P, const ir::Function &f, llvm::Function *thread,
                   const std::string &infoSymbol);

}  // namespace kjit::lowering
