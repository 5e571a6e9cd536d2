// LoweringCuda.cpp - the kernel language in LLVM IR for NVPTX: special
// registers, barriers, fences, shared and local memory, atomics, warp
// operations, vprintf, libdevice math, and the kernel entry point.
//
// Pointers stay generic (address space 0) in array descriptors. The kernel
// entry takes array data as pointer parameters, which NVPTX knows point to
// global memory, and shared arrays live in address space 3, so LLVM's
// address-space inference gives ld.global/ld.shared as nvcc's code has.
#include <fmt/format.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <array>

#include "compiler/LoweringImpl.h"

namespace kjit::lowering {

using namespace ir;

namespace {

llvm::Intrinsic::ID sreg(IntrinsicId id, unsigned axis) {
  static const llvm::Intrinsic::ID table[4][3] = {
      {llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
       llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z},
      {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
       llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z},
      {llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y,
       llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z},
      {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
       llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z}};
  int row = id == IntrinsicId::ThreadIdx  ? 0
            : id == IntrinsicId::BlockIdx ? 1
            : id == IntrinsicId::BlockDim ? 2
                                          : 3;
  return table[row][axis];
}

}  // namespace

llvm::Value *FunctionLowering::gpuSreg(IntrinsicId id, unsigned axis) {
  if (P.amdgpu) return amdgpuSreg(id, axis);
  return B.CreateIntrinsic(sreg(id, axis), {}, {});
}

// cuda.cg.this_grid().sync(). The launch is cooperative (the module's
// `kjit_grid_sync` marker tells the runtime), so every block is resident
// and the driver provides the grid's workspace, whose address is in
// %envreg1 (high half) and %envreg2 (low half); its second word is the
// barrier. After the block's barrier, thread 0 of each block adds 1 to it,
// block 0 adds 0x80000000 - (blocks - 1): the top bit flips when the last
// block arrives, and the word's low bits are back where they were for the
// next sync. Thread 0 waits for the flip, then the block's barrier lets
// the others go.
void FunctionLowering::gridSync() {
  llvm::Type *i32 = B.getInt32Ty(), *i64 = B.getInt64Ty();
  if (!P.M.getNamedGlobal("kjit_grid_sync")) {
    auto *marker =
        new llvm::GlobalVariable(P.M, i32, true, llvm::GlobalValue::ExternalLinkage, B.getInt32(1),
                                 "kjit_grid_sync", nullptr, llvm::GlobalValue::NotThreadLocal, 1);
    marker->setAlignment(llvm::Align(4));
  }
  auto sreg3 = [&](IntrinsicId id) {
    return std::array<llvm::Value *, 3>{gpuSreg(id, 0), gpuSreg(id, 1), gpuSreg(id, 2)};
  };
  B.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
  auto tid = sreg3(IntrinsicId::ThreadIdx);
  llvm::Value *first =
      B.CreateICmpEQ(B.CreateOr(B.CreateOr(tid[0], tid[1]), tid[2]), B.getInt32(0));
  llvm::Function *fn = B.GetInsertBlock()->getParent();
  auto *arrive = llvm::BasicBlock::Create(C, "grid.arrive", fn);
  auto *wait = llvm::BasicBlock::Create(C, "grid.wait", fn);
  auto *done = llvm::BasicBlock::Create(C, "grid.done", fn);
  auto *join = llvm::BasicBlock::Create(C, "grid.join", fn);
  B.CreateCondBr(first, arrive, join);
  B.SetInsertPoint(arrive);
  auto nb = sreg3(IntrinsicId::GridDim);
  auto bid = sreg3(IntrinsicId::BlockIdx);
  llvm::Value *blocks = B.CreateMul(B.CreateMul(nb[0], nb[1]), nb[2]);
  llvm::Value *block0 =
      B.CreateICmpEQ(B.CreateOr(B.CreateOr(bid[0], bid[1]), bid[2]), B.getInt32(0));
  llvm::Value *add = B.CreateSelect(
      block0, B.CreateSub(B.getInt32(0x80000000u), B.CreateSub(blocks, B.getInt32(1))),
      B.getInt32(1));
  llvm::Value *hi = B.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_envreg1, {}, {});
  llvm::Value *lo = B.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_envreg2, {}, {});
  llvm::Value *ws = B.CreateOr(B.CreateShl(B.CreateZExt(hi, i64), 32), B.CreateZExt(lo, i64));
  llvm::Value *word =
      B.CreateIntToPtr(B.CreateAdd(ws, B.getInt64(4)), llvm::PointerType::getUnqual(C));
  B.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_gl, {}, {});
  llvm::Value *old = B.CreateAtomicRMW(llvm::AtomicRMWInst::Add, word, add, llvm::Align(4),
                                       llvm::AtomicOrdering::Monotonic);
  B.CreateBr(wait);
  B.SetInsertPoint(wait);
  llvm::Value *now = B.CreateAlignedLoad(i32, word, llvm::Align(4), /*isVolatile=*/true);
  llvm::Value *flipped =
      B.CreateICmpNE(B.CreateAnd(B.CreateXor(old, now), B.getInt32(0x80000000u)), B.getInt32(0));
  B.CreateCondBr(flipped, done, wait);
  B.SetInsertPoint(done);
  B.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_gl, {}, {});
  B.CreateBr(join);
  B.SetInsertPoint(join);
  B.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
}

