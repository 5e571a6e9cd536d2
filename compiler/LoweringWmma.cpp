// LoweringWmma.cpp - cuda.wmma on NVIDIA GPUs: LLVM's NVPTX wmma intrinsics
// (llvm.nvvm.wmma.m16n16k16.*), whose register operands are packed from and
// unpacked to kjit's fragments (compiler/Wmma.h). The CPU device's lowering
// is in LoweringCpuKernel.cpp. Also the register-level products: mma.sync
// and ldmatrix (NVIDIA), mfma (AMD CDNA: llvm.amdgcn.mfma.*).
#include <fmt/format.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsAMDGPU.h>

#include <stdexcept>

#include "compiler/LoweringImpl.h"
#include "compiler/Wmma.h"

namespace kjit::lowering {

using namespace ir;

namespace {

const char *typeSuffix(const Type *elem) {
  return elem->isBFloat16() ? "bf16" : elem->isHalf() ? "f16" : "f32";
}

}  // namespace

llvm::Function *FunctionLowering::nvvmIntrinsic(const std::string &name,
                                                llvm::ArrayRef<llvm::Type *> overloads) {
  llvm::Intrinsic::ID id = llvm::Function::lookupIntrinsicID(name);
  if (id == llvm::Intrinsic::not_intrinsic ||
      llvm::Intrinsic::isOverloaded(id) != !overloads.empty())
    throw std::logic_error("internal error: LLVM has no intrinsic " + name);
  return llvm::Intrinsic::getDeclaration(&P.M, id, overloads);
}

// A fragment's elements as the intrinsic's registers: float16 in pairs
// (<2 x half>), bfloat16 in pairs as i32, float32 one each.
std::vector<llvm::Value *> FunctionLowering::wmmaRegisters(llvm::Value *frag,
                                                           const wmma::Fragment &f) {
  return tensorRegisters(frag, wmma::elementsPerLane(f.use, f.elem), f.elem);
}

// The first n elements of `tuple` (all of type elem) as registers.
std::vector<llvm::Value *> FunctionLowering::tensorRegisters(llvm::Value *frag, unsigned n,
                                                             const Type *elem) {
  std::vector<llvm::Value *> regs;
  llvm::Type *et = P.lt(elem);
  for (unsigned k = 0; k < n; k += elem->bits() == 16 ? 2 : 1) {
    if (elem->bits() != 16) {
      regs.push_back(B.CreateExtractValue(frag, {k}));
      continue;
    }
    llvm::Value *v = llvm::UndefValue::get(llvm::FixedVectorType::get(et, 2));
    v = B.CreateInsertElement(v, B.CreateExtractValue(frag, {k}), uint64_t(0));
    v = B.CreateInsertElement(v, B.CreateExtractValue(frag, {k + 1}), uint64_t(1));
    regs.push_back(elem->isHalf() ? v : B.CreateBitCast(v, B.getInt32Ty()));
  }
  return regs;
}

// The intrinsic's result registers as a fragment of type `t`.
llvm::Value *FunctionLowering::wmmaFragment(llvm::Value *regs, const Type *t,
                                            const wmma::Fragment &f) {
  return tensorTuple(regs, t, wmma::elementsPerLane(f.use, f.elem), f.elem);
}

// Registers (a struct of them, or one) as the tuple `t` of n elements of
// type elem: 16-bit ones two a register (<2 x half>, or i32 for others).
llvm::Value *FunctionLowering::tensorTuple(llvm::Value *regs, const Type *t, unsigned n,
                                           const Type *elem) {
  llvm::Value *out = llvm::UndefValue::get(P.lt(t));
  llvm::Type *et = P.lt(elem);
  for (unsigned k = 0, r = 0; k < n; ++r) {
    llvm::Value *reg = regs->getType()->isStructTy() ? B.CreateExtractValue(regs, {r}) : regs;
    if (elem->bits() != 16) {
      out = B.CreateInsertValue(out, reg, {k++});
      continue;
    }
    if (reg->getType()->isIntegerTy())
      reg = B.CreateBitCast(reg, llvm::FixedVectorType::get(et, 2));
    out = B.CreateInsertValue(out, B.CreateExtractElement(reg, uint64_t(0)), {k++});
    out = B.CreateInsertValue(out, B.CreateExtractElement(reg, uint64_t(1)), {k++});
  }
  return out;
}

llvm::Value *FunctionLowering::wmmaIntrinsic(const Intrinsic *in) {
  // The block's first element and the leading dimension (in elements).
  auto place = [&](size_t arrayArg, llvm::Value *&ptr, llvm::Value *&ldm) {
    const Type *at = in->args[arrayArg]->type;
    llvm::Value *desc = expr(in->args[arrayArg]);
    ptr = elementAddress(desc, at, {expr(in->args[arrayArg + 1]), expr(in->args[arrayArg + 2])},
                         false, false, in->loc);
    ldm = B.CreateTrunc(B.CreateSDiv(strideOf(desc, 0), B.getInt64(itemSize(at->dtype()))),
                        B.getInt32Ty());
  };
  switch (in->id) {
  case IntrinsicId::WmmaLoad: {
    wmma::Fragment f = *wmma::fragmentOf(in->type);
    const char *use = f.use == wmma::Use::A ? "a" : f.use == wmma::Use::B ? "b" : "c";
    std::string name = fmt::format("llvm.nvvm.wmma.m16n16k16.load.{}.{}.stride.{}", use,
                                   f.colMajor ? "col" : "row", typeSuffix(f.elem));
    llvm::Value *ptr, *ldm;
    place(0, ptr, ldm);
    return wmmaFragment(B.CreateCall(nvvmIntrinsic(name, {ptr->getType()}), {ptr, ldm}), in->type,
                        f);
  }
  case IntrinsicId::WmmaMma: {
    wmma::Fragment fa = *wmma::fragmentOf(in->args[0]->type),
                   fb = *wmma::fragmentOf(in->args[1]->type),
                   fc = *wmma::fragmentOf(in->args[2]->type);
    std::string name =
        fmt::format("llvm.nvvm.wmma.m16n16k16.mma.{}.{}.{}", fa.colMajor ? "col" : "row",
                    fb.colMajor ? "col" : "row", fa.elem->isBFloat16() ? "bf16" : "f32.f32");
    std::vector<llvm::Value *> args;
    for (auto [k, f] : {std::pair{0, fa}, {1, fb}, {2, fc}})
      for (llvm::Value *r : wmmaRegisters(expr(in->args[size_t(k)]), f)) args.push_back(r);
    return wmmaFragment(B.CreateCall(nvvmIntrinsic(name), args), in->type, fc);
  }
  case IntrinsicId::WmmaStore: {
    wmma::Fragment f = *wmma::fragmentOf(in->args[3]->type);
    bool col = cast<Const>(in->args[4])->i != 0;
    std::string name =
        fmt::format("llvm.nvvm.wmma.m16n16k16.store.d.{}.stride.f32", col ? "col" : "row");
    llvm::Value *ptr, *ldm;
    place(0, ptr, ldm);
    std::vector<llvm::Value *> args = {ptr};
    for (llvm::Value *r : wmmaRegisters(expr(in->args[3]), f)) args.push_back(r);
    args.push_back(ldm);
    B.CreateCall(nvvmIntrinsic(name, {ptr->getType()}), args);
    return zeroOf(in->type);
  }
  case IntrinsicId::MmaSync: {
    const Type *elem = in->args[0]->type->elements()[0];
    std::string name = elem->isBFloat16() ? "llvm.nvvm.mma.m16n8k16.row.col.bf16"
                                          : "llvm.nvvm.mma.m16n8k16.row.col.f32.f32";
    const Type *f32 = in->type->elements()[0];
    std::vector<llvm::Value *> args;
    for (auto [k, n, et] : {std::tuple{0, 8u, elem}, {1, 4u, elem}, {2, 4u, f32}})
      for (llvm::Value *r : tensorRegisters(expr(in->args[size_t(k)]), n, et)) args.push_back(r);
    return tensorTuple(B.CreateCall(nvvmIntrinsic(name), args), in->type, 4, f32);
  }
  case IntrinsicId::Mfma: {
    // v_mfma_f32_16x16x16{f16,bf16_1k}: a and b <4 x half> (bf16: <4 x
    // i16>), c <4 x float>; cbsz, abid, blgp 0 (no broadcast).
    const Type *elem = in->args[0]->type->elements()[0];
    bool bf16 = elem->isBFloat16();
    llvm::Type *et = bf16 ? B.getInt16Ty() : P.lt(elem);
    auto vec = [&](size_t k, llvm::Type *t) {
      llvm::Value *tuple = expr(in->args[k]),
                  *v = llvm::UndefValue::get(llvm::FixedVectorType::get(t, 4));
      for (unsigned j = 0; j < 4; ++j) {
        llvm::Value *x = B.CreateExtractValue(tuple, {j});
        v = B.CreateInsertElement(v, x->getType() == t ? x : B.CreateBitCast(x, t), uint64_t(j));
      }
      return v;
    };
    llvm::Intrinsic::ID iid = bf16 ? llvm::Intrinsic::amdgcn_mfma_f32_16x16x16bf16_1k
                                   : llvm::Intrinsic::amdgcn_mfma_f32_16x16x16f16;
    llvm::Value *d = B.CreateIntrinsic(iid, {},
                                       {vec(0, et), vec(1, et), vec(2, B.getFloatTy()),
                                        B.getInt32(0), B.getInt32(0), B.getInt32(0)});
    llvm::Value *out = llvm::UndefValue::get(P.lt(in->type));
    for (unsigned j = 0; j < 4; ++j)
      out = B.CreateInsertValue(out, B.CreateExtractElement(d, uint64_t(j)), {j});
    return out;
  }
  case IntrinsicId::Ldmatrix: {
    int64_t num = cast<Const>(in->args[3])->i;
    bool trans = cast<Const>(in->args[4])->i != 0;
    std::string name =
        fmt::format("llvm.nvvm.ldmatrix.sync.aligned.m8n8.x{}{}.b16", num, trans ? ".trans" : "");
    const Type *at = in->args[0]->type;
    llvm::Value *ptr = elementAddress(expr(in->args[0]), at, {expr(in->args[1]), expr(in->args[2])},
                                      false, false, in->loc);
    // (overloaded on the pointer: generic here, the shared window at run time)
    llvm::Function *fn = nvvmIntrinsic(name, {ptr->getType()});
    return tensorTuple(B.CreateCall(fn, {ptr}), in->type, unsigned(2 * num), at->dtype());
  }
  case IntrinsicId::CpAsync: {
    llvm::Value *dst, *src;
    cpAsyncAddresses(in, dst, src);
    int64_t n = cast<Const>(in->args[2])->i;
    std::string name =
        fmt::format("llvm.nvvm.cp.async.{}.shared.global.{}", n == 16 ? "cg" : "ca", n);
    llvm::Type *shared = llvm::PointerType::get(C, 3), *global = llvm::PointerType::get(C, 1);
    B.CreateCall(nvvmIntrinsic(name),
                 {B.CreateAddrSpaceCast(dst, shared), B.CreateAddrSpaceCast(src, global)});
    return zeroOf(in->type);
  }
  case IntrinsicId::CpAsyncCommit:
    B.CreateCall(nvvmIntrinsic("llvm.nvvm.cp.async.commit.group"), {});
    return zeroOf(in->type);
  case IntrinsicId::CpAsyncWait:
    B.CreateCall(nvvmIntrinsic("llvm.nvvm.cp.async.wait.group"),
                 {B.getInt32(int32_t(cast<Const>(in->args[0])->i))});
    return zeroOf(in->type);
  default: throw std::logic_error("internal error: not a tensor-core intrinsic");
  }
}

// The CPU device: d = a @ b + c of the warp, computed by the executor once
// all lanes have come (runtime/host/CpuMatrix.cpp): the lane passes the
// addresses of its operands (WmmaOperands) and gets its d.
llvm::Value *FunctionLowering::cpuMatrixProduct(const Intrinsic *in, WarpOp op) {
  auto spill = [&](llvm::Value *v, const char *name) {
    llvm::AllocaInst *slot = entryAlloca(v->getType(), name);
    B.CreateStore(v, slot);
    return slot;
  };
  llvm::Value *a = spill(expr(in->args[0]), "mma.a"), *b = spill(expr(in->args[1]), "mma.b"),
              *c = spill(expr(in->args[2]), "mma.c");
  llvm::Type *dt = P.lt(in->type);
  llvm::AllocaInst *d = entryAlloca(dt, "mma.d");
  bool bf = in->args[0]->type->elements()[0]->isBFloat16();
  cpuWarpCall(in, op, B.getInt32(-1), pointerRecord({a, b, c, d}, "mma.operands"),
              B.getInt32(int32_t(bf ? WmmaInputs::BFloat16 : WmmaInputs::Float16)));
  return B.CreateLoad(dt, d);
}

// cp_async's destination and source element addresses (generic pointers).
void FunctionLowering::cpAsyncAddresses(const Intrinsic *in, llvm::Value *&dst, llvm::Value *&src) {
  size_t nd = size_t(cast<Const>(in->args[3])->i);
  auto indices = [&](size_t from, size_t n) {
    std::vector<llvm::Value *> idx;
    for (size_t k = 0; k < n; ++k) idx.push_back(expr(in->args[from + k]));
    return idx;
  };
  const Type *dt = in->args[0]->type, *st = in->args[1]->type;
  dst = elementAddress(expr(in->args[0]), dt, indices(4, nd), false, P.cpuKernel, in->loc);
  src = elementAddress(expr(in->args[1]), st, indices(4 + nd, st->ndim()), false, P.cpuKernel,
                       in->loc);
}

// The CPU device: loads and stores are the lane's own (element j of lane l
// is element 8 l + j of the row-major 16x16 matrix); the product is the
// warp's, computed by the executor when all lanes have come
// (WarpOp::Mma, runtime/host/CpuMatrix.cpp).
llvm::Value *FunctionLowering::cpuWmmaIntrinsic(const Intrinsic *in, llvm::Value *lane) {
  // Element j's address for this lane: (row + p, col + q) or, for a
  // matrix stored by columns, (row + q, col + p).
  auto address = [&](size_t arrayArg, bool col, unsigned j) {
    const Type *at = in->args[arrayArg]->type;
    llvm::Value *desc = expr(in->args[arrayArg]);
    llvm::Value *idx =
        B.CreateAdd(B.CreateMul(B.CreateZExt(lane, B.getInt64Ty()), B.getInt64(8)), B.getInt64(j));
    llvm::Value *p = B.CreateLShr(idx, 4), *q = B.CreateAnd(idx, 15);
    if (col) std::swap(p, q);
    llvm::Value *r = B.CreateAdd(expr(in->args[arrayArg + 1]), p);
    llvm::Value *c = B.CreateAdd(expr(in->args[arrayArg + 2]), q);
    return elementAddress(desc, at, {r, c}, false, true, in->loc);
  };
  switch (in->id) {
  case IntrinsicId::WmmaLoad: {
    wmma::Fragment f = *wmma::fragmentOf(in->type);
    llvm::Type *et = P.lt(f.elem);
    llvm::Value *out = llvm::UndefValue::get(P.lt(in->type));
    unsigned n = wmma::elementsPerLane(f.use, f.elem);
    for (unsigned j = 0; j < 8; ++j) {
      llvm::Value *v = B.CreateLoad(et, address(0, f.colMajor, j));
      out = B.CreateInsertValue(out, v, {j});
      if (n == 16) out = B.CreateInsertValue(out, v, {j + 8});
    }
    return out;
  }
  case IntrinsicId::WmmaStore: {
    bool col = cast<Const>(in->args[4])->i != 0;
    llvm::Value *frag = expr(in->args[3]);
    for (unsigned j = 0; j < 8; ++j)
      B.CreateStore(B.CreateExtractValue(frag, {j}), address(0, col, j));
    return zeroOf(in->type);
  }
  case IntrinsicId::WmmaMma: return cpuMatrixProduct(in, WarpOp::Mma);
  case IntrinsicId::MmaSync: return cpuMatrixProduct(in, WarpOp::MmaSync);
  case IntrinsicId::Ldmatrix: {
    int64_t num = cast<Const>(in->args[3])->i;
    bool trans = cast<Const>(in->args[4])->i != 0;
    const Type *at = in->args[0]->type;
    llvm::Value *row = elementAddress(expr(in->args[0]), at, {expr(in->args[1]), expr(in->args[2])},
                                      false, true, in->loc);
    llvm::Type *outTy = P.lt(in->type);
    llvm::AllocaInst *out = entryAlloca(outTy, "ldmatrix.out");
    cpuWarpCall(in, WarpOp::Ldmatrix, B.getInt32(-1),
                pointerRecord({row, out}, "ldmatrix.operands"),
                B.getInt32(int32_t(num + (trans ? 8 : 0))));
    return B.CreateLoad(outTy, out);
  }
  case IntrinsicId::CpAsync: {  // done at once: a wait finds it complete
    llvm::Value *dst, *src;
    cpAsyncAddresses(in, dst, src);
    B.CreateMemCpy(dst, llvm::MaybeAlign(1), src, llvm::MaybeAlign(1),
                   uint64_t(cast<Const>(in->args[2])->i));
    return zeroOf(in->type);
  }
  case IntrinsicId::CpAsyncCommit:
  case IntrinsicId::CpAsyncWait: return zeroOf(in->type);
  default: throw std::logic_error("internal error: not a tensor-core intrinsic");
  }
}

}  // namespace kjit::lowering
