// LoweringCpuKernel.cpp - the kernel language for the CPU device: a CUDA
// kernel lowered as host code that runtime/host/CpuKernel runs.
//
// threadIdx and the other special registers are read from the thread's
// CpuThreadState (the KjitCallContext's first member points to it) through
// one small function, kjit.cpu.sreg(ctx, k). Barriers and warp operations
// call the executor, which switches fibers there. Shared arrays are slices
// of the block's shared memory, laid out at compile time.
//
// Two entry points: the thread function (the entry wrapper, one GPU thread)
// and the block function, which runs every thread of a block in a loop. In
// the block function the kernel body is inlined and kjit.cpu.sreg becomes
// the loop counters (threadIdx) or values read once (blockIdx, blockDim,
// gridDim): barrier-free kernels are then plain loops that LLVM vectorises.
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <cstddef>
#include <cstdint>
#include <set>

#include "compiler/LoweringImpl.h"
#include "frontend/support/KernelAbi.h"

namespace kjit::lowering {

using namespace ir;

namespace {

// Byte offsets in CpuThreadState (frontend/support/KernelAbi.h).
constexpr unsigned kSharedOffset = offsetof(CpuThreadState, shared);
constexpr unsigned kDynamicOffset = offsetof(CpuThreadState, dynamicShared);
constexpr unsigned kDynamicBytesOffset = offsetof(CpuThreadState, dynamicSharedBytes);

llvm::Value *loadState(llvm::IRBuilder<> &B, llvm::Value *ctx) {
  llvm::LLVMContext &C = B.getContext();
  auto *state = B.CreateLoad(llvm::PointerType::getUnqual(C), ctx, "cpu.state");
  state->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(C, {}));
  state->setMetadata(llvm::LLVMContext::MD_nonnull, llvm::MDNode::get(C, {}));
  return state;
}

unsigned sregIndex(IntrinsicId id, unsigned axis) {
  unsigned row = id == IntrinsicId::ThreadIdx  ? 0
                 : id == IntrinsicId::BlockIdx ? 1
                 : id == IntrinsicId::BlockDim ? 2
                                               : 3;
  return row * 3 + axis;
}

}  // namespace

llvm::Function *ProgramLowering::cpuSreg() {
  if (cpuSregFn) return cpuSregFn;
  llvm::Type *ptr = llvm::PointerType::getUnqual(C), *i32 = llvm::Type::getInt32Ty(C);
  auto *ft = llvm::FunctionType::get(i32, {ptr, i32}, false);
  cpuSregFn =
      llvm::Function::Create(ft, llvm::GlobalValue::InternalLinkage, prefix + ".kjit.cpu.sreg", M);
  cpuSregFn->addFnAttr(llvm::Attribute::AlwaysInline);
  cpuSregFn->addFnAttr(llvm::Attribute::NoUnwind);
  cpuSregFn->addFnAttr(llvm::Attribute::WillReturn);
  cpuSregFn->setOnlyReadsMemory();
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(C, "entry", cpuSregFn));
  llvm::Value *state = loadState(b, cpuSregFn->getArg(0));
  b.CreateRet(b.CreateLoad(i32, b.CreateGEP(i32, state, cpuSregFn->getArg(1))));
  return cpuSregFn;
}

llvm::Value *FunctionLowering::cpuWarpCall(const Intrinsic *in, WarpOp op, llvm::Value *mask,
                                           llvm::Value *bits, llvm::Value *arg) {
  P.cpuNeedsFibers = true;
  std::string file = in->loc.valid() ? P.sm.buffer(in->loc.file).name : "";
  std::vector<llvm::Value *> a = {ctxPtr,
                                  B.getInt32(uint32_t(op)),
                                  mask,
                                  bits,
                                  arg,
                                  P.cstr(file),
                                  B.getInt32(in->loc.line),
                                  B.getInt32(in->loc.col)};
  return B.CreateCall(P.runtime("kjit_cpu_warp"), a);
}