llvm::Value *FunctionLowering::cudaIntrinsic(const Intrinsic *in) {
  const Type *t = in->type;
  auto axisOf = [&](size_t i) { return unsigned(cast<Const>(in->args[i])->i); };
  auto read = [&](llvm::Intrinsic::ID id) { return B.CreateIntrinsic(id, {}, {}); };
  if (P.amdgpu)
    if (llvm::Value *v = amdgpuIntrinsic(in)) return v;
  switch (in->id) {
  case IntrinsicId::ThreadIdx:
  case IntrinsicId::BlockIdx:
  case IntrinsicId::BlockDim:
  case IntrinsicId::GridDim: return gpuSreg(in->id, axisOf(0));
  // grid() and gridsize() are int64: the special registers (unsigned, 32
  // bits) are widened before they are multiplied.
  case IntrinsicId::GridPos: {
    unsigned a = axisOf(0);
    auto wide = [&](IntrinsicId r) { return B.CreateZExt(gpuSreg(r, a), B.getInt64Ty()); };
    return B.CreateAdd(
        wide(IntrinsicId::ThreadIdx),
        B.CreateMul(wide(IntrinsicId::BlockIdx), wide(IntrinsicId::BlockDim), "", true, true), "",
        true, true);
  }
  case IntrinsicId::GridSize: {
    unsigned a = axisOf(0);
    auto wide = [&](IntrinsicId r) { return B.CreateZExt(gpuSreg(r, a), B.getInt64Ty()); };
    return B.CreateMul(wide(IntrinsicId::BlockDim), wide(IntrinsicId::GridDim), "", true, true);
  }
  case IntrinsicId::LaneId: return read(llvm::Intrinsic::nvvm_read_ptx_sreg_laneid);
  case IntrinsicId::SyncThreads:
    B.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
    return zeroOf(t);
  case IntrinsicId::SyncThreadsCount:
  case IntrinsicId::SyncThreadsAnd:
  case IntrinsicId::SyncThreadsOr: {
    llvm::Value *pred = B.CreateZExt(expr(in->args[0]), B.getInt32Ty());
    auto id = in->id == IntrinsicId::SyncThreadsCount ? llvm::Intrinsic::nvvm_barrier0_popc
              : in->id == IntrinsicId::SyncThreadsAnd ? llvm::Intrinsic::nvvm_barrier0_and
                                                      : llvm::Intrinsic::nvvm_barrier0_or;
    return B.CreateIntrinsic(id, {}, {pred});
  }
  case IntrinsicId::SyncWarp:
    B.CreateIntrinsic(llvm::Intrinsic::nvvm_bar_warp_sync, {}, {expr(in->args[0])});
    return zeroOf(t);
  case IntrinsicId::ThreadFence:
    B.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_gl, {}, {});
    return zeroOf(t);
  case IntrinsicId::ThreadFenceBlock:
    B.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_cta, {}, {});
    return zeroOf(t);
  case IntrinsicId::ThreadFenceSystem:
    B.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_sys, {}, {});
    return zeroOf(t);
  case IntrinsicId::GridSync: gridSync(); return zeroOf(t);
  case IntrinsicId::SharedArray:
  case IntrinsicId::LocalArray: {
    const Type *dt = t->dtype();
    llvm::Type *et = P.elemTy(dt);
    int64_t n = 1;
    std::vector<int64_t> dims;
    for (const Expr *a : in->args) {
      dims.push_back(cast<Const>(a)->i);
      n *= dims.back();
    }
    llvm::Value *data;
    if (in->id == IntrinsicId::LocalArray) {
      llvm::AllocaInst *a = entryAlloca(llvm::ArrayType::get(et, uint64_t(n)), "local.array");
      if (dt->isRecord()) a->setAlignment(llvm::Align(16));  // (its bytes are an i8 array)
      data = a;
      P.cpuLocalBytes += n * int64_t(P.M.getDataLayout().getTypeAllocSize(et));
    } else if (dims.empty()) {
      // Dynamic shared memory: sized by the launch; the length is what fits.
      llvm::GlobalVariable *gv = P.M.getNamedGlobal("kjit_dynamic_shared");
      if (!gv) {
        gv = new llvm::GlobalVariable(
            P.M, llvm::ArrayType::get(B.getInt8Ty(), 0), false, llvm::GlobalValue::ExternalLinkage,
            nullptr, "kjit_dynamic_shared", nullptr, llvm::GlobalValue::NotThreadLocal, 3);
        gv->setAlignment(llvm::Align(P.sharedAlign1024 ? 1024 : 16));
      }
      data = B.CreateAddrSpaceCast(gv, llvm::PointerType::getUnqual(C));
      // %dynamic_smem_size has no LLVM intrinsic: read it with inline PTX.
      auto *asmTy = llvm::FunctionType::get(B.getInt32Ty(), false);
      llvm::Value *bytes =
          P.amdgpu ? amdgpuDynamicSharedBytes()
                   : B.CreateCall(llvm::InlineAsm::get(asmTy, "mov.u32 $0, %dynamic_smem_size;",
                                                       "=r", /*sideEffects=*/false),
                                  {});
      llvm::Value *desc = llvm::Constant::getNullValue(P.lt(t));
      desc = B.CreateInsertValue(desc, data, {1u});
      desc = B.CreateInsertValue(
          desc, B.CreateUDiv(B.CreateZExt(bytes, B.getInt64Ty()), i64(itemSize(dt))), {2u, 0u});
      return B.CreateInsertValue(desc, i64(itemSize(dt)), {3u, 0u});
    } else {
      auto *gv = new llvm::GlobalVariable(
          P.M, llvm::ArrayType::get(et, uint64_t(n)), false, llvm::GlobalValue::InternalLinkage,
          llvm::UndefValue::get(llvm::ArrayType::get(et, uint64_t(n))), "shared_array", nullptr,
          llvm::GlobalValue::NotThreadLocal, 3);
      gv->setAlignment(llvm::Align(16));
      if (P.sharedAlign1024) alignForTensorCopies(gv);
      data = B.CreateAddrSpaceCast(gv, llvm::PointerType::getUnqual(C));
    }
    llvm::Value *desc = llvm::Constant::getNullValue(P.lt(t));
    desc = B.CreateInsertValue(desc, data, {1u});
    int64_t stride = itemSize(dt);
    for (unsigned k = unsigned(dims.size()); k-- > 0;) {
      desc = B.CreateInsertValue(desc, i64(dims[k]), {2u, k});
      desc = B.CreateInsertValue(desc, i64(stride), {3u, k});
      stride *= dims[k];
    }
    return desc;
  }
  case IntrinsicId::Atomic:
  case IntrinsicId::AtomicCas: return atomic(in);
  case IntrinsicId::CacheLoad:
  case IntrinsicId::CacheStore: return cacheHinted(in);
  case IntrinsicId::ShflSync: {
    llvm::Value *mask = expr(in->args[0]), *v = expr(in->args[1]), *lane = expr(in->args[2]);
    SubOp mode = in->subOp;
    auto id = mode == SubOp::ShflIdx    ? llvm::Intrinsic::nvvm_shfl_sync_idx_i32
              : mode == SubOp::ShflUp   ? llvm::Intrinsic::nvvm_shfl_sync_up_i32
              : mode == SubOp::ShflDown ? llvm::Intrinsic::nvvm_shfl_sync_down_i32
                                        : llvm::Intrinsic::nvvm_shfl_sync_bfly_i32;
    llvm::Value *clamp = B.getInt32(mode == SubOp::ShflUp ? 0 : 0x1f);
    auto shfl32 = [&](llvm::Value *x) { return B.CreateIntrinsic(id, {}, {mask, x, lane, clamp}); };
    if (t->bits() == 32) {
      llvm::Value *x = t->isFloat() ? B.CreateBitCast(v, B.getInt32Ty()) : v;
      llvm::Value *r = shfl32(x);
      return t->isFloat() ? B.CreateBitCast(r, P.lt(t)) : r;
    }
    // 64 bits: two 32-bit shuffles.
    llvm::Value *x = t->isFloat() ? B.CreateBitCast(v, B.getInt64Ty()) : v;
    llvm::Value *lo = shfl32(B.CreateTrunc(x, B.getInt32Ty()));
    llvm::Value *hi = shfl32(B.CreateTrunc(B.CreateLShr(x, 32), B.getInt32Ty()));
    llvm::Value *r = B.CreateOr(B.CreateZExt(lo, B.getInt64Ty()),
                                B.CreateShl(B.CreateZExt(hi, B.getInt64Ty()), 32));
    return t->isFloat() ? B.CreateBitCast(r, P.lt(t)) : r;
  }
  case IntrinsicId::VoteSync: {
    llvm::Value *mask = expr(in->args[0]), *pred = expr(in->args[1]);
    SubOp mode = in->subOp;
    auto id = mode == SubOp::VoteAll   ? llvm::Intrinsic::nvvm_vote_all_sync
              : mode == SubOp::VoteAny ? llvm::Intrinsic::nvvm_vote_any_sync
              : mode == SubOp::VoteUni ? llvm::Intrinsic::nvvm_vote_uni_sync
                                       : llvm::Intrinsic::nvvm_vote_ballot_sync;
    return B.CreateIntrinsic(id, {}, {mask, pred});
  }
  case IntrinsicId::MatchAnySync: {
    llvm::Value *mask = expr(in->args[0]), *v = expr(in->args[1]);
    const Type *vt = in->args[1]->type;
    if (vt->isFloat()) v = B.CreateBitCast(v, B.getIntNTy(vt->bits()));
    auto id = vt->bits() == 32 ? llvm::Intrinsic::nvvm_match_any_sync_i32
                               : llvm::Intrinsic::nvvm_match_any_sync_i64;
    return B.CreateIntrinsic(id, {}, {mask, v});
  }
  case IntrinsicId::MatchAllSync: {
    llvm::Value *mask = expr(in->args[0]), *v = expr(in->args[1]);
    const Type *vt = in->args[1]->type;
    if (vt->isFloat()) v = B.CreateBitCast(v, B.getIntNTy(vt->bits()));
    auto id = vt->bits() == 32 ? llvm::Intrinsic::nvvm_match_all_sync_i32p
                               : llvm::Intrinsic::nvvm_match_all_sync_i64p;
    return B.CreateIntrinsic(id, {}, {mask, v});  // {i32, i1}: the tuple's form
  }
  case IntrinsicId::ActiveMask: return B.CreateIntrinsic(llvm::Intrinsic::nvvm_activemask, {}, {});
  case IntrinsicId::LaneMaskLt: return read(llvm::Intrinsic::nvvm_read_ptx_sreg_lanemask_lt);
  case IntrinsicId::Popc: return B.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, expr(in->args[0]));
  case IntrinsicId::Brev:
    return B.CreateUnaryIntrinsic(llvm::Intrinsic::bitreverse, expr(in->args[0]));
  case IntrinsicId::Clz: {
    llvm::Value *x = expr(in->args[0]);
    return B.CreateIntrinsic(llvm::Intrinsic::ctlz, {x->getType()}, {x, B.getFalse()});
  }
  case IntrinsicId::Ffs: {
    llvm::Value *x = expr(in->args[0]);
    llvm::Value *tz = B.CreateIntrinsic(llvm::Intrinsic::cttz, {x->getType()}, {x, B.getTrue()});
    llvm::Value *zero = llvm::ConstantInt::get(x->getType(), 0);
    return B.CreateSelect(B.CreateICmpEQ(x, zero), zero,
                          B.CreateAdd(tz, llvm::ConstantInt::get(x->getType(), 1)));
  }
  default: return zeroOf(t);
  }
}

