// LoweringHopper.cpp - Hopper's asynchronous operations (builtins/Hopper.cpp):
// mbarriers, the bulk tensor copies (TMA), wgmma and setmaxnreg.
//
// On NVIDIA GPUs most are inline PTX: LLVM 19 has no intrinsic for wgmma,
// cp.async.bulk.tensor, mbarrier.try_wait or expect_tx
// (docs/design/tensor-cores.md §2.4). A wgmma accumulator is one inline asm
// whose outputs are tied to its inputs, so that it stays in the registers
// the instruction writes. On the CPU device each operation is a call of
// kjit_cpu_hopper (runtime/host/CpuHopper.cpp), which runs it at once:
// copies complete when issued, a wait polls (the fiber yields) until its
// phase completes, and wgmma computes the thread's accumulator elements.
#include <fmt/format.h>
#include <llvm/IR/InlineAsm.h>

#include <stdexcept>

#include "compiler/LoweringImpl.h"
#include "frontend/support/KernelAbi.h"

namespace kjit::lowering {

using namespace ir;

namespace {

// The 64-bit shared-memory matrix descriptor of a K-major tile with a
// 128-byte swizzle (rows of 128 bytes, 8-row groups 1024 bytes apart):
// start address >> 4 in bits 0-13, leading offset 1 (unused), stride
// offset 1024 >> 4, layout 1 (128B swizzle) in bits 62-63.
constexpr uint64_t kDescriptorFields =
    (uint64_t(1) << 16) | (uint64_t(64) << 32) | (uint64_t(1) << 62);

}  // namespace

// A shared array of a kernel with TMA copies or wgmma: tensor copies need
// 128-byte aligned shared memory, and a 128-byte swizzle's pattern repeats
// every 1024 bytes, so arrays of 1024 bytes or more (and dynamic shared
// memory) start 1024-byte aligned, smaller ones 128.
void FunctionLowering::alignForTensorCopies(llvm::GlobalVariable *gv) {
  uint64_t bytes = P.M.getDataLayout().getTypeAllocSize(gv->getValueType());
  uint64_t want = bytes >= 1024 || gv->getName() == "kjit_dynamic_shared" ? 1024 : 128;
  if (gv->getAlign().valueOrOne().value() < want) gv->setAlignment(llvm::Align(want));
}

// Inline PTX: `text` with `constraints`, returning `ret` (void: nothing).
llvm::Value *FunctionLowering::ptxAsm(llvm::Type *ret, const std::string &text,
                                      const std::string &constraints,
                                      llvm::ArrayRef<llvm::Value *> args) {
  std::vector<llvm::Type *> params;
  for (llvm::Value *a : args) params.push_back(a->getType());
  auto *ft = llvm::FunctionType::get(ret, params, false);
  return B.CreateCall(llvm::InlineAsm::get(ft, text, constraints, /*sideEffects=*/true), args);
}

// The 32-bit shared-window address of a generic pointer into shared memory.
llvm::Value *FunctionLowering::sharedAddress(llvm::Value *generic) {
  llvm::Value *p3 = B.CreateAddrSpaceCast(generic, llvm::PointerType::get(C, 3));
  return B.CreatePtrToInt(p3, B.getInt32Ty());
}

// The thread's index in its block (x fastest), as a GPU numbers it.
llvm::Value *FunctionLowering::linearThreadIndex() {
  auto reg = [&](IntrinsicId id, unsigned axis) -> llvm::Value * {
    if (!P.cpuKernel) return gpuSreg(id, axis);
    unsigned row = id == IntrinsicId::ThreadIdx ? 0 : 2;
    return B.CreateCall(P.cpuSreg(), {ctxPtr, B.getInt32(row * 3 + axis)});
  };
  llvm::Value *bx = reg(IntrinsicId::BlockDim, 0), *by = reg(IntrinsicId::BlockDim, 1);
  return B.CreateAdd(reg(IntrinsicId::ThreadIdx, 0),
                     B.CreateMul(bx, B.CreateAdd(reg(IntrinsicId::ThreadIdx, 1),
                                                 B.CreateMul(by, reg(IntrinsicId::ThreadIdx, 2)))));
}

// cuda.wgmma.store(out, (row, col), acc): the 64 x n tile of the warpgroup,
// each thread's elements where wgmma's layout puts them (register 4j + i of
// warp w, lane 4g + t is row 16w + g + 8(i >> 1), column 8j + 2t + (i & 1)),
// converted to out's type. Elements outside `out` are not written; a tile
// wholly inside it is stored without tests.
void FunctionLowering::wgmmaStore(const Intrinsic *in) {
  const Type *at = in->args[0]->type;
  const Type *f32 = in->args[3]->type->elements()[0];
  unsigned n = unsigned(in->args[3]->type->elements().size());
  llvm::Value *desc = expr(in->args[0]);
  llvm::Value *row0 = expr(in->args[1]), *col0 = expr(in->args[2]);
  llvm::Value *acc = expr(in->args[3]);
  llvm::Type *i64 = B.getInt64Ty();
  llvm::Value *r = B.CreateZExt(B.CreateURem(linearThreadIndex(), B.getInt32(128)), i64);
  llvm::Value *w = B.CreateLShr(r, 5), *lane = B.CreateAnd(r, 31);
  llvm::Value *g = B.CreateLShr(lane, 2), *t = B.CreateAnd(lane, 3);
  llvm::Value *rowBase =
      B.CreateAdd(row0, B.CreateAdd(B.CreateMul(w, B.getInt64(16)), g));    // + 8 (i >> 1)
  llvm::Value *colBase = B.CreateAdd(col0, B.CreateMul(t, B.getInt64(2)));  // + 8j + (i & 1)
  llvm::Value *rows = shapeOf(desc, 0), *cols = shapeOf(desc, 1);
  llvm::Value *s0 = strideOf(desc, 0), *s1 = strideOf(desc, 1);
  llvm::Value *data = dataOf(desc);
  auto address = [&](unsigned idx, llvm::Value *&row, llvm::Value *&col) {
    unsigned j = idx / 4, i = idx % 4;
    row = B.CreateAdd(rowBase, B.getInt64(8 * (i >> 1)));
    col = B.CreateAdd(colBase, B.getInt64(8 * j + (i & 1)));
    llvm::Value *off = B.CreateAdd(B.CreateMul(row, s0), B.CreateMul(col, s1));
    return B.CreateGEP(B.getInt8Ty(), data, off);
  };
  auto value = [&](unsigned idx) {
    llvm::Value *v = convert(B.CreateExtractValue(acc, {idx}), f32, at->dtype());
    return toMem(v, at->dtype());
  };
  // Whole: row0 >= 0, col0 >= 0, row0 + 64 <= rows, col0 + 2n <= cols.
  llvm::Value *whole = B.CreateAnd(
      B.CreateAnd(B.CreateICmpSGE(row0, B.getInt64(0)), B.CreateICmpSGE(col0, B.getInt64(0))),
      B.CreateAnd(B.CreateICmpSLE(B.CreateAdd(row0, B.getInt64(64)), rows),
                  B.CreateICmpSLE(B.CreateAdd(col0, B.getInt64(2 * n)), cols)));
  llvm::Function *fn = B.GetInsertBlock()->getParent();
  auto *fast = llvm::BasicBlock::Create(C, "wgmma.store.whole", fn);
  auto *pairs = llvm::BasicBlock::Create(C, "wgmma.store.pairs", fn);
  auto *single = llvm::BasicBlock::Create(C, "wgmma.store.single", fn);
  auto *slow = llvm::BasicBlock::Create(C, "wgmma.store.edge", fn);
  auto *done = llvm::BasicBlock::Create(C, "wgmma.store.done", fn);
  B.CreateCondBr(whole, fast, slow);
  // Elements 2m and 2m + 1 are neighbours in a row: one store of both when
  // the row is contiguous and the pair's address is aligned to its size.
  B.SetInsertPoint(fast);
  int64_t item = itemSize(at->dtype());
  llvm::Value *r0, *c0;
  llvm::Value *first = B.CreatePtrToInt(address(0, r0, c0), i64);
  llvm::Value *aligned = B.CreateAnd(
      B.CreateICmpEQ(s1, B.getInt64(item)),
      B.CreateICmpEQ(B.CreateAnd(B.CreateOr(first, s0), B.getInt64(2 * item - 1)), B.getInt64(0)));
  if (at->dtype()->isBool() || at->dtype()->isRecord()) aligned = B.getFalse();
  B.CreateCondBr(aligned, pairs, single);
  B.SetInsertPoint(pairs);
  llvm::Type *pairTy = llvm::FixedVectorType::get(P.lt(at->dtype()), 2);
  for (unsigned idx = 0; idx < n; idx += 2) {
    llvm::Value *row, *col;
    llvm::Value *p = address(idx, row, col);
    llvm::Value *v = llvm::UndefValue::get(pairTy);
    v = B.CreateInsertElement(v, value(idx), uint64_t(0));
    v = B.CreateInsertElement(v, value(idx + 1), uint64_t(1));
    B.CreateAlignedStore(v, p, llvm::Align(uint64_t(2 * item)));
  }
  B.CreateBr(done);
  B.SetInsertPoint(single);
  for (unsigned idx = 0; idx < n; ++idx) {
    llvm::Value *row, *col;
    llvm::Value *p = address(idx, row, col);
    B.CreateStore(value(idx), p);
  }
  B.CreateBr(done);
  B.SetInsertPoint(slow);
  for (unsigned idx = 0; idx < n; ++idx) {
    llvm::Value *row, *col;
    llvm::Value *p = address(idx, row, col);
    llvm::Value *inside =
        B.CreateAnd(B.CreateAnd(B.CreateICmpSGE(row, B.getInt64(0)), B.CreateICmpSLT(row, rows)),
                    B.CreateAnd(B.CreateICmpSGE(col, B.getInt64(0)), B.CreateICmpSLT(col, cols)));
    auto *st = llvm::BasicBlock::Create(C, "wgmma.store.one", fn);
    auto *next = llvm::BasicBlock::Create(C, "wgmma.store.next", fn);
    B.CreateCondBr(inside, st, next);
    B.SetInsertPoint(st);
    B.CreateStore(value(idx), p);
    B.CreateBr(next);
    B.SetInsertPoint(next);
  }
  B.CreateBr(done);
  B.SetInsertPoint(done);
}

llvm::Value *FunctionLowering::hopperIntrinsic(const Intrinsic *in) {
  llvm::Type *v = B.getVoidTy(), *i32 = B.getInt32Ty(), *i64 = B.getInt64Ty();
  auto barrier = [&](size_t k) {  // bars[i] as a shared address
    const Type *t = in->args[k]->type;
    return sharedAddress(
        elementAddress(expr(in->args[k]), t, {expr(in->args[k + 1])}, false, false, in->loc));
  };
  auto i32Of = [&](const Expr *e) { return B.CreateTrunc(expr(e), i32); };
  auto none = [&]() { return zeroOf(in->type); };
  if (in->id == IntrinsicId::TmaLoad || in->id == IntrinsicId::TmaStore ||
      in->id == IntrinsicId::WgmmaMma) {
    P.sharedAlign1024 = true;
    for (llvm::GlobalVariable &gv : P.M.globals())
      if (gv.getAddressSpace() == 3) alignForTensorCopies(&gv);
  }
  // The coordinates of a tensor copy, innermost (the last index) first.
  auto coords = [&](size_t from, std::vector<llvm::Value *> &out, std::string &list,
                    unsigned first) {
    size_t rank = in->args.size() - from;
    for (size_t k = 0; k < rank; ++k) {
      out.push_back(i32Of(in->args[in->args.size() - 1 - k]));
      list += fmt::format("{}${}", k ? ", " : "", first + k);
    }
    return rank;
  };
  switch (in->id) {
  case IntrinsicId::MbarrierInit:
    ptxAsm(v, "mbarrier.init.shared::cta.b64 [$0], $1;", "r,r", {barrier(0), i32Of(in->args[2])});
    return none();
  case IntrinsicId::MbarrierArrive:
    ptxAsm(v, "mbarrier.arrive.shared::cta.b64 _, [$0];", "r,~{memory}", {barrier(0)});
    return none();
  case IntrinsicId::MbarrierExpectTx:
    ptxAsm(v, "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", "r,r,~{memory}",
           {barrier(0), i32Of(in->args[2])});
    return none();
  case IntrinsicId::MbarrierTryWait:
  case IntrinsicId::MbarrierWait: {
    llvm::Value *bar = barrier(0), *parity = i32Of(in->args[2]);
    auto tryWait = [&]() {
      llvm::Value *r = ptxAsm(i32,
                              "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [$1], "
                              "$2; selp.u32 $0, 1, 0, p; }",
                              "=r,r,r,~{memory}", {bar, parity});
      return B.CreateICmpNE(r, B.getInt32(0));
    };
    if (in->id == IntrinsicId::MbarrierTryWait) return tryWait();
    llvm::Function *fn = B.GetInsertBlock()->getParent();
    auto *loop = llvm::BasicBlock::Create(C, "mbarrier.wait", fn);
    auto *done = llvm::BasicBlock::Create(C, "mbarrier.done", fn);
    B.CreateBr(loop);
    B.SetInsertPoint(loop);
    B.CreateCondBr(tryWait(), done, loop);
    B.SetInsertPoint(done);
    return none();
  }
  case IntrinsicId::FenceMbarrierInit:
    ptxAsm(v, "fence.mbarrier_init.release.cluster;", "~{memory}", {});
    return none();
  case IntrinsicId::FenceProxyAsync:
    ptxAsm(v, "fence.proxy.async.shared::cta;", "~{memory}", {});
    return none();
  case IntrinsicId::TmaLoad: {
    // (dst, map, bars, i, coords...)
    llvm::Value *dst = sharedAddress(dataOf(expr(in->args[0])));
    llvm::Value *map = B.CreatePtrToInt(dataOf(expr(in->args[1])), i64);
    llvm::Value *bar = barrier(2);
    std::vector<llvm::Value *> args = {dst, map};
    std::string list;
    size_t rank = coords(4, args, list, 2);
    args.push_back(bar);
    std::string text = fmt::format(
        "cp.async.bulk.tensor.{}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], "
        "[$1, {{{}}}], [${}];",
        rank, list, 2 + rank);
    std::string cons = "r,l";
    for (size_t k = 0; k < rank; ++k) cons += ",r";
    ptxAsm(v, text, cons + ",r,~{memory}", args);
    return none();
  }
  case IntrinsicId::TmaStore: {
    // (map, src, coords...)
    llvm::Value *map = B.CreatePtrToInt(dataOf(expr(in->args[0])), i64);
    llvm::Value *src = sharedAddress(dataOf(expr(in->args[1])));
    std::vector<llvm::Value *> args = {map};
    std::string list;
    size_t rank = coords(2, args, list, 1);
    args.push_back(src);
    std::string text =
        fmt::format("cp.async.bulk.tensor.{}d.global.shared::cta.bulk_group [$0, {{{}}}], [${}];",
                    rank, list, 1 + rank);
    std::string cons = "l";
    for (size_t k = 0; k < rank; ++k) cons += ",r";
    ptxAsm(v, text, cons + ",r,~{memory}", args);
    return none();
  }
  case IntrinsicId::TmaCommit:
    ptxAsm(v, "cp.async.bulk.commit_group;", "~{memory}", {});
    return none();
  case IntrinsicId::TmaWait:
    ptxAsm(v, fmt::format("cp.async.bulk.wait_group.read {};", cast<Const>(in->args[0])->i),
           "~{memory}", {});
    return none();
  case IntrinsicId::WgmmaFence:
    ptxAsm(v, "wgmma.fence.sync.aligned;", "~{memory}", {});
    return none();
  case IntrinsicId::WgmmaCommit:
    ptxAsm(v, "wgmma.commit_group.sync.aligned;", "~{memory}", {});
    return none();
  case IntrinsicId::WgmmaWait: {
    std::string text =
        fmt::format("wgmma.wait_group.sync.aligned {};", cast<Const>(in->args[0])->i);
    if (in->args.size() == 1) {
      ptxAsm(v, text, "~{memory}", {});
      return none();
    }
    // The accumulator goes through the wait, so nothing reads it before.
    llvm::Value *acc = expr(in->args[1]);
    unsigned n = unsigned(in->args[1]->type->elements().size());
    std::vector<llvm::Value *> regs;
    std::string cons;
    for (unsigned k = 0; k < n; ++k) cons += fmt::format("{}=f", k ? "," : "");
    for (unsigned k = 0; k < n; ++k) {
      regs.push_back(B.CreateExtractValue(acc, {k}));
      cons += fmt::format(",{}", k);
    }
    llvm::Value *r = ptxAsm(P.lt(in->type), text, cons + ",~{memory}", regs);
    return r;
  }
  case IntrinsicId::WgmmaZeros: return zeroOf(in->type);
  case IntrinsicId::WgmmaConvert: {
    // Pairs rounded into one register each (cvt.rn.f16x2.f32): a wgmma
    // reading them later finds them packed, so nothing writes its a
    // registers after the wgmma.fence before it (ptxas would add a wait).
    llvm::Value *acc = expr(in->args[0]);
    unsigned n = unsigned(in->args[0]->type->elements().size());
    bool bf = in->type->elements()[0]->isBFloat16();
    llvm::Type *half = bf ? B.getBFloatTy() : B.getHalfTy();
    auto *pair = llvm::FixedVectorType::get(half, 2);
    std::string text = fmt::format("cvt.rn.{}x2.f32 $0, $2, $1;", bf ? "bf16" : "f16");
    llvm::Value *out = llvm::UndefValue::get(P.lt(in->type));
    for (unsigned j = 0; j + 1 < n; j += 2) {
      llvm::Value *packed =
          ptxAsm(i32, text, "=r,f,f",
                 {B.CreateExtractValue(acc, {j}), B.CreateExtractValue(acc, {j + 1})});
      llvm::Value *v = B.CreateBitCast(packed, pair);
      out = B.CreateInsertValue(out, B.CreateExtractElement(v, uint64_t(0)), {j});
      out = B.CreateInsertValue(out, B.CreateExtractElement(v, uint64_t(1)), {j + 1});
    }
    return out;
  }
  case IntrinsicId::WgmmaMma: {
    // (acc, a, b, k): descriptors of the shared tiles, advanced to the k-th
    // 16 columns: 32 bytes in a K-major tile, 16 rows of 128 bytes in an
    // N-major one (whose 64-wide blocks lie b.strides[0] bytes apart: the
    // descriptor's leading offset). a in registers: its values 8k .. 8k+7,
    // rounded to b's type, in pairs.
    // On cuda.wgmma.zeros(n) written in the call, the product overwrites
    // (scale-d 0): no zeros are moved into the registers first.
    auto *zeros = dyn_cast<Intrinsic>(in->args[0]);
    bool fresh = zeros && zeros->id == IntrinsicId::WgmmaZeros;
    llvm::Value *acc = expr(in->args[0]);
    unsigned n = unsigned(in->args[0]->type->elements().size());
    llvm::Value *k = expr(in->args[3]);
    const Type *bt = in->args[2]->type;
    bool regA = in->args[1]->type->isTuple(), nMajor = bt->ndim() == 3;
    auto descriptor = [&](const Expr *tile, bool nm) {
      llvm::Value *tv = expr(tile);
      llvm::Value *addr = B.CreateZExt(sharedAddress(dataOf(tv)), i64);
      llvm::Value *start = B.CreateLShr(B.CreateAnd(addr, B.getInt64(0x3FFFF)), 4);
      if (!nm)
        return B.CreateOr(B.CreateAdd(start, B.CreateMul(k, B.getInt64(2))),
                          B.getInt64(kDescriptorFields));
      llvm::Value *lead = B.CreateAnd(B.CreateLShr(strideOf(tv, 0), 4), B.getInt64(0x3FFF));
      llvm::Value *fields =
          B.CreateOr(B.CreateShl(lead, 16), B.getInt64((uint64_t(64) << 32) | (uint64_t(1) << 62)));
      return B.CreateOr(B.CreateAdd(start, B.CreateMul(k, B.getInt64(128))), fields);
    };
    llvm::Value *db = descriptor(in->args[2], nMajor);
    const char *ty = bt->dtype()->isBFloat16() ? "bf16" : "f16";
    std::string list, cons;
    for (unsigned j = 0; j < n; ++j) {
      list += fmt::format("{}${}", j ? ", " : "", j);
      cons += fmt::format("{}=f", j ? "," : "");
    }
    std::vector<llvm::Value *> args;
    std::string text;
    auto f8 = [](const Type *t) { return t->dtype()->isE5M2() ? "e5m2" : "e4m3"; };
    if (!regA && bt->dtype()->isFloat8()) {
      // 8-bit: k32 (a 32-byte step is 32 values), K-major only (no
      // transpose operands).
      llvm::Value *da = descriptor(in->args[1], false);
      text = fmt::format(
          "{{ .reg .pred p; setp.ne.b32 p, ${}, 0; "
          "wgmma.mma_async.sync.aligned.m64n{}k32.f32.{}.{} "
          "{{{}}}, ${}, ${}, p, 1, 1; }}",
          n + 2, 2 * n, f8(in->args[1]->type), f8(bt), list, n, n + 1);
      cons += ",l,l,r";
      args = {da, db, B.getInt32(fresh ? 0 : 1)};
    } else if (!regA) {
      llvm::Value *da = descriptor(in->args[1], false);
      text = fmt::format(
          "{{ .reg .pred p; setp.ne.b32 p, ${}, 0; "
          "wgmma.mma_async.sync.aligned.m64n{}k16.f32.{}.{} "
          "{{{}}}, ${}, ${}, p, 1, 1, 0, {}; }}",
          n + 2, 2 * n, ty, ty, list, n, n + 1, nMajor ? 1 : 0);
      cons += ",l,l,r";
      args = {da, db, B.getInt32(fresh ? 0 : 1)};
    } else {
      llvm::Value *av = expr(in->args[1]);
      auto m = unsigned(in->args[1]->type->elements().size());
      std::vector<llvm::Value *> vals(8);
      if (auto *kc = llvm::dyn_cast<llvm::ConstantInt>(k)) {
        for (unsigned j = 0; j < 8; ++j)
          vals[j] = B.CreateExtractValue(av, {unsigned(kc->getZExtValue()) * 8 + j});
      } else {
        llvm::Type *et = P.lt(in->args[1]->type->elements()[0]);
        llvm::AllocaInst *slots = spillTuple(av, et, m, "wgmma.a");
        llvm::Type *arr = slots->getAllocatedType();
        for (unsigned j = 0; j < 8; ++j) {
          llvm::Value *at = B.CreateAdd(B.CreateMul(k, B.getInt64(8)), B.getInt64(j));
          vals[j] = B.CreateLoad(et, B.CreateInBoundsGEP(arr, slots, {B.getInt64(0), at}));
        }
      }
      llvm::Type *half = bt->dtype()->isBFloat16() ? B.getBFloatTy() : B.getHalfTy();
      auto *pair = llvm::FixedVectorType::get(half, 2);
      auto rounded = [&](llvm::Value *x) {
        return x->getType() == half ? x : B.CreateFPTrunc(x, half);
      };
      for (unsigned j = 0; j < 4; ++j) {
        llvm::Value *v = llvm::UndefValue::get(pair);
        v = B.CreateInsertElement(v, rounded(vals[2 * j]), uint64_t(0));
        v = B.CreateInsertElement(v, rounded(vals[2 * j + 1]), uint64_t(1));
        args.push_back(B.CreateBitCast(v, i32));
      }
      text = fmt::format(
          "{{ .reg .pred p; setp.ne.b32 p, ${}, 0; "
          "wgmma.mma_async.sync.aligned.m64n{}k16.f32.{}.{} "
          "{{{}}}, {{${}, ${}, ${}, ${}}}, ${}, p, 1, 1, {}; }}",
          n + 5, 2 * n, ty, ty, list, n, n + 1, n + 2, n + 3, n + 4, nMajor ? 1 : 0);
      cons += ",r,r,r,r,l,r";
      args.push_back(db);
      args.push_back(B.getInt32(fresh ? 0 : 1));
    }
    for (unsigned j = 0; j < n; ++j) {
      args.push_back(fresh ? llvm::UndefValue::get(B.getFloatTy())
                           : B.CreateExtractValue(acc, {j}));
      cons += fmt::format(",{}", j);
    }
    return ptxAsm(P.lt(in->type), text, cons + ",~{memory}", args);
  }
  case IntrinsicId::WgmmaStore: wgmmaStore(in); return none();
  case IntrinsicId::NamedBarrier: {
    bool sync = cast<Const>(in->args[2])->i != 0;
    auto *call = llvm::cast<llvm::CallInst>(
        ptxAsm(v, sync ? "barrier.sync.aligned $0, $1;" : "barrier.arrive.aligned $0, $1;",
               "r,r,~{memory}", {i32Of(in->args[0]), i32Of(in->args[1])}));
    call->addFnAttr(llvm::Attribute::Convergent);  // (never duplicated or moved across branches)
    return none();
  }
  case IntrinsicId::Setmaxnreg: {
    bool inc = cast<Const>(in->args[1])->i != 0;
    B.CreateCall(nvvmIntrinsic(inc ? "llvm.nvvm.setmaxnreg.inc.sync.aligned.u32"
                                   : "llvm.nvvm.setmaxnreg.dec.sync.aligned.u32"),
                 {B.getInt32(int32_t(cast<Const>(in->args[0])->i))});
    return none();
  }
  default: throw std::logic_error("internal error: not a Hopper intrinsic");
  }
}

// The CPU device: kjit_cpu_hopper(ctx, op, a, b, c, x, y, site).
llvm::Value *FunctionLowering::cpuHopperIntrinsic(const Intrinsic *in) {
  llvm::Type *i64 = B.getInt64Ty();
  llvm::Value *null = llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(C));
  auto call = [&](HopperOp op, llvm::Value *a, llvm::Value *b, llvm::Value *c, llvm::Value *x,
                  llvm::Value *y) {
    std::string file = in->loc.valid() ? P.sm.buffer(in->loc.file).name : "";
    return B.CreateCall(P.runtime("kjit_cpu_hopper"),
                        {ctxPtr, B.getInt32(int32_t(op)), a ? a : null, b ? b : null, c ? c : null,
                         x ? x : B.getInt64(0), y ? y : B.getInt64(0), P.cstr(file),
                         B.getInt32(in->loc.line), B.getInt32(in->loc.col)});
  };
  auto barrier = [&](size_t k) {
    return elementAddress(expr(in->args[k]), in->args[k]->type, {expr(in->args[k + 1])}, false,
                          true, in->loc);
  };
  auto none = [&]() { return zeroOf(in->type); };
  P.cpuNeedsFibers = true;  // (a failure ends the thread's fiber)
  // The coordinates in an int64 array (in index order) and their number.
  // An int64 record on the stack: its address as an i64.
  auto record = [&](const std::vector<llvm::Value *> &fields, const char *name) -> llvm::Value * {
    auto *ty = llvm::ArrayType::get(i64, fields.size());
    llvm::AllocaInst *a = entryAlloca(ty, name);
    for (size_t k = 0; k < fields.size(); ++k)
      B.CreateStore(fields[k], B.CreateConstGEP2_32(ty, a, 0, unsigned(k)));
    return B.CreatePtrToInt(a, i64);
  };
  // The bytes of a shared tile (a C-contiguous array): what a copy may fill.
  auto bytesOf = [&](const Expr *tile) {
    llvm::Value *desc = expr(tile);
    llvm::Value *n = B.getInt64(itemSize(tile->type->dtype()));
    for (unsigned d = 0; d < tile->type->ndim(); ++d) n = B.CreateMul(n, shapeOf(desc, d));
    return n;
  };
  // TmaRecord (CpuHopper.h): the coordinates (five), then the tile's bytes.
  auto coords = [&](size_t from, const Expr *tile, llvm::Value *&count) -> llvm::Value * {
    size_t rank = in->args.size() - from;
    std::vector<llvm::Value *> f(5, B.getInt64(0));
    for (size_t k = 0; k < rank; ++k) f[k] = expr(in->args[from + k]);
    f.push_back(bytesOf(tile));
    count = B.getInt64(int64_t(rank));
    return record(f, "tma.record");
  };
  // WgmmaRecord (KernelAbi.h): k, then rows, columns and the two byte
  // strides of a and of b (of an N-major b's blocks), then an N-major b's
  // block count and stride.
  auto tiles = [&]() -> llvm::Value * {
    std::vector<llvm::Value *> f = {expr(in->args[3])};
    for (size_t t : {size_t(1), size_t(2)}) {
      const Type *ty = in->args[t]->type;
      if (ty->isTuple()) {  // a in registers
        for (int d = 0; d < 4; ++d) f.push_back(B.getInt64(0));
        continue;
      }
      llvm::Value *desc = expr(in->args[t]);
      unsigned first = ty->ndim() - 2;
      for (unsigned d = 0; d < 2; ++d) f.push_back(shapeOf(desc, first + d));
      for (unsigned d = 0; d < 2; ++d) f.push_back(strideOf(desc, first + d));
      if (t == 2) {
        f.push_back(first ? shapeOf(desc, 0) : B.getInt64(0));
        f.push_back(first ? strideOf(desc, 0) : B.getInt64(0));
      }
    }
    return record(f, "wgmma.record");
  };
  switch (in->id) {
  case IntrinsicId::MbarrierInit:
    call(HopperOp::MbarrierInit, barrier(0), nullptr, nullptr, expr(in->args[2]), nullptr);
    return none();
  case IntrinsicId::MbarrierArrive:
    call(HopperOp::MbarrierArrive, barrier(0), nullptr, nullptr, nullptr, nullptr);
    return none();
  case IntrinsicId::MbarrierExpectTx:
    call(HopperOp::MbarrierExpectTx, barrier(0), nullptr, nullptr, expr(in->args[2]), nullptr);
    return none();
  case IntrinsicId::MbarrierTryWait:
    return B.CreateICmpNE(
        call(HopperOp::MbarrierTryWait, barrier(0), nullptr, nullptr, expr(in->args[2]), nullptr),
        B.getInt64(0));
  case IntrinsicId::MbarrierWait:
    P.cpuNeedsFibers = true;
    call(HopperOp::MbarrierWait, barrier(0), nullptr, nullptr, expr(in->args[2]), nullptr);
    return none();
  case IntrinsicId::TmaLoad: {
    llvm::Value *count;
    llvm::Value *xs = coords(4, in->args[0], count);
    call(HopperOp::TmaLoad, dataOf(expr(in->args[0])), dataOf(expr(in->args[1])), barrier(2), xs,
         count);
    return none();
  }
  case IntrinsicId::TmaStore: {
    llvm::Value *count;
    llvm::Value *xs = coords(2, in->args[1], count);
    call(HopperOp::TmaStore, dataOf(expr(in->args[1])), dataOf(expr(in->args[0])), nullptr, xs,
         count);
    return none();
  }
  case IntrinsicId::WgmmaMma: {
    llvm::Value *acc = expr(in->args[0]);
    unsigned n = unsigned(in->args[0]->type->elements().size());
    llvm::Type *f32 = B.getFloatTy();
    llvm::AllocaInst *slot = spillTuple(acc, f32, n, "wgmma.acc");
    llvm::Type *arr = slot->getAllocatedType();
    const Type *bt = in->args[2]->type;
    bool bf = bt->dtype()->isBFloat16(), regA = in->args[1]->type->isTuple();
    int64_t flags = int64_t(2 * n) | (bf ? kWgmmaBFloat16 : 0) | (regA ? kWgmmaRegisterA : 0) |
                    (bt->ndim() == 3 ? kWgmmaNMajor : 0);
    if (bt->dtype()->isFloat8()) {
      flags |= kWgmmaFloat8;
      if (in->args[1]->type->dtype()->isE5M2()) flags |= kWgmmaE5M2A;
      if (bt->dtype()->isE5M2()) flags |= kWgmmaE5M2B;
    }
    llvm::Value *a;
    if (regA) {
      // The warp's 16 x 16 slice of a, gathered from its lanes' registers
      // (values 8k .. 8k+7 of each).
      llvm::Value *av = expr(in->args[1]);
      auto m = unsigned(in->args[1]->type->elements().size());
      llvm::Type *all = llvm::ArrayType::get(f32, m);
      llvm::AllocaInst *vals = entryAlloca(all, "wgmma.a");
      for (unsigned j = 0; j < m; ++j) {
        llvm::Value *x = B.CreateExtractValue(av, {j});  // (float16/bfloat16: exactly)
        B.CreateStore(x->getType() == f32 ? x : B.CreateFPExt(x, f32),
                      B.CreateConstGEP2_32(all, vals, 0, j));
      }
      llvm::Value *mine = B.CreateInBoundsGEP(
          all, vals, {B.getInt64(0), B.CreateMul(expr(in->args[3]), B.getInt64(8))});
      llvm::Type *sliceTy = llvm::ArrayType::get(f32, 256);
      llvm::AllocaInst *slice = entryAlloca(sliceTy, "wgmma.a.slice");
      cpuWarpCall(in, WarpOp::WgmmaA, B.getInt32(-1),
                  pointerRecord({mine, slice}, "wgmma.a.operands"), B.getInt32(bf ? 1 : 0));
      a = slice;
    } else {
      a = dataOf(expr(in->args[1]));
    }
    call(HopperOp::Wgmma, a, dataOf(expr(in->args[2])), slot, tiles(), B.getInt64(flags));
    llvm::Value *out = llvm::UndefValue::get(P.lt(in->type));
    for (unsigned k = 0; k < n; ++k)
      out = B.CreateInsertValue(out, B.CreateLoad(f32, B.CreateConstGEP2_32(arr, slot, 0, k)), {k});
    return out;
  }
  case IntrinsicId::WgmmaWait: return in->args.size() == 2 ? expr(in->args[1]) : none();
  case IntrinsicId::WgmmaZeros: return zeroOf(in->type);
  case IntrinsicId::WgmmaConvert: return expr(in->args[1]);
  case IntrinsicId::WgmmaStore: wgmmaStore(in); return none();
  // Copies complete when issued, and products when computed: the fences,
  // commits and waits have nothing to wait for; register counts are the
  // GPU's alone.
  case IntrinsicId::FenceMbarrierInit:
  case IntrinsicId::FenceProxyAsync:
  case IntrinsicId::TmaCommit:
  case IntrinsicId::TmaWait:
  case IntrinsicId::WgmmaFence:
  case IntrinsicId::Setmaxnreg: return none();
  // The threads of a warpgroup compute their parts of a product one by
  // one: a commit waits for all 128, so that none releases a buffer (an
  // mbarrier arrival after wait_group) that another still reads.
  case IntrinsicId::WgmmaCommit:
    call(HopperOp::WarpgroupSync, nullptr, nullptr, nullptr, nullptr, nullptr);
    return none();
  case IntrinsicId::NamedBarrier: {
    P.cpuNeedsFibers = true;
    llvm::Value *y = expr(in->args[1]);
    if (cast<Const>(in->args[2])->i) y = B.CreateOr(y, B.getInt64(int64_t(1) << 32));
    call(HopperOp::NamedBarrier, nullptr, nullptr, nullptr, expr(in->args[0]), y);
    return none();
  }
  default: throw std::logic_error("internal error: not a Hopper intrinsic");
  }
}

}  // namespace kjit::lowering