llvm::Value *FunctionLowering::cpuKernelIntrinsic(const Intrinsic *in) {
  const Type *t = in->type;
  llvm::Type *i32 = B.getInt32Ty(), *i64 = B.getInt64Ty(), *ptr = llvm::PointerType::getUnqual(C);
  auto axisOf = [&](size_t i) { return unsigned(cast<Const>(in->args[i])->i); };
  auto sreg = [&](unsigned k) { return B.CreateCall(P.cpuSreg(), {ctxPtr, B.getInt32(k)}); };
  auto reg = [&](IntrinsicId id, unsigned axis) { return sreg(sregIndex(id, axis)); };
  auto site = [&]() -> std::vector<llvm::Value *> {
    std::string file = in->loc.valid() ? P.sm.buffer(in->loc.file).name : "";
    return {P.cstr(file), B.getInt32(in->loc.line), B.getInt32(in->loc.col)};
  };
  auto laneOf = [&]() {
    llvm::Value *bx = reg(IntrinsicId::BlockDim, 0), *by = reg(IntrinsicId::BlockDim, 1);
    llvm::Value *linear =
        B.CreateAdd(reg(IntrinsicId::ThreadIdx, 0),
                    B.CreateMul(bx, B.CreateAdd(reg(IntrinsicId::ThreadIdx, 1),
                                                B.CreateMul(by, reg(IntrinsicId::ThreadIdx, 2)))));
    return B.CreateAnd(linear, B.getInt32(31));
  };
  auto warpCall = [&](WarpOp op, llvm::Value *mask, llvm::Value *bits, llvm::Value *arg) {
    return cpuWarpCall(in, op, mask, bits, arg);
  };
  // A 32- or 64-bit value as the i64 the executor exchanges, and back.
  auto toBits = [&](llvm::Value *v, const Type *vt) -> llvm::Value * {
    if (vt->isFloat()) v = B.CreateBitCast(v, B.getIntNTy(vt->bits()));
    if (vt->isBool()) return B.CreateZExt(v, i64);
    return vt->bits() == 64 ? v : B.CreateZExt(v, i64);
  };
  auto fromBits = [&](llvm::Value *r, const Type *vt) -> llvm::Value * {
    if (vt->isBool()) return B.CreateICmpNE(r, B.getInt64(0));
    if (vt->bits() < 64) r = B.CreateTrunc(r, B.getIntNTy(vt->bits()));
    return vt->isFloat() ? B.CreateBitCast(r, P.lt(vt)) : r;
  };

  switch (in->id) {
  case IntrinsicId::WmmaLoad:
  case IntrinsicId::WmmaMma:
  case IntrinsicId::WmmaStore:
  case IntrinsicId::MmaSync:
  case IntrinsicId::Ldmatrix:
  case IntrinsicId::CpAsync:
  case IntrinsicId::CpAsyncCommit:
  case IntrinsicId::CpAsyncWait: return cpuWmmaIntrinsic(in, laneOf());
  case IntrinsicId::ThreadIdx:
  case IntrinsicId::BlockIdx:
  case IntrinsicId::BlockDim:
  case IntrinsicId::GridDim: return reg(in->id, axisOf(0));
  // grid() and gridsize() are int64 (the registers widened first), as on a GPU.
  case IntrinsicId::GridPos: {
    unsigned a = axisOf(0);
    auto wide = [&](IntrinsicId r) { return B.CreateZExt(reg(r, a), B.getInt64Ty()); };
    llvm::Value *scaled =
        B.CreateMul(wide(IntrinsicId::BlockIdx), wide(IntrinsicId::BlockDim), "", true, true);
    return B.CreateAdd(wide(IntrinsicId::ThreadIdx), scaled, "", true, true);
  }
  case IntrinsicId::GridSize: {
    unsigned a = axisOf(0);
    auto wide = [&](IntrinsicId r) { return B.CreateZExt(reg(r, a), B.getInt64Ty()); };
    return B.CreateMul(wide(IntrinsicId::BlockDim), wide(IntrinsicId::GridDim), "", true, true);
  }
  case IntrinsicId::LaneId: return laneOf();
  case IntrinsicId::LaneMaskLt:
    return B.CreateSub(B.CreateShl(B.getInt32(1), laneOf()), B.getInt32(1));
  case IntrinsicId::SyncThreads:
  case IntrinsicId::SyncThreadsCount:
  case IntrinsicId::SyncThreadsAnd:
  case IntrinsicId::SyncThreadsOr: {
    P.cpuNeedsFibers = true;
    int32_t kind = in->id == IntrinsicId::SyncThreads        ? 0
                   : in->id == IntrinsicId::SyncThreadsCount ? 1
                   : in->id == IntrinsicId::SyncThreadsAnd   ? 2
                                                             : 3;
    llvm::Value *pred = kind ? B.CreateZExt(expr(in->args[0]), i32) : B.getInt32(0);
    std::vector<llvm::Value *> a = {ctxPtr, B.getInt32(kind), pred};
    for (llvm::Value *v : site()) a.push_back(v);
    llvm::Value *r = B.CreateCall(P.runtime("kjit_cpu_sync"), a);
    return kind ? r : zeroOf(t);
  }
  case IntrinsicId::GridSync: {
    // kjit_cpu_sync's kind 4: the launch runs every block's threads as
    // fibers of one scheduler (CpuKernelInfo::needsFibers 2).
    P.cpuNeedsFibers = P.cpuGridSync = true;
    std::vector<llvm::Value *> a = {ctxPtr, B.getInt32(4), B.getInt32(0)};
    for (llvm::Value *v : site()) a.push_back(v);
    B.CreateCall(P.runtime("kjit_cpu_sync"), a);
    return zeroOf(t);
  }
  case IntrinsicId::SyncWarp:
    warpCall(WarpOp::SyncWarp, expr(in->args[0]), B.getInt64(0), B.getInt32(0));
    return zeroOf(t);
  case IntrinsicId::ThreadFence:
  case IntrinsicId::ThreadFenceBlock:
  case IntrinsicId::ThreadFenceSystem:
    B.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
    return zeroOf(t);
  case IntrinsicId::SharedArray: {
    const Type *dt = t->dtype();
    llvm::Value *state = loadState(B, ctxPtr);
    llvm::Value *desc = llvm::Constant::getNullValue(P.lt(t));
    if (in->args.empty()) {
      // Dynamic shared memory: the launch's bytes, as many items as fit.
      llvm::Value *data =
          B.CreateLoad(ptr, B.CreateConstGEP1_64(B.getInt8Ty(), state, kDynamicOffset));
      llvm::Value *bytes =
          B.CreateLoad(i64, B.CreateConstGEP1_64(B.getInt8Ty(), state, kDynamicBytesOffset));
      desc = B.CreateInsertValue(desc, data, {1u});
      desc = B.CreateInsertValue(desc, B.CreateUDiv(bytes, B.getInt64(uint64_t(itemSize(dt)))),
                                 {2u, 0u});
      return B.CreateInsertValue(desc, B.getInt64(uint64_t(itemSize(dt))), {3u, 0u});
    }
    std::vector<int64_t> dims;
    int64_t n = 1;
    for (const Expr *a : in->args) {
      dims.push_back(cast<Const>(a)->i);
      n *= dims.back();
    }
    int64_t offset = (P.cpuSharedBytes + 15) & ~int64_t(15);
    P.cpuSharedBytes = offset + n * itemSize(dt);
    llvm::Value *base =
        B.CreateLoad(ptr, B.CreateConstGEP1_64(B.getInt8Ty(), state, kSharedOffset));
    desc = B.CreateInsertValue(desc, B.CreateConstGEP1_64(B.getInt8Ty(), base, uint64_t(offset)),
                               {1u});
    int64_t stride = itemSize(dt);
    for (unsigned k = unsigned(dims.size()); k-- > 0;) {
      desc = B.CreateInsertValue(desc, B.getInt64(uint64_t(dims[k])), {2u, k});
      desc = B.CreateInsertValue(desc, B.getInt64(uint64_t(stride)), {3u, k});
      stride *= dims[k];
    }
    return desc;
  }
  case IntrinsicId::ShflSync: {
    SubOp mode = in->subOp;
    WarpOp op = mode == SubOp::ShflIdx    ? WarpOp::ShflIdx
                : mode == SubOp::ShflUp   ? WarpOp::ShflUp
                : mode == SubOp::ShflDown ? WarpOp::ShflDown
                                          : WarpOp::ShflXor;
    llvm::Value *r =
        warpCall(op, expr(in->args[0]), toBits(expr(in->args[1]), t), expr(in->args[2]));
    return fromBits(r, t);
  }
  case IntrinsicId::VoteSync: {
    SubOp mode = in->subOp;
    WarpOp op = mode == SubOp::VoteAll   ? WarpOp::VoteAll
                : mode == SubOp::VoteAny ? WarpOp::VoteAny
                : mode == SubOp::VoteUni ? WarpOp::VoteUni
                                         : WarpOp::Ballot;
    llvm::Value *pred = B.CreateZExt(expr(in->args[1]), i32);
    llvm::Value *r = warpCall(op, expr(in->args[0]), B.getInt64(0), pred);
    return t->isBool() ? B.CreateICmpNE(r, B.getInt64(0)) : B.CreateTrunc(r, P.lt(t));
  }
  case IntrinsicId::MatchAnySync: {
    llvm::Value *r = warpCall(WarpOp::MatchAny, expr(in->args[0]),
                              toBits(expr(in->args[1]), in->args[1]->type), B.getInt32(0));
    return B.CreateTrunc(r, P.lt(t));
  }
  case IntrinsicId::MatchAllSync: {
    llvm::Value *r = warpCall(WarpOp::MatchAll, expr(in->args[0]),
                              toBits(expr(in->args[1]), in->args[1]->type), B.getInt32(0));
    llvm::Value *tuple = llvm::UndefValue::get(P.lt(t));
    tuple = B.CreateInsertValue(tuple, B.CreateTrunc(r, i32), {0u});
    return B.CreateInsertValue(tuple, B.CreateICmpNE(B.CreateLShr(r, 32), B.getInt64(0)), {1u});
  }
  case IntrinsicId::ActiveMask:
    P.cpuNeedsFibers = true;
    return B.CreateCall(P.runtime("kjit_cpu_activemask"), {ctxPtr});
  default: return nullptr;  // atomics, local arrays, bit operations: as on the GPU
  }
}