// atomicrmw for what LLVM has; compare-and-swap loops for float max/min.
// cuda.ldcs(a, i), cuda.stcs(a, i, v) ...: the element's address as an
// indexing computes it (negative indices wrap, bounds checked when asked),
// then ld.global.<policy>.b<bits> / st.global.<policy>.b<bits> on NVIDIA
// GPUs (inline PTX: LLVM has no intrinsic for the policies), a plain load
// or store (volatile) on the CPU device and AMD GPUs. The PTX touches memory the
// compiler does not see: it is ordered with every other access.
llvm::Value *FunctionLowering::cacheHinted(const Intrinsic *in) {
  const Type *arrTy = in->args[0]->type;
  const Type *dt = arrTy->dtype();
  unsigned nd = arrTy->ndim();
  bool store = in->id == IntrinsicId::CacheStore;
  llvm::Value *desc = expr(in->args[0]);
  std::vector<llvm::Value *> idx;
  for (unsigned k = 0; k < nd; ++k) idx.push_back(expr(in->args[1 + k]));
  llvm::Value *addr = elementAddress(desc, arrTy, idx, true, F.boundscheck, in->loc);
  llvm::Type *et = P.lt(dt);
  llvm::Value *value = store ? expr(in->args[1 + nd]) : nullptr;
  if (P.cpuKernel || P.amdgpu) {
    // Volatile: like the PTX, never merged with or moved across other
    // accesses (a loop polling with cuda.ldcv() reads memory each time).
    if (store) {
      B.CreateStore(value, addr, /*isVolatile=*/true);
      return zeroOf(in->type);
    }
    return B.CreateLoad(et, addr, /*isVolatile=*/true);
  }
  unsigned bits = dt->bits();
  // PTX registers: 8- and 16-bit values travel in 16-bit ones.
  unsigned regBits = bits < 16 ? 16 : bits;
  llvm::Type *reg = B.getIntNTy(regBits);
  const char *c = regBits == 16 ? "h" : regBits == 32 ? "r" : "l";
  std::string policy = ir::subOpInfo(in->subOp).name;
  llvm::Type *ptrTy = llvm::PointerType::getUnqual(C);
  if (store) {
    llvm::Value *v = dt->isFloat() ? B.CreateBitCast(value, B.getIntNTy(bits)) : value;
    if (bits < regBits) v = B.CreateZExt(v, reg);
    auto *ft = llvm::FunctionType::get(B.getVoidTy(), {ptrTy, reg}, false);
    auto *ia = llvm::InlineAsm::get(ft, fmt::format("st.global.{}.b{} [$0], $1;", policy, bits),
                                    fmt::format("l,{},~{{memory}}", c), /*hasSideEffects=*/true);
    B.CreateCall(ia, {addr, v});
    return zeroOf(in->type);
  }
  auto *ft = llvm::FunctionType::get(reg, {ptrTy}, false);
  auto *ia = llvm::InlineAsm::get(ft, fmt::format("ld.global.{}.b{} $0, [$1];", policy, bits),
                                  fmt::format("={},l,~{{memory}}", c), /*hasSideEffects=*/true);
  llvm::Value *r = B.CreateCall(ia, {addr});
  if (bits < regBits) r = B.CreateTrunc(r, B.getIntNTy(bits));
  return dt->isFloat() ? B.CreateBitCast(r, et) : r;
}

