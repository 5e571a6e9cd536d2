// LoweringAmdgpu.cpp - the kernel language in LLVM IR for AMD GPUs: what
// differs from NVPTX (LoweringCuda.cpp lowers the rest the same way for
// both). Work-item and work-group ids are AMDGPU intrinsics; block and grid
// sizes from the implicit kernel arguments (code object v5, as HIP reads
// them); barriers and fences are LLVM
// fences with AMDGPU's synchronisation scopes around s_barrier; warp
// operations are ds_bpermute and ballots over the wavefront (`P.wavefront`
// lanes); block-wide votes and device malloc are ockl's, print is ockl's
// printf over hostcall (the HIP runtime's), math is ocml's.
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsAMDGPU.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/AMDGPUEmitPrintf.h>

#include "compiler/LoweringImpl.h"

namespace kjit::lowering {

using namespace ir;

namespace {

// Offsets in the implicit kernel arguments of code object v5 (what the
// runtime writes after the kernel's own, as HIP's kernels read them).
constexpr unsigned kBlockCountX = 0;  // 3 x u32
constexpr unsigned kGroupSizeX = 12;  // 3 x u16
// ... and in the HSA kernel dispatch packet (hsa_kernel_dispatch_packet_t).
constexpr unsigned kGroupSegmentSize = 28;

}  // namespace

std::string ocmlName(IntrinsicId id, unsigned bits, bool fastmath) {
  if (id == IntrinsicId::Sqrt) return "";  // llvm.sqrt: the hardware's, correctly rounded
  const char *base = cMathName(id);
  if (!base) return "";
  std::string name = base;
  // fastmath float32: the native (hardware) forms, as HIP's -ffast-math.
  static const char *const native[] = {"sin", "cos", "exp", "exp2", "log", "log2", "log10"};
  if (fastmath && bits == 32)
    for (const char *n : native)
      if (name == n) name = std::string("native_") + n;
  return fmt::format("__ocml_{}_f{}", name, bits);
}

llvm::Value *FunctionLowering::amdgpuSreg(IntrinsicId id, unsigned axis) {
  using namespace llvm::Intrinsic;
  static const ID item[3] = {amdgcn_workitem_id_x, amdgcn_workitem_id_y, amdgcn_workitem_id_z};
  static const ID group[3] = {amdgcn_workgroup_id_x, amdgcn_workgroup_id_y, amdgcn_workgroup_id_z};
  if (id == IntrinsicId::ThreadIdx) {
    // (In [0, 1024): a block has at most 1024 threads. Known, int32 thread
    // indices need no negative-index test.)
    llvm::CallInst *tid = B.CreateIntrinsic(item[axis], {}, {});
    tid->setMetadata(llvm::LLVMContext::MD_range,
                     llvm::MDBuilder(C).createRange(llvm::APInt(32, 0), llvm::APInt(32, 1024)));
    return tid;
  }
  if (id == IntrinsicId::BlockIdx) return B.CreateIntrinsic(group[axis], {}, {});
  llvm::Value *implicit = B.CreateIntrinsic(amdgcn_implicitarg_ptr, {}, {});
  auto field = [&](unsigned offset, llvm::Type *t) {
    llvm::Value *p = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), implicit, offset);
    llvm::LoadInst *l = B.CreateAlignedLoad(t, p, llvm::Align(t->getPrimitiveSizeInBits() / 8));
    l->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(C, {}));
    return l;
  };
  llvm::MDBuilder md(C);
  if (id == IntrinsicId::BlockDim) {
    llvm::LoadInst *size = field(kGroupSizeX + 2 * axis, B.getInt16Ty());
    size->setMetadata(llvm::LLVMContext::MD_range,
                      md.createRange(llvm::APInt(16, 1), llvm::APInt(16, 1025)));
    return B.CreateZExt(size, B.getInt32Ty());
  }
  llvm::LoadInst *blocks = field(kBlockCountX + 4 * axis, B.getInt32Ty());
  blocks->setMetadata(llvm::LLVMContext::MD_range,
                      md.createRange(llvm::APInt(32, 1), llvm::APInt(32, 0)));
  return blocks;
}