// The block function: i32 (ptr args, ptr ret, ptr ctx), every thread of the
// block in a loop (x innermost, as warps are formed), the body inlined.
void emitCpuKernel(ProgramLowering &P, const ir::Function &f, llvm::Function *thread,
                   const std::string &infoSymbol) {
  llvm::LLVMContext &C = P.C;
  llvm::Type *ptr = llvm::PointerType::getUnqual(C), *i32 = llvm::Type::getInt32Ty(C);
  llvm::Type *i64 = llvm::Type::getInt64Ty(C);
  auto *infoTy = llvm::StructType::get(C, {ptr, ptr, i64, i32, i64, i64});
  auto emitInfo = [&](llvm::Constant *block) {
    auto *init = llvm::ConstantStruct::get(
        infoTy, {thread, block, llvm::ConstantInt::get(i64, uint64_t(P.cpuSharedBytes)),
                 llvm::ConstantInt::get(i32, P.cpuGridSync      ? 2
                                             : P.cpuNeedsFibers ? 1
                                                                : 0),
                 llvm::ConstantInt::get(i64, uint64_t(P.cpuLocalBytes)),
                 llvm::ConstantInt::get(i64, uint64_t(P.cpuConstBytes))});
    auto *gv = new llvm::GlobalVariable(P.M, infoTy, true, llvm::GlobalValue::ExternalLinkage, init,
                                        infoSymbol);
    gv->setAlignment(llvm::Align(8));
  };
  if (P.cpuNeedsFibers) {  // threads run as fibers: no block function
    emitInfo(llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(C)));
    return;
  }
  auto *ft = llvm::FunctionType::get(i32, {ptr, ptr, ptr}, false);
  auto *bf = llvm::Function::Create(ft, llvm::GlobalValue::InternalLinkage,
                                    P.prefix + "." + f.symbol + "_block", P.M);
  llvm::IRBuilder<> B(llvm::BasicBlock::Create(C, "entry", bf));
  P.describeWrapper(bf, f.name + "_block", f.loc, B);
  llvm::Value *args = bf->getArg(0), *ctx = bf->getArg(2);
  llvm::AllocaInst *slot = B.CreateAlloca(B.getInt8Ty());
  std::vector<llvm::Value *> callArgs = {slot, ctx};
  for (size_t i = 0; i < f.params.size(); ++i) {
    const Type *t = f.params[i]->type;
    llvm::Value *argPtr = B.CreateLoad(ptr, B.CreateConstGEP1_64(ptr, args, i));
    callArgs.push_back(fromMemForm(B, P, B.CreateLoad(P.memTy(t), argPtr), t));
  }
  llvm::Value *state = loadState(B, ctx);
  llvm::Value *regs[12];
  for (unsigned k = 3; k < 12; ++k) {
    // blockIdx in [0, 2^31 - 1), blockDim in [1, 1024], gridDim in [1, 2^31): what
    // lets LLVM drop negative-index wraparound and vectorise.
    auto *load = B.CreateLoad(i32, B.CreateConstGEP1_64(i32, state, k));
    int64_t lo = k < 6 ? 0 : 1, hi = k >= 6 && k < 9 ? 1025 : int64_t(INT32_MAX);
    load->setMetadata(
        llvm::LLVMContext::MD_range,
        llvm::MDNode::get(C, {llvm::ConstantAsMetadata::get(B.getInt32(uint32_t(lo))),
                              llvm::ConstantAsMetadata::get(B.getInt32(uint32_t(hi)))}));
    regs[k] = load;
  }
  llvm::Value *tidPtr[3];
  for (unsigned a = 0; a < 3; ++a) tidPtr[a] = B.CreateConstGEP1_64(i32, state, a);

  // Three do-while loops (block dimensions are at least 1).
  llvm::BasicBlock *entry = B.GetInsertBlock();
  llvm::BasicBlock *zLoop = llvm::BasicBlock::Create(C, "z", bf),
                   *yLoop = llvm::BasicBlock::Create(C, "y", bf),
                   *xLoop = llvm::BasicBlock::Create(C, "x", bf),
                   *xNext = llvm::BasicBlock::Create(C, "x.next", bf),
                   *yNext = llvm::BasicBlock::Create(C, "y.next", bf),
                   *zNext = llvm::BasicBlock::Create(C, "z.next", bf),
                   *done = llvm::BasicBlock::Create(C, "done", bf),
                   *fail = llvm::BasicBlock::Create(C, "fail", bf);
  B.CreateBr(zLoop);
  B.SetInsertPoint(zLoop);
  llvm::PHINode *z = B.CreatePHI(i32, 2, "tid.z");
  z->addIncoming(B.getInt32(0), entry);
  B.CreateBr(yLoop);
  B.SetInsertPoint(yLoop);
  llvm::PHINode *y = B.CreatePHI(i32, 2, "tid.y");
  y->addIncoming(B.getInt32(0), zLoop);
  B.CreateBr(xLoop);
  B.SetInsertPoint(xLoop);
  llvm::PHINode *x = B.CreatePHI(i32, 2, "tid.x");
  x->addIncoming(B.getInt32(0), yLoop);
  llvm::Value *tids[3] = {x, y, z};
  // For code that reads threadIdx from the state (a call not inlined);
  // removed below when none is left.
  std::vector<llvm::StoreInst *> tidStores;
  for (unsigned a = 0; a < 3; ++a) tidStores.push_back(B.CreateStore(tids[a], tidPtr[a]));
  llvm::CallInst *body = B.CreateCall(P.functions.at(&f), callArgs);
  // A thread that raised stops the launch; one that ended at an unreported
  // raise (abi::StatusExit) is done, as one that returned.
  B.CreateCondBr(B.CreateICmpEQ(body, B.getInt32(abi::StatusRaised)), fail, xNext,
                 llvm::MDBuilder(C).createBranchWeights(1, 1 << 20));
  B.SetInsertPoint(xNext);
  llvm::Value *x1 = B.CreateAdd(x, B.getInt32(1), "", true, true);
  x->addIncoming(x1, xNext);
  B.CreateCondBr(B.CreateICmpULT(x1, regs[6]), xLoop, yNext);
  B.SetInsertPoint(yNext);
  llvm::Value *y1 = B.CreateAdd(y, B.getInt32(1), "", true, true);
  y->addIncoming(y1, yNext);
  B.CreateCondBr(B.CreateICmpULT(y1, regs[7]), yLoop, zNext);
  B.SetInsertPoint(zNext);
  llvm::Value *z1 = B.CreateAdd(z, B.getInt32(1), "", true, true);
  z->addIncoming(z1, zNext);
  B.CreateCondBr(B.CreateICmpULT(z1, regs[8]), zLoop, done);
  B.SetInsertPoint(done);
  B.CreateRet(B.getInt32(0));
  B.SetInsertPoint(fail);
  llvm::PHINode *status = B.CreatePHI(i32, 1);
  status->addIncoming(body, xLoop);
  for (unsigned a = 0; a < 3; ++a) B.CreateStore(tids[a], tidPtr[a]);  // which thread raised
  B.CreateRet(status);

  // Inline the body and what it calls, then give kjit.cpu.sreg its values.
  // A recursive function (one that reaches itself through kjit calls) stays
  // a call: inlining it again and again would only grow the code.
  std::set<llvm::Function *> kjitFunctions;
  for (auto &entryFn : P.functions) kjitFunctions.insert(entryFn.second);
  // Functions on a cycle of calls (recursion) stay calls.
  std::set<llvm::Function *> recursive;
  for (llvm::Function *fn : kjitFunctions) {
    std::set<llvm::Function *> seen;
    std::vector<llvm::Function *> work{fn};
    while (!work.empty() && !recursive.count(fn)) {
      llvm::Function *g = work.back();
      work.pop_back();
      for (llvm::BasicBlock &bb : *g)
        for (llvm::Instruction &inst : bb)
          if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
            llvm::Function *h = call->getCalledFunction();
            if (h == fn) recursive.insert(fn);
            if (kjitFunctions.count(h) && seen.insert(h).second) work.push_back(h);
          }
    }
  }
  bool leftCalls = false;
  for (int round = 0; round < 16; ++round) {
    std::vector<llvm::CallInst *> calls;
    for (llvm::BasicBlock &bb : *bf)
      for (llvm::Instruction &inst : bb)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
          if (recursive.count(call->getCalledFunction()))
            leftCalls = true;
          else if (kjitFunctions.count(call->getCalledFunction()))
            calls.push_back(call);
        }
    if (calls.empty()) break;
    for (llvm::CallInst *call : calls) {
      llvm::InlineFunctionInfo ifi;
      if (!llvm::InlineFunction(*call, ifi).isSuccess()) leftCalls = true;
    }
    if (round == 15) leftCalls = true;
  }
  for (llvm::BasicBlock &bb : *bf)  // a recursive function's calls read threadIdx from the state
    for (llvm::Instruction &inst : bb)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
        for (auto &entryFn : P.functions)
          if (call->getCalledFunction() == entryFn.second) leftCalls = true;
  std::vector<llvm::CallInst *> sregCalls;
  if (P.cpuSregFn)
    for (llvm::BasicBlock &bb : *bf)
      for (llvm::Instruction &inst : bb)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
          if (call->getCalledFunction() == P.cpuSregFn) sregCalls.push_back(call);
  for (llvm::CallInst *call : sregCalls) {
    auto *k = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(1));
    if (!k || k->getZExtValue() >= 12) continue;
    unsigned i = unsigned(k->getZExtValue());
    call->replaceAllUsesWith(i < 3 ? tids[i] : regs[i]);
    call->eraseFromParent();
  }
  if (!leftCalls)
    for (llvm::StoreInst *s : tidStores) s->eraseFromParent();

  emitInfo(bf);  // the descriptor the runtime reads
}

}  // namespace kjit::lowering