llvm::Value *FunctionLowering::atomic(const Intrinsic *in) {
  const Type *arrTy = in->args[0]->type;
  const Type *dt = arrTy->dtype();
  unsigned nd = arrTy->ndim();
  llvm::Value *desc = expr(in->args[0]);
  std::vector<llvm::Value *> idx;
  for (unsigned k = 0; k < nd; ++k) idx.push_back(expr(in->args[1 + k]));
  llvm::Value *addr = elementAddress(desc, arrTy, idx, true, F.boundscheck, in->loc);
  auto order = llvm::AtomicOrdering::Monotonic;
  if (in->id == IntrinsicId::AtomicCas) {
    llvm::Value *expected = expr(in->args[1 + nd]), *desired = expr(in->args[2 + nd]);
    auto *cx = B.CreateAtomicCmpXchg(addr, expected, desired, llvm::MaybeAlign(), order, order);
    return B.CreateExtractValue(cx, {0u});
  }
  llvm::Value *v = expr(in->args[1 + nd]);
  using Op = llvm::AtomicRMWInst::BinOp;
  bool fl = dt->isFloat(), sgn = dt->isSigned();
  bool isMax = in->subOp == SubOp::AtomicMax || in->subOp == SubOp::AtomicNanMax;
  bool isMin = in->subOp == SubOp::AtomicMin || in->subOp == SubOp::AtomicNanMin;
  Op rmw = Op::BAD_BINOP;
  switch (in->subOp) {
  case SubOp::AtomicAdd: rmw = fl ? Op::FAdd : Op::Add; break;
  case SubOp::AtomicSub: rmw = fl ? Op::FSub : Op::Sub; break;
  case SubOp::AtomicAnd: rmw = Op::And; break;
  case SubOp::AtomicOr: rmw = Op::Or; break;
  case SubOp::AtomicXor: rmw = Op::Xor; break;
  case SubOp::AtomicExch: rmw = Op::Xchg; break;
  case SubOp::AtomicInc: rmw = Op::UIncWrap; break;
  case SubOp::AtomicDec: rmw = Op::UDecWrap; break;
  default:
    if (!fl && isMax)
      rmw = sgn ? Op::Max : Op::UMax;
    else if (!fl && isMin)
      rmw = sgn ? Op::Min : Op::UMin;
    break;
  }
  if (rmw != Op::BAD_BINOP) return B.CreateAtomicRMW(rmw, addr, v, llvm::MaybeAlign(), order);
  // Float max/min: a compare-and-swap loop on the bits. max/min, as
  // Numba's: only a number strictly beyond the stored one replaces it (a
  // NaN stored stays, a NaN value is ignored); nanmax/nanmin also replace a
  // stored NaN with a number.
  bool propagate = in->subOp == SubOp::AtomicMax || in->subOp == SubOp::AtomicMin;
  llvm::Type *it = B.getIntNTy(dt->bits());
  llvm::BasicBlock *pre = B.GetInsertBlock(), *loop = block("atomic.cas"),
                   *done = block("atomic.done");
  llvm::Value *first = B.CreateLoad(it, addr);
  B.CreateBr(loop);
  B.SetInsertPoint(loop);
  llvm::PHINode *oldBits = B.CreatePHI(it, 2);
  oldBits->addIncoming(first, pre);
  llvm::Value *old = B.CreateBitCast(oldBits, P.lt(dt));
  llvm::Value *better = isMax ? B.CreateFCmpOGT(v, old) : B.CreateFCmpOLT(v, old);
  llvm::Value *take =
      propagate ? better
                : B.CreateOr(better, B.CreateAnd(B.CreateFCmpUNO(old, old), B.CreateFCmpORD(v, v)));
  llvm::Value *newBits = B.CreateBitCast(B.CreateSelect(take, v, old), it);
  auto *cx = B.CreateAtomicCmpXchg(addr, oldBits, newBits, llvm::MaybeAlign(), order, order);
  llvm::Value *seen = B.CreateExtractValue(cx, {0u});
  oldBits->addIncoming(seen, B.GetInsertBlock());
  B.CreateCondBr(B.CreateExtractValue(cx, {1u}), done, loop);
  B.SetInsertPoint(done);
  return old;
}