llvm::Value *FunctionLowering::amdgpuDynamicSharedBytes() {
  // The launch's LDS (static and dynamic) less what the kernel declares.
  llvm::Value *packet = B.CreateIntrinsic(llvm::Intrinsic::amdgcn_dispatch_ptr, {}, {});
  llvm::Value *total = B.CreateAlignedLoad(
      B.getInt32Ty(), B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), packet, kGroupSegmentSize),
      llvm::Align(4));
  llvm::Value *own = B.CreateIntrinsic(llvm::Intrinsic::amdgcn_groupstaticsize, {}, {});
  return B.CreateSub(total, own);
}

void FunctionLowering::amdgpuFence(const char *scope, llvm::AtomicOrdering order) {
  llvm::SyncScope::ID id = llvm::SyncScope::System;
  if (*scope) id = C.getOrInsertSyncScopeID(scope);
  B.CreateFence(order, id);
}

llvm::Value *FunctionLowering::amdgpuIntrinsic(const Intrinsic *in) {
  using namespace llvm::Intrinsic;
  const Type *t = in->type;
  const unsigned W = P.wavefront;
  llvm::Type *maskTy = B.getIntNTy(W);  // a ballot: one bit a lane
  auto ballot = [&](llvm::Value *pred) {
    return B.CreateIntrinsic(amdgcn_ballot, {maskTy}, {pred});
  };
  auto laneId = [&]() -> llvm::Value * {
    llvm::Value *lo = B.CreateIntrinsic(amdgcn_mbcnt_lo, {}, {B.getInt32(~0u), B.getInt32(0)});
    if (W == 32) return lo;
    return B.CreateIntrinsic(amdgcn_mbcnt_hi, {}, {B.getInt32(~0u), lo});
  };
  // A CUDA mask (its typed width) as a ballot's width, and back.
  auto asLanes = [&](llvm::Value *mask) { return B.CreateZExtOrTrunc(mask, maskTy); };
  auto asTyped = [&](llvm::Value *lanes, const Type *to) {
    return B.CreateZExtOrTrunc(lanes, P.lt(to));
  };
  auto permute = [&](llvm::Value *src, llvm::Value *v32) {  // v32 of lane `src`
    return B.CreateIntrinsic(amdgcn_ds_bpermute, {}, {B.CreateShl(src, 2), v32});
  };
  // Any value of 32 or 64 bits from lane `src`, in 32-bit pieces.
  auto fetch = [&](llvm::Value *src, llvm::Value *v) -> llvm::Value * {
    llvm::Type *vt = v->getType();
    unsigned bits = vt->getPrimitiveSizeInBits();
    llvm::Value *x = vt->isIntegerTy() ? v : B.CreateBitCast(v, B.getIntNTy(bits));
    llvm::Value *r;
    if (bits <= 32) {
      r = B.CreateTrunc(permute(src, B.CreateZExt(x, B.getInt32Ty())), B.getIntNTy(bits));
    } else {
      llvm::Value *lo = permute(src, B.CreateTrunc(x, B.getInt32Ty()));
      llvm::Value *hi = permute(src, B.CreateTrunc(B.CreateLShr(x, 32), B.getInt32Ty()));
      r = B.CreateOr(B.CreateZExt(lo, B.getInt64Ty()),
                     B.CreateShl(B.CreateZExt(hi, B.getInt64Ty()), 32));
    }
    return vt->isIntegerTy() ? r : B.CreateBitCast(r, vt);
  };
  auto wgReduce = [&](const char *name, llvm::Value *pred) {
    llvm::Value *x = B.CreateZExt(pred, B.getInt32Ty());
    return B.CreateCall(P.M.getOrInsertFunction(
                            name, llvm::FunctionType::get(B.getInt32Ty(), {B.getInt32Ty()}, false)),
                        {x});
  };
  switch (in->id) {
  case IntrinsicId::LaneId: return laneId();
  case IntrinsicId::SyncThreads:
    amdgpuFence("workgroup", llvm::AtomicOrdering::Release);
    B.CreateIntrinsic(amdgcn_s_barrier, {}, {});
    amdgpuFence("workgroup", llvm::AtomicOrdering::Acquire);
    return zeroOf(t);
  case IntrinsicId::SyncThreadsCount: return wgReduce("__ockl_wgred_add_i32", expr(in->args[0]));
  case IntrinsicId::SyncThreadsAnd:
    return B.CreateICmpNE(wgReduce("__ockl_wgred_and_i32", expr(in->args[0])), B.getInt32(0));
  case IntrinsicId::SyncThreadsOr:
    return B.CreateICmpNE(wgReduce("__ockl_wgred_or_i32", expr(in->args[0])), B.getInt32(0));
  case IntrinsicId::SyncWarp:
    expr(in->args[0]);
    amdgpuFence("wavefront", llvm::AtomicOrdering::Release);
    B.CreateIntrinsic(amdgcn_wave_barrier, {}, {});
    amdgpuFence("wavefront", llvm::AtomicOrdering::Acquire);
    return zeroOf(t);
  case IntrinsicId::ThreadFence:
    amdgpuFence("agent", llvm::AtomicOrdering::SequentiallyConsistent);
    return zeroOf(t);
  case IntrinsicId::ThreadFenceBlock:
    amdgpuFence("workgroup", llvm::AtomicOrdering::SequentiallyConsistent);
    return zeroOf(t);
  case IntrinsicId::ThreadFenceSystem:
    amdgpuFence("", llvm::AtomicOrdering::SequentiallyConsistent);
    return zeroOf(t);
  case IntrinsicId::ShflSync: {
    // CUDA's rules over the whole wavefront: a source lane outside it
    // gives the lane its own value. (No masks: every active lane takes part.)
    expr(in->args[0]);
    llvm::Value *v = expr(in->args[1]), *arg = expr(in->args[2]);
    llvm::Value *lane = laneId(), *width = B.getInt32(W);
    llvm::Value *src;
    switch (in->subOp) {
    case SubOp::ShflIdx: src = B.CreateAnd(arg, B.getInt32(W - 1)); break;
    case SubOp::ShflUp: {
      llvm::Value *s = B.CreateSub(lane, arg);
      src = B.CreateSelect(B.CreateICmpSGE(s, B.getInt32(0)), s, lane);
      break;
    }
    case SubOp::ShflDown: {
      llvm::Value *s = B.CreateAdd(lane, arg);
      src = B.CreateSelect(B.CreateICmpULT(s, width), s, lane);
      break;
    }
    default: {
      llvm::Value *s = B.CreateXor(lane, arg);
      src = B.CreateSelect(B.CreateICmpULT(s, width), s, lane);
      break;
    }
    }
    return fetch(src, v);
  }
  case IntrinsicId::VoteSync: {
    llvm::Value *mask = asLanes(expr(in->args[0])), *pred = expr(in->args[1]);
    llvm::Value *zero = llvm::ConstantInt::get(maskTy, 0);
    switch (in->subOp) {
    case SubOp::VoteAll: return B.CreateICmpEQ(B.CreateAnd(ballot(B.CreateNot(pred)), mask), zero);
    case SubOp::VoteAny: return B.CreateICmpNE(B.CreateAnd(ballot(pred), mask), zero);
    case SubOp::VoteUni: {
      llvm::Value *yes = B.CreateAnd(ballot(pred), mask);
      llvm::Value *active = B.CreateAnd(ballot(B.getTrue()), mask);
      return B.CreateOr(B.CreateICmpEQ(yes, zero), B.CreateICmpEQ(yes, active));
    }
    default: return asTyped(B.CreateAnd(ballot(pred), mask), t);
    }
  }
  case IntrinsicId::MatchAnySync:
  case IntrinsicId::MatchAllSync: {
    // The lanes whose value equals this lane's: each lane's value in turn
    // (there is no match instruction).
    llvm::Value *mask = asLanes(expr(in->args[0])), *v = expr(in->args[1]);
    llvm::Value *active = B.CreateAnd(ballot(B.getTrue()), mask);
    llvm::BasicBlock *pre = B.GetInsertBlock(), *loop = block("match.lane"),
                     *done = block("match.done");
    B.CreateBr(loop);
    B.SetInsertPoint(loop);
    llvm::PHINode *j = B.CreatePHI(B.getInt32Ty(), 2);
    llvm::PHINode *same = B.CreatePHI(maskTy, 2);
    j->addIncoming(B.getInt32(0), pre);
    same->addIncoming(llvm::ConstantInt::get(maskTy, 0), pre);
    llvm::Value *theirs = fetch(j, v);
    llvm::Value *equal =
        v->getType()->isFloatingPointTy() ? B.CreateFCmpOEQ(theirs, v) : B.CreateICmpEQ(theirs, v);
    llvm::Value *bit = B.CreateShl(llvm::ConstantInt::get(maskTy, 1), B.CreateZExt(j, maskTy));
    llvm::Value *nextSame = B.CreateSelect(equal, B.CreateOr(same, bit), same);
    llvm::Value *nextJ = B.CreateAdd(j, B.getInt32(1));
    j->addIncoming(nextJ, B.GetInsertBlock());
    same->addIncoming(nextSame, B.GetInsertBlock());
    B.CreateCondBr(B.CreateICmpULT(nextJ, B.getInt32(W)), loop, done);
    B.SetInsertPoint(done);
    llvm::Value *lanes = B.CreateAnd(nextSame, active);
    if (in->id == IntrinsicId::MatchAnySync) return asTyped(lanes, t);
    // match_all: (the mask, true) when every lane of it holds one value,
    // else (0, false); the tuple's form is {mask type, i1}.
    llvm::Value *all = B.CreateICmpEQ(lanes, active);
    llvm::Type *st = P.lt(t);
    llvm::Type *mt = st->getStructElementType(0);
    llvm::Value *r = llvm::UndefValue::get(st);
    r = B.CreateInsertValue(
        r, B.CreateSelect(all, B.CreateZExtOrTrunc(mask, mt), llvm::ConstantInt::get(mt, 0)), {0u});
    return B.CreateInsertValue(r, all, {1u});
  }
  case IntrinsicId::ActiveMask: return asTyped(ballot(B.getTrue()), t);
  case IntrinsicId::LaneMaskLt: {
    llvm::Value *one = llvm::ConstantInt::get(maskTy, 1);
    return asTyped(B.CreateSub(B.CreateShl(one, B.CreateZExt(laneId(), maskTy)), one), t);
  }
  default: return nullptr;
  }
}

// print() in a kernel: ockl's printf, over the HIP runtime's hostcall
// buffer, with the format vprintf would get (bools as the strings True and
// False).
void FunctionLowering::amdgpuPrint(const Intrinsic *in) {
  std::vector<llvm::Value *> args;
  std::string format = vprintfFormat(in);
  if (printfValueCount(in) > kMaxPrintfValues) {
    std::string raw;
    for (char c : format) raw += c == '%' ? std::string("%%") : std::string(1, c);
    llvm::emitAMDGPUPrintfCall(B, {P.constString(raw)}, /*isBuffered=*/false);
    return;
  }
  args.push_back(P.constString(format));
  for (llvm::Value *v : printfValues(in)) args.push_back(v);
  llvm::emitAMDGPUPrintfCall(B, args, /*isBuffered=*/false);
}

}  // namespace kjit::lowering