// Errors in a kernel (a failed bounds check; with debug=True, a raise): the
// first failing thread records what and where in the module's error record
// (abi::ErrorRecordField), in host memory the GPU can write (pinned,
// mapped), and the thread returns; the others go on, as in Numba. No trap:
// the CUDA context survives, and the runtime raises the recorded exception
// at the next synchronisation (after the launch for a debug kernel).
void FunctionLowering::cudaIndexError(llvm::Value *index, unsigned axis, llvm::Value *n,
                                      SourceLoc loc) {
  cudaRecordError(loc, 0, index, axis, n);
}

void FunctionLowering::cudaRaise(const std::string &exc, const std::string &msg, SourceLoc loc) {
  auto site = P.raiseSites.try_emplace(exc + ":" + msg, uint32_t(P.raiseSites.size() + 1)).first;
  cudaRecordError(loc, site->second, nullptr, 0, nullptr);
}

void FunctionLowering::cudaRecordError(SourceLoc loc, uint32_t raise, llvm::Value *index,
                                       unsigned axis, llvm::Value *n) {
  using namespace abi;
  llvm::Type *i32 = B.getInt32Ty();
  llvm::Type *ptr = llvm::PointerType::getUnqual(C);
  auto *recTy = llvm::ArrayType::get(i32, RecWords);
  llvm::GlobalVariable *slot = P.M.getNamedGlobal("kjit_error_record");
  if (!slot) {
    slot = new llvm::GlobalVariable(P.M, ptr, false, llvm::GlobalValue::ExternalLinkage,
                                    llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(C)),
                                    "kjit_error_record", nullptr, llvm::GlobalValue::NotThreadLocal,
                                    1);
    slot->setAlignment(llvm::Align(8));
    // Which thread records: claimed in device memory (atomics on mapped
    // host memory are not reliable over PCIe); the runtime clears it after
    // reporting.
    auto *claimFlag =
        new llvm::GlobalVariable(P.M, i32, false, llvm::GlobalValue::ExternalLinkage, B.getInt32(0),
                                 "kjit_error_claim", nullptr, llvm::GlobalValue::NotThreadLocal, 1);
    claimFlag->setAlignment(llvm::Align(4));
    std::string names;
    for (uint32_t id = 1; id < P.sm.size(); ++id)
      names += P.sm.buffer(id).name + std::string(1, '\0');
    auto *init = llvm::ConstantDataArray::getString(C, names, true);
    new llvm::GlobalVariable(P.M, init->getType(), true, llvm::GlobalValue::ExternalLinkage, init,
                             "kjit_error_files", nullptr, llvm::GlobalValue::NotThreadLocal, 1);
  }
  llvm::Value *base = B.CreateLoad(ptr, B.CreateAddrSpaceCast(slot, ptr), /*isVolatile=*/true);
  llvm::BasicBlock *claim = block("error.claim"), *record = block("error.record"),
                   *done = block("error.return");
  B.CreateCondBr(B.CreateIsNull(base), done, claim);
  B.SetInsertPoint(claim);
  auto field = [&](unsigned k) { return B.CreateConstGEP2_32(recTy, base, 0, k); };
  llvm::Value *claimPtr = B.CreateAddrSpaceCast(P.M.getNamedGlobal("kjit_error_claim"), ptr);
  auto *cx =
      B.CreateAtomicCmpXchg(claimPtr, B.getInt32(0), B.getInt32(1), llvm::MaybeAlign(4),
                            llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic);
  B.CreateCondBr(B.CreateExtractValue(cx, {1u}), record, done);
  B.SetInsertPoint(record);
  auto store = [&](llvm::Value *v, unsigned k) { B.CreateStore(v, field(k), /*isVolatile=*/true); };
  auto store64 = [&](llvm::Value *v, unsigned k) {
    store(B.CreateTrunc(v, i32), k);
    store(B.CreateTrunc(B.CreateLShr(v, 32), i32), k + 1);
  };
  llvm::Value *zero64 = B.getInt64(0);
  store(B.getInt32(loc.line), RecLine);
  store(B.getInt32(loc.col), RecCol);
  store(B.getInt32(axis), RecAxis);
  store64(index ? index : zero64, RecIndex);
  store64(n ? n : zero64, RecSize);
  for (unsigned a = 0; a < 3; ++a) {
    store(gpuSreg(IntrinsicId::ThreadIdx, a), RecThread + a);
    store(gpuSreg(IntrinsicId::BlockIdx, a), RecBlock + a);
  }
  store(B.getInt32(loc.file), RecFile);
  store(B.getInt32(raise), RecRaise);
  if (P.amdgpu)
    amdgpuFence("", llvm::AtomicOrdering::SequentiallyConsistent);
  else
    B.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_sys, {}, {});
  store(B.getInt32(1), RecComplete);  // the record is complete
  B.CreateBr(done);
  B.SetInsertPoint(done);
  B.CreateRet(B.getInt32(StatusRaised));
}

void emitErrorTables(ProgramLowering &P) {
  if (P.raiseSites.empty()) return;
  std::vector<const std::string *> byNumber(P.raiseSites.size());
  for (const auto &[text, number] : P.raiseSites) byNumber[number - 1] = &text;
  std::string table;
  for (const std::string *text : byNumber) table += *text + std::string(1, '\0');
  auto *init = llvm::ConstantDataArray::getString(P.C, table, true);
  new llvm::GlobalVariable(P.M, init->getType(), true, llvm::GlobalValue::ExternalLinkage, init,
                           "kjit_error_raises", nullptr, llvm::GlobalValue::NotThreadLocal, 1);
}

// print() in a kernel: one vprintf call with a format built at compile time.
bool printSpaceBefore(const Intrinsic *in, size_t i) {
  return i > 0 && (in->text.empty() || in->text[i] == ' ');
}

size_t printfValueCount(const Intrinsic *in) {
  size_t n = 0;
  for (const Expr *a : in->args)
    if (a->type->isComplex())
      n += 2;
    else if (a->type->isNumber())
      ++n;
  return n;
}

std::string vprintfFormat(const Intrinsic *in) {
  std::string fmtText;
  for (size_t i = 0; i < in->args.size(); ++i) {
    const Expr *a = in->args[i];
    if (printSpaceBefore(in, i)) fmtText += " ";
    const Type *t = a->type;
    if (t->kind() == TypeKind::StringLit) {
      for (char c : t->symbol()) fmtText += c == '%' ? std::string("%%") : std::string(1, c);
    } else if (t->isNone()) {
      fmtText += "None";
    } else if (t->isBool()) {
      fmtText += "%s";
    } else if (t->isInt()) {
      fmtText += t->isSigned() ? "%lld" : "%llu";
    } else if (t->isFloat()) {
      fmtText += "%f";
    } else if (t->isComplex()) {
      fmtText += "(%f%+fj)";
    }
  }
  return fmtText + "\n";
}

// A string constant in the GPU's constant memory (.const, as Numba places
// its print formats: get_const_mem_size() counts them), as a generic pointer.
llvm::Constant *ProgramLowering::constString(const std::string &s) {
  auto it = constStrings_.find(s);
  if (it != constStrings_.end()) return it->second;
  llvm::Constant *init = llvm::ConstantDataArray::getString(C, s, true);
  auto *gv =
      new llvm::GlobalVariable(M, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init,
                               ".const_str", nullptr, llvm::GlobalValue::NotThreadLocal, 4);
  gv->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  llvm::Constant *generic =
      llvm::ConstantExpr::getAddrSpaceCast(gv, llvm::PointerType::getUnqual(C));
  constStrings_[s] = generic;
  return generic;
}

// The values print() passes to printf: integers as 64 bits, floats as
// double, a complex number as its two parts, a bool as the string True or
// False (formats: vprintfFormat).
std::vector<llvm::Value *> FunctionLowering::printfValues(const Intrinsic *in) {
  std::vector<llvm::Value *> vals;
  for (const Expr *a : in->args) {
    const Type *t = a->type;
    if (t->isBool()) {
      vals.push_back(B.CreateSelect(expr(a), P.constString("True"), P.constString("False")));
    } else if (t->isInt()) {
      llvm::Value *v = expr(a);
      vals.push_back(t->isSigned() ? B.CreateSExt(v, B.getInt64Ty())
                                   : B.CreateZExt(v, B.getInt64Ty()));
    } else if (t->isFloat()) {
      vals.push_back(B.CreateFPExt(expr(a), B.getDoubleTy()));
    } else if (t->isComplex()) {
      llvm::Value *v = expr(a);
      vals.push_back(B.CreateFPExt(B.CreateExtractValue(v, {0}), B.getDoubleTy()));
      vals.push_back(B.CreateFPExt(B.CreateExtractValue(v, {1}), B.getDoubleTy()));
    }
  }
  return vals;
}

void FunctionLowering::cudaPrint(const Intrinsic *in) {
  if (P.amdgpu) {
    amdgpuPrint(in);
    return;
  }
  std::vector<llvm::Value *> vals = printfValues(in);
  llvm::Type *ptr = llvm::PointerType::getUnqual(C);
  llvm::Value *args = llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(C));
  if (!vals.empty()) {
    std::vector<llvm::Type *> fields;
    for (llvm::Value *v : vals) fields.push_back(v->getType());
    auto *st = llvm::StructType::get(C, fields);
    llvm::AllocaInst *buf = entryAlloca(st, "printf.args");
    for (unsigned i = 0; i < vals.size(); ++i)
      B.CreateStore(vals[i], B.CreateStructGEP(st, buf, i));
    args = buf;
  }
  llvm::FunctionCallee vprintf = P.M.getOrInsertFunction(
      "vprintf", llvm::FunctionType::get(B.getInt32Ty(), {ptr, ptr}, false));
  if (vals.size() > kMaxPrintfValues) {
    // vprintf takes at most 32 values (CUDA C's printf too): the kernel
    // prints the format itself, as Numba's does (the typer warned).
    std::string raw;
    for (char c : vprintfFormat(in)) raw += c == '%' ? std::string("%%") : std::string(1, c);
    B.CreateCall(vprintf, {P.constString(raw),
                           llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(C))});
    return;
  }
  B.CreateCall(vprintf, {P.constString(vprintfFormat(in)), args});
}

// libdevice's name for a math function on the GPU (its C name with `__nv_`),
// or empty when LLVM's own intrinsic lowers to a PTX instruction.
std::string libdeviceName(IntrinsicId id, bool f32) {
  const char *base =
      id == IntrinsicId::Sqrt ? nullptr : cMathName(id);  // sqrt.rn: LLVM's intrinsic
  return base ? std::string("__nv_") + base + (f32 ? "f" : "") : std::string();
}

// Arrays a kernel allocates (a.copy()) come from the device heap (CUDA's
// malloc): each block has a 16-byte header that links it into a list whose
// head is the call context's first word, and the kernel frees the list when
// the thread returns (arrays live until the call returns, as on the host).
// Freeing one array earlier (kjit_rt_free) is left to that end. With a null
// context (a device function called from outside kjit) nothing is linked.
// The device heap: CUDA's malloc and free, or ockl's on an AMD GPU (whose
// pointers are in the global space).
static llvm::Value *deviceMalloc(ProgramLowering &P, llvm::IRBuilder<> &B, llvm::Value *bytes) {
  llvm::Type *ptr = llvm::PointerType::getUnqual(P.C);
  if (!P.amdgpu)
    return B.CreateCall(
        P.M.getOrInsertFunction("malloc", llvm::FunctionType::get(ptr, {B.getInt64Ty()}, false)),
        {bytes});
  llvm::Type *global = llvm::PointerType::get(P.C, 1);
  llvm::Value *p =
      B.CreateCall(P.M.getOrInsertFunction(
                       "__ockl_dm_alloc", llvm::FunctionType::get(global, {B.getInt64Ty()}, false)),
                   {bytes});
  return B.CreateAddrSpaceCast(p, ptr);
}

static void deviceFree(ProgramLowering &P, llvm::IRBuilder<> &B, llvm::Value *p) {
  if (!P.amdgpu) {
    B.CreateCall(P.M.getOrInsertFunction(
                     "free", llvm::FunctionType::get(B.getVoidTy(), {p->getType()}, false)),
                 {p});
    return;
  }
  llvm::Type *global = llvm::PointerType::get(P.C, 1);
  B.CreateCall(P.M.getOrInsertFunction("__ockl_dm_dealloc",
                                       llvm::FunctionType::get(B.getVoidTy(), {global}, false)),
               {B.CreateAddrSpaceCast(p, global)});
}

void defineDeviceAllocator(ProgramLowering &P) {
  llvm::LLVMContext &C = P.C;
  llvm::Type *ptr = llvm::PointerType::getUnqual(C);
  if (llvm::Function *alloc = P.M.getFunction("kjit_rt_alloc"); alloc && alloc->empty()) {
    alloc->setLinkage(llvm::GlobalValue::InternalLinkage);
    llvm::IRBuilder<> B(llvm::BasicBlock::Create(C, "entry", alloc));
    llvm::Value *ctx = alloc->getArg(0), *bytes = alloc->getArg(1);
    llvm::Value *raw = deviceMalloc(P, B, B.CreateAdd(bytes, B.getInt64(16)));
    llvm::BasicBlock *fail = llvm::BasicBlock::Create(C, "fail", alloc),
                     *ok = llvm::BasicBlock::Create(C, "ok", alloc),
                     *link = llvm::BasicBlock::Create(C, "link", alloc),
                     *done = llvm::BasicBlock::Create(C, "done", alloc);
    B.CreateCondBr(B.CreateIsNull(raw), fail, ok);
    B.SetInsertPoint(fail);
    B.CreateRet(llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(C)));
    B.SetInsertPoint(ok);
    B.CreateStore(llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(C)), raw);
    B.CreateCondBr(B.CreateIsNull(ctx), done, link);
    B.SetInsertPoint(link);
    B.CreateStore(B.CreateLoad(ptr, ctx), raw);
    B.CreateStore(raw, ctx);
    B.CreateBr(done);
    B.SetInsertPoint(done);
    B.CreateRet(B.CreateGEP(B.getInt8Ty(), raw, B.getInt64(16)));
  }
  if (llvm::Function *free = P.M.getFunction("kjit_rt_free"); free && free->empty()) {
    free->setLinkage(llvm::GlobalValue::InternalLinkage);
    llvm::IRBuilder<> B(llvm::BasicBlock::Create(C, "entry", free));
    B.CreateRetVoid();
  }
}

// The kernel: `void @name(params...)`, annotated for NVPTX, calling the body.
// An array argument is flattened into its data pointer, its shape and its
// strides (as Numba does): NVPTX then knows the pointer is global memory
// (ld.global/st.global, as nvcc's) and no aggregate is copied through the
// parameter space. Scalars and tuples are passed as they are.
// A tuple of nothing (an empty tuple, or tuples of them): no bytes to pass.
static bool holdsNothing(const Type *t) {
  if (!t->isTuple()) return false;
  for (const Type *e : t->elements())
    if (!holdsNothing(e)) return false;
  return true;
}

void emitKernelEntry(ProgramLowering &P, const ir::Function &f) {
  llvm::LLVMContext &C = P.C;
  llvm::Type *ptr = llvm::PointerType::getUnqual(C);
  llvm::Type *i64 = llvm::Type::getInt64Ty(C);
  // The parameters: on NVIDIA each argument's in turn (an array's data
  // pointer, shapes, strides). On AMD the scalars and data pointers come
  // first, in the arguments' order, then every array's shapes and strides:
  // adjacent arguments load together (one s_load of the three pointers of
  // SAXPY, as HIP's kernel has), and the data pointers are in the global
  // space, as HIP's kernels take them.
  std::vector<llvm::Type *> params;
  std::vector<unsigned> firstOf(f.params.size()), extentsOf(f.params.size());
  for (size_t i = 0; i < f.params.size(); ++i) {
    const Type *t = f.params[i]->type;
    if (holdsNothing(t)) continue;  // no parameter: NVPTX takes no empty aggregate
    firstOf[i] = unsigned(params.size());
    if (!t->isArray()) {
      params.push_back(P.lt(t));
      continue;
    }
    params.push_back(P.amdgpu ? llvm::PointerType::get(C, 1) : ptr);
    if (P.amdgpu) continue;
    extentsOf[i] = unsigned(params.size());
    for (unsigned k = 0; k < 2 * t->ndim(); ++k) params.push_back(i64);
  }
  if (P.amdgpu)
    for (size_t i = 0; i < f.params.size(); ++i) {
      if (!f.params[i]->type->isArray()) continue;
      extentsOf[i] = unsigned(params.size());
      for (unsigned k = 0; k < 2 * f.params[i]->type->ndim(); ++k) params.push_back(i64);
    }
  auto *ft = llvm::FunctionType::get(llvm::Type::getVoidTy(C), params, false);
  auto *k = llvm::Function::Create(ft, llvm::GlobalValue::ExternalLinkage, f.name, P.M);
  if (P.amdgpu) k->setCallingConv(llvm::CallingConv::AMDGPU_KERNEL);
  llvm::IRBuilder<> B(llvm::BasicBlock::Create(C, "entry", k));
  P.describeWrapper(k, f.name, f.loc, B);
  llvm::AllocaInst *slot = B.CreateAlloca(B.getInt8Ty());
  // The call context: the head of the list of arrays the thread allocates.
  bool allocates = P.M.getFunction("kjit_rt_alloc") != nullptr;
  llvm::AllocaInst *arrays = B.CreateAlloca(ptr, nullptr, "arrays");
  B.CreateStore(llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(C)), arrays);
  std::vector<llvm::Value *> args = {
      slot, allocates ? llvm::cast<llvm::Value>(arrays)
                      : llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(C))};
  for (size_t i = 0; i < f.params.size(); ++i) {
    const Var *p = f.params[i];
    if (holdsNothing(p->type)) {
      args.push_back(llvm::Constant::getNullValue(P.lt(p->type)));
      continue;
    }
    if (!p->type->isArray()) {
      llvm::Value *a = k->getArg(firstOf[i]);
      a->setName(p->name);
      args.push_back(a);
      continue;
    }
    unsigned nd = p->type->ndim();
    llvm::Value *desc = llvm::Constant::getNullValue(P.lt(p->type));
    llvm::Argument *dataArg = k->getArg(firstOf[i]);
    dataArg->setName(p->name + ".data");
    dataArg->addAttr(llvm::Attribute::NoUndef);
    llvm::Value *data = P.amdgpu ? B.CreateAddrSpaceCast(dataArg, ptr) : dataArg;
    desc = B.CreateInsertValue(desc, data, {1u});
    unsigned next = extentsOf[i];
    for (unsigned d = 0; d < nd; ++d) {
      llvm::Value *n = k->getArg(next++);
      n->setName(p->name + ".shape" + std::to_string(d));
      desc = B.CreateInsertValue(desc, n, {2u, d});
    }
    for (unsigned d = 0; d < nd; ++d) {
      llvm::Value *s = k->getArg(next++);
      s->setName(p->name + ".stride" + std::to_string(d));
      desc = B.CreateInsertValue(desc, s, {3u, d});
    }
    args.push_back(desc);
  }
  B.CreateCall(P.functions.at(&f), args);
  if (allocates) {
    defineDeviceAllocator(P);
    llvm::BasicBlock *pre = B.GetInsertBlock(), *loop = llvm::BasicBlock::Create(C, "free", k),
                     *body = llvm::BasicBlock::Create(C, "free.one", k),
                     *done = llvm::BasicBlock::Create(C, "free.done", k);
    llvm::Value *first = B.CreateLoad(ptr, arrays);
    B.CreateBr(loop);
    B.SetInsertPoint(loop);
    llvm::PHINode *p = B.CreatePHI(ptr, 2);
    p->addIncoming(first, pre);
    B.CreateCondBr(B.CreateIsNull(p), done, body);
    B.SetInsertPoint(body);
    llvm::Value *nextBlock = B.CreateLoad(ptr, p);
    deviceFree(P, B, p);
    p->addIncoming(nextBlock, body);
    B.CreateBr(loop);
    B.SetInsertPoint(done);
  }
  B.CreateRetVoid();
  if (P.amdgpu) return;  // (the calling convention marks the kernel)
  llvm::NamedMDNode *md = P.M.getOrInsertNamedMetadata("nvvm.annotations");
  md->addOperand(
      llvm::MDNode::get(C, {llvm::ValueAsMetadata::get(k), llvm::MDString::get(C, "kernel"),
                            llvm::ConstantAsMetadata::get(B.getInt32(1))}));
}

}  // namespace kjit::lowering
