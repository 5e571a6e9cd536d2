// LoweringIntrinsics.cpp - intrinsics to LLVM IR: math functions, powers,
// print; the GPU ones are in LoweringCuda.cpp, the array ones in
// LoweringArrays.cpp.
#include <fmt/format.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/PatternMatch.h>

#include <limits>
#include <stdexcept>

#include "compiler/LoweringImpl.h"

namespace kjit {

using namespace ir;
using lowering::FunctionLowering;
using lowering::ProgramLowering;

namespace lowering {

// ---------------------------------------------------------------------------
// Intrinsics

// The C library's name of a math intrinsic (without the `f` of float32),
// or null: what libm and libdevice (`__nv_` + name) call it.
const char *cMathName(IntrinsicId id) {
  switch (id) {
  case IntrinsicId::Sqrt: return "sqrt";
  case IntrinsicId::Sin: return "sin";
  case IntrinsicId::Cos: return "cos";
  case IntrinsicId::Tan: return "tan";
  case IntrinsicId::Asin: return "asin";
  case IntrinsicId::Acos: return "acos";
  case IntrinsicId::Atan: return "atan";
  case IntrinsicId::Sinh: return "sinh";
  case IntrinsicId::Cosh: return "cosh";
  case IntrinsicId::Tanh: return "tanh";
  case IntrinsicId::Asinh: return "asinh";
  case IntrinsicId::Acosh: return "acosh";
  case IntrinsicId::Atanh: return "atanh";
  case IntrinsicId::Exp: return "exp";
  case IntrinsicId::Exp2: return "exp2";
  case IntrinsicId::Expm1: return "expm1";
  case IntrinsicId::Log: return "log";
  case IntrinsicId::Log2: return "log2";
  case IntrinsicId::Log10: return "log10";
  case IntrinsicId::Log1p: return "log1p";
  case IntrinsicId::Erf: return "erf";
  case IntrinsicId::Erfc: return "erfc";
  case IntrinsicId::Gamma: return "tgamma";
  case IntrinsicId::Lgamma: return "lgamma";
  case IntrinsicId::Cbrt: return "cbrt";
  case IntrinsicId::Atan2: return "atan2";
  case IntrinsicId::Pow: return "pow";
  case IntrinsicId::Hypot: return "hypot";
  case IntrinsicId::Fmod: return "fmod";
  case IntrinsicId::Remainder: return "remainder";
  case IntrinsicId::Nextafter: return "nextafter";
  default: return nullptr;
  }
}

llvm::Value *FunctionLowering::mathCall(IntrinsicId id, std::vector<llvm::Value *> args,
                                        const Type *t) {
  llvm::Type *ft = P.lt(t);
  bool f32 = t->bits() == 32;
  if (P.amdgpu) {
    std::string name = ocmlName(id, t->bits(), F.fastmath);
    if (!name.empty()) {
      std::vector<llvm::Type *> params(args.size(), ft);
      return B.CreateCall(P.M.getOrInsertFunction(name, llvm::FunctionType::get(ft, params, false)),
                          args);
    }
  } else if (P.cuda) {
    std::string nv = libdeviceName(id, f32);
    // fastmath: libdevice's approximate float32 functions (sin.approx ...).
    static const char *const fast[] = {"__nv_sinf",  "__nv_cosf",   "__nv_tanf",
                                       "__nv_expf",  "__nv_exp10f", "__nv_logf",
                                       "__nv_log2f", "__nv_log10f", "__nv_powf"};
    if (F.fastmath && f32)
      for (const char *name : fast)
        if (nv == name) nv = "__nv_fast_" + nv.substr(5);
    if (!nv.empty()) {
      std::vector<llvm::Type *> params(args.size(), ft);
      return B.CreateCall(P.M.getOrInsertFunction(nv, llvm::FunctionType::get(ft, params, false)),
                          args);
    }
  }
  auto llvmIntrinsic = [&](llvm::Intrinsic::ID iid) { return B.CreateIntrinsic(iid, {ft}, args); };
  switch (id) {
  case IntrinsicId::Sqrt: return llvmIntrinsic(llvm::Intrinsic::sqrt);
  case IntrinsicId::Sin: return llvmIntrinsic(llvm::Intrinsic::sin);
  case IntrinsicId::Cos: return llvmIntrinsic(llvm::Intrinsic::cos);
  case IntrinsicId::Exp: return llvmIntrinsic(llvm::Intrinsic::exp);
  case IntrinsicId::Exp2: return llvmIntrinsic(llvm::Intrinsic::exp2);
  case IntrinsicId::Log: return llvmIntrinsic(llvm::Intrinsic::log);
  case IntrinsicId::Log2: return llvmIntrinsic(llvm::Intrinsic::log2);
  case IntrinsicId::Log10: return llvmIntrinsic(llvm::Intrinsic::log10);
  case IntrinsicId::Fabs:
    if (P.cuda && !P.amdgpu && ft->isHalfTy()) {
      // abs.f16 in one instruction (NVPTX would go through float32).
      auto *asmTy = llvm::FunctionType::get(B.getInt16Ty(), {B.getInt16Ty()}, false);
      llvm::Value *bits = B.CreateBitCast(args[0], B.getInt16Ty());
      llvm::Value *r =
          B.CreateCall(llvm::InlineAsm::get(asmTy, "abs.f16 $0, $1;", "=h,h", false), {bits});
      return B.CreateBitCast(r, ft);
    }
    return llvmIntrinsic(llvm::Intrinsic::fabs);
  case IntrinsicId::Floor: return llvmIntrinsic(llvm::Intrinsic::floor);
  case IntrinsicId::Ceil: return llvmIntrinsic(llvm::Intrinsic::ceil);
  case IntrinsicId::Trunc: return llvmIntrinsic(llvm::Intrinsic::trunc);
  case IntrinsicId::Rint: return llvmIntrinsic(llvm::Intrinsic::rint);
  case IntrinsicId::Pow: return llvmIntrinsic(llvm::Intrinsic::pow);
  case IntrinsicId::PowI: return floatPowInt(args[0], args[1]);
  case IntrinsicId::Copysign: return llvmIntrinsic(llvm::Intrinsic::copysign);
  case IntrinsicId::Fma: return llvmIntrinsic(llvm::Intrinsic::fma);
  case IntrinsicId::Fmod: return B.CreateFRem(args[0], args[1]);
  default: break;
  }
  // libm by name (the `f` variant for float32).
  const char *base = cMathName(id);
  if (!base)  // a compiler bug: an intrinsic no lowering handles (never a silent value)
    throw std::logic_error(fmt::format("internal error: kjit has no lowering for intrinsic '{}'",
                                       ir::intrinsicName(id)));
  std::string name = std::string(base) + (f32 ? "f" : "");
  std::vector<llvm::Type *> params(args.size(), ft);
  llvm::FunctionCallee fn =
      P.M.getOrInsertFunction(name, llvm::FunctionType::get(ft, params, false));
  if (auto *f = llvm::dyn_cast<llvm::Function>(fn.getCallee())) {
    f->setDoesNotThrow();
    f->setOnlyAccessesArgMemory();
  }
  return B.CreateCall(fn, args);
}

// complex ** complex as Numba: a ** 2 exactly as a * a, else CPython's
// _Py_c_pow in the parts' width: 1 for b == 0, 0 for a == 0 (NaN where
// Python raises ZeroDivisionError: b not real or negative), else
// |a| ** b.real / e ** (arg(a) b.imag) at the phase arg(a) b.real +
// b.imag log|a|.
llvm::Value *FunctionLowering::complexPow(llvm::Value *a, llvm::Value *b, const Type *t) {
  const Type *pt = t->complexPart();
  llvm::Type *ft = P.lt(pt);
  auto cst = [&](double v) { return llvm::ConstantFP::get(ft, v); };
  llvm::Value *ar = B.CreateExtractValue(a, {0}), *ai = B.CreateExtractValue(a, {1});
  llvm::Value *br = B.CreateExtractValue(b, {0}), *bi = B.CreateExtractValue(b, {1});
  llvm::Value *vabs = mathCall(IntrinsicId::Hypot, {ar, ai}, pt);
  llvm::Value *len = mathCall(IntrinsicId::Pow, {vabs, br}, pt);
  llvm::Value *at = mathCall(IntrinsicId::Atan2, {ai, ar}, pt);
  llvm::Value *phase = B.CreateFMul(at, br);
  llvm::Value *biNonZero = B.CreateFCmpUNE(bi, cst(0));
  len = B.CreateSelect(
      biNonZero, B.CreateFDiv(len, mathCall(IntrinsicId::Exp, {B.CreateFMul(at, bi)}, pt)), len);
  phase = B.CreateSelect(
      biNonZero, B.CreateFAdd(phase, B.CreateFMul(bi, mathCall(IntrinsicId::Log, {vabs}, pt))),
      phase);
  llvm::Value *rr = B.CreateFMul(len, mathCall(IntrinsicId::Cos, {phase}, pt));
  llvm::Value *ri = B.CreateFMul(len, mathCall(IntrinsicId::Sin, {phase}, pt));
  // a == 0
  llvm::Value *aZero = B.CreateAnd(B.CreateFCmpOEQ(ar, cst(0)), B.CreateFCmpOEQ(ai, cst(0)));
  llvm::Value *domain = B.CreateOr(biNonZero, B.CreateFCmpOLT(br, cst(0)));
  llvm::Value *zr = B.CreateSelect(domain, cst(std::numeric_limits<double>::quiet_NaN()), cst(0));
  rr = B.CreateSelect(aZero, zr, rr);
  ri = B.CreateSelect(aZero, zr, ri);
  // b == 0
  llvm::Value *bZero = B.CreateAnd(B.CreateFCmpOEQ(br, cst(0)), B.CreateFCmpOEQ(bi, cst(0)));
  rr = B.CreateSelect(bZero, cst(1), rr);
  ri = B.CreateSelect(bZero, cst(0), ri);
  // b == 2
  llvm::Value *bTwo = B.CreateAnd(B.CreateFCmpOEQ(br, cst(2)), B.CreateFCmpOEQ(bi, cst(0)));
  rr = B.CreateSelect(bTwo, B.CreateFSub(B.CreateFMul(ar, ar), B.CreateFMul(ai, ai)), rr);
  ri = B.CreateSelect(bTwo, B.CreateFAdd(B.CreateFMul(ar, ai), B.CreateFMul(ai, ar)), ri);
  llvm::Value *r = llvm::UndefValue::get(P.lt(t));
  r = B.CreateInsertValue(r, rr, {0});
  return B.CreateInsertValue(r, ri, {1});
}

llvm::Value *FunctionLowering::intPow(llvm::Value *a, llvm::Value *b, const Type *t,
                                      SourceLoc loc) {
  llvm::Type *it = a->getType();
  llvm::Value *zero = llvm::ConstantInt::get(it, 0), *one = llvm::ConstantInt::get(it, 1);
  llvm::BasicBlock *from = B.GetInsertBlock();
  llvm::BasicBlock *negBB = block("ipow.neg"), *loopBB = block("ipow.loop"),
                   *done = block("ipow.done");
  llvm::Value *negExp = t->isSigned() ? B.CreateICmpSLT(b, zero) : B.getFalse();
  B.CreateCondBr(negExp, negBB, loopBB);
  // Negative exponent, as Numba: 0 raises, 1 and -1 keep magnitude 1, else 0.
  B.SetInsertPoint(negBB);
  raiseIf(B.CreateICmpEQ(a, zero), "ZeroDivisionError", "0 cannot be raised to a negative power",
          loc);
  llvm::Value *isOne = B.CreateICmpEQ(a, one);
  llvm::Value *isMinusOne = B.CreateICmpEQ(a, llvm::ConstantInt::getSigned(it, -1));
  llvm::Value *odd = B.CreateICmpNE(B.CreateAnd(b, one), zero);
  llvm::Value *negResult = B.CreateSelect(
      isOne, one,
      B.CreateSelect(isMinusOne, B.CreateSelect(odd, llvm::ConstantInt::getSigned(it, -1), one),
                     zero));
  llvm::BasicBlock *negEnd = B.GetInsertBlock();
  B.CreateBr(done);
  // Exponentiation by squaring.
  B.SetInsertPoint(loopBB);
  llvm::PHINode *acc = B.CreatePHI(it, 2), *base = B.CreatePHI(it, 2), *e = B.CreatePHI(it, 2);
  acc->addIncoming(one, from);
  base->addIncoming(a, from);
  e->addIncoming(b, from);
  llvm::Value *bit = B.CreateICmpNE(B.CreateAnd(e, one), zero);
  llvm::Value *acc2 = B.CreateSelect(bit, B.CreateMul(acc, base), acc);
  llvm::Value *e2 = B.CreateLShr(e, one);
  llvm::Value *base2 = B.CreateMul(base, base);
  acc->addIncoming(acc2, loopBB);
  base->addIncoming(base2, loopBB);
  e->addIncoming(e2, loopBB);
  B.CreateCondBr(B.CreateICmpEQ(e2, zero), done, loopBB);
  B.SetInsertPoint(done);
  llvm::PHINode *r = B.CreatePHI(it, 2);
  r->addIncoming(negResult, negEnd);
  r->addIncoming(acc2, loopBB);
  // b == 0 never enters the loop's multiply in effect: acc starts at 1 and
  // the first iteration with e == 0 leaves it 1.
  return r;
}

// float ** int64 by squaring, as Numba: no library call (none exists on the
// GPU, and LLVM's powi becomes one), and constant exponents fold.
llvm::Value *FunctionLowering::floatPowInt(llvm::Value *a, llvm::Value *b) {
  llvm::Type *ft = a->getType();
  llvm::Value *one = llvm::ConstantFP::get(ft, 1.0);
  llvm::Value *neg = B.CreateICmpSLT(b, i64(0));
  llvm::Value *e0 = B.CreateSelect(neg, B.CreateNeg(b), b);  // as unsigned: |INT64_MIN| fits
  llvm::BasicBlock *pre = B.GetInsertBlock(), *loop = block("powi.loop"),
                   *done = block("powi.done");
  B.CreateCondBr(B.CreateICmpEQ(e0, i64(0)), done, loop);
  B.SetInsertPoint(loop);
  llvm::PHINode *acc = B.CreatePHI(ft, 2), *base = B.CreatePHI(ft, 2),
                *e = B.CreatePHI(B.getInt64Ty(), 2);
  acc->addIncoming(one, pre);
  base->addIncoming(a, pre);
  e->addIncoming(e0, pre);
  llvm::Value *bit = B.CreateICmpNE(B.CreateAnd(e, i64(1)), i64(0));
  llvm::Value *acc2 = B.CreateSelect(bit, B.CreateFMul(acc, base), acc);
  llvm::Value *e2 = B.CreateLShr(e, i64(1));
  acc->addIncoming(acc2, loop);
  base->addIncoming(B.CreateFMul(base, base), loop);
  e->addIncoming(e2, loop);
  B.CreateCondBr(B.CreateICmpEQ(e2, i64(0)), done, loop);
  B.SetInsertPoint(done);
  llvm::PHINode *r = B.CreatePHI(ft, 2);
  r->addIncoming(one, pre);
  r->addIncoming(acc2, loop);
  return B.CreateSelect(neg, B.CreateFDiv(one, r), r);
}

void FunctionLowering::print(const Intrinsic *in) {
  if (P.cpuKernel) P.cpuConstBytes += int64_t(vprintfFormat(in).size()) + 1;  // as on a GPU
  if (P.cpuKernel && printfValueCount(in) > kMaxPrintfValues) {
    // As a GPU's vprintf: the raw format (without its newline; print_end adds it).
    std::string raw = vprintfFormat(in);
    raw.pop_back();
    B.CreateCall(P.runtime("kjit_rt_print_str"), {P.cstr(raw)});
    B.CreateCall(P.runtime("kjit_rt_print_end"), {});
    return;
  }
  for (size_t i = 0; i < in->args.size(); ++i) {
    const Expr *a = in->args[i];
    if (printSpaceBefore(in, i)) B.CreateCall(P.runtime("kjit_rt_print_str"), {P.cstr(" ")});
    const Type *t = a->type;
    if (t->kind() == TypeKind::StringLit) {
      B.CreateCall(P.runtime("kjit_rt_print_str"), {P.cstr(t->symbol())});
    } else if (t->isNone()) {
      B.CreateCall(P.runtime("kjit_rt_print_str"), {P.cstr("None")});
    } else if (t->isString()) {
      B.CreateCall(P.runtime("kjit_rt_print_codes"), {expr(a)});
    } else if (t->isBool()) {
      B.CreateCall(P.runtime("kjit_rt_print_bool"), {B.CreateZExt(expr(a), B.getInt32Ty())});
    } else if (t->isInt()) {
      llvm::Value *v = expr(a);
      v = t->isSigned() ? B.CreateSExt(v, B.getInt64Ty()) : B.CreateZExt(v, B.getInt64Ty());
      B.CreateCall(P.runtime(t->isSigned() ? "kjit_rt_print_i64" : "kjit_rt_print_u64"), {v});
    } else if (t->isFloat()) {
      B.CreateCall(P.runtime("kjit_rt_print_f64"), {B.CreateFPExt(expr(a), B.getDoubleTy())});
    } else if (t->isComplex()) {
      llvm::Value *v = expr(a);
      B.CreateCall(P.runtime("kjit_rt_print_complex"),
                   {B.CreateFPExt(B.CreateExtractValue(v, {0}), B.getDoubleTy()),
                    B.CreateFPExt(B.CreateExtractValue(v, {1}), B.getDoubleTy())});
    }
  }
  B.CreateCall(P.runtime("kjit_rt_print_end"), {});
}

// A function of cuda.declare_device (Intrinsics.def: ExternCall), declared
// in the module for the driver's linker to resolve; Numba's ABI returns a
// status (ignored, as a declared function cannot raise in kjit) and writes the
// result through its first argument.
llvm::Value *FunctionLowering::externCall(const Intrinsic *in) {
  const Type *t = in->type;
  size_t colon = in->text.find(':');
  bool numbaAbi = in->text.compare(0, colon, "numba") == 0;
  std::string name = in->text.substr(colon + 1);
  if (!P.cuda) {
    emitRaise("TypeError",
              fmt::format("the kernel calls '{}', a device function of cuda.declare_device: "
                          "external CUDA code runs only on a GPU, not on the CPU device",
                          name),
              in->loc, /*always=*/true);
    startDeadBlock();
    return zeroOf(t);
  }
  std::vector<llvm::Type *> params;
  std::vector<llvm::Value *> args;
  llvm::Type *ret = t->isNone() ? B.getInt8Ty() : P.memTy(t);
  llvm::AllocaInst *slot = nullptr;
  if (numbaAbi) {
    slot = entryAlloca(ret, "extern.ret");
    params.push_back(slot->getType());
    args.push_back(slot);
  }
  for (const Expr *a : in->args) {
    llvm::Value *v = expr(a);
    if (a->type->isBool()) v = B.CreateZExt(v, B.getInt8Ty());
    params.push_back(v->getType());
    args.push_back(v);
  }
  llvm::Type *fnRet = numbaAbi ? B.getInt32Ty() : t->isNone() ? B.getVoidTy() : ret;
  llvm::FunctionCallee fn =
      P.M.getOrInsertFunction(name, llvm::FunctionType::get(fnRet, params, false));
  llvm::Value *r = B.CreateCall(fn, args);
  if (t->isNone()) return zeroOf(t);
  if (numbaAbi) r = B.CreateLoad(ret, slot);
  if (t->isBool()) r = B.CreateICmpNE(r, llvm::ConstantInt::get(r->getType(), 0));
  return r;
}

llvm::Value *FunctionLowering::intrinsic(const Intrinsic *in) {
  const Type *t = in->type;
  if (in->id >= IntrinsicId::WmmaLoad && in->id <= IntrinsicId::CpAsyncWait)
    return P.cpuKernel ? cpuKernelIntrinsic(in) : wmmaIntrinsic(in);
  if (in->id >= IntrinsicId::MbarrierInit && in->id <= IntrinsicId::Setmaxnreg)
    return P.cpuKernel ? cpuHopperIntrinsic(in) : hopperIntrinsic(in);
  if (in->id >= IntrinsicId::ThreadIdx && in->id <= IntrinsicId::Ffs) {
    if (P.cpuKernel)
      if (llvm::Value *v = cpuKernelIntrinsic(in)) return v;
    return cudaIntrinsic(in);
  }
  if (isArrayReduction(in->id)) return arrayIntrinsic(in);
  switch (in->id) {
  case IntrinsicId::Print:
    if (P.cuda)
      cudaPrint(in);
    else
      print(in);
    return zeroOf(t);
  case IntrinsicId::ExternCall: return externCall(in);
  case IntrinsicId::TupleSetitem: {
    llvm::Value *tv = expr(in->args[0]), *v = expr(in->args[2]);
    if (auto *k = dyn_cast<Const>(in->args[1])) return B.CreateInsertValue(tv, v, {unsigned(k->i)});
    // A run-time index (one element type): through a stack slot, which
    // LLVM turns back into registers once the index is known.
    auto n = unsigned(in->args[0]->type->elements().size());
    llvm::Value *i = tupleIndex(expr(in->args[1]), n, in->loc);
    llvm::AllocaInst *slots = spillTuple(tv, v->getType(), n, "tuple.set");
    llvm::Type *arr = slots->getAllocatedType();
    B.CreateStore(v, B.CreateInBoundsGEP(arr, slots, {i64(0), i}));
    llvm::Value *r = llvm::UndefValue::get(tv->getType());
    for (unsigned k = 0; k < n; ++k)
      r = B.CreateInsertValue(
          r, B.CreateLoad(v->getType(), B.CreateConstInBoundsGEP2_32(arr, slots, 0, k)), {k});
    return r;
  }
  case IntrinsicId::IntPow: return intPow(expr(in->args[0]), expr(in->args[1]), t, in->loc);
  case IntrinsicId::PowI: {
    llvm::Value *a = expr(in->args[0]), *b = expr(in->args[1]);
    // Numba's float ** int: a zero base with a negative exponent raises
    // (Python's error model; float ** float gives inf, as Numba's).
    if (!numpyErrors())
      raiseIf(B.CreateAnd(B.CreateFCmpOEQ(a, llvm::ConstantFP::get(a->getType(), 0.0)),
                          B.CreateICmpSLT(b, i64(0))),
              "ZeroDivisionError", "division by zero", in->loc);
    return floatPowInt(a, b);
  }
  case IntrinsicId::IsNan: {
    llvm::Value *v = expr(in->args[0]);
    return B.CreateFCmpUNO(v, v);
  }
  case IntrinsicId::IsInf: {
    llvm::Value *v = B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, expr(in->args[0]));
    return B.CreateFCmpOEQ(v, llvm::ConstantFP::getInfinity(v->getType()));
  }
  case IntrinsicId::IsFinite: {
    llvm::Value *v = B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, expr(in->args[0]));
    return B.CreateFCmpOLT(v, llvm::ConstantFP::getInfinity(v->getType()));
  }
  case IntrinsicId::Abs: {
    const Type *at = in->args[0]->type;
    llvm::Value *v = expr(in->args[0]);
    if (at->isComplex())
      return mathCall(IntrinsicId::Hypot,
                      {B.CreateExtractValue(v, {0}), B.CreateExtractValue(v, {1})}, t);
    if (at->isFloat()) return mathCall(IntrinsicId::Fabs, {v}, at);
    if (!at->isSigned()) return v;
    return B.CreateSelect(B.CreateICmpSLT(v, llvm::ConstantInt::get(v->getType(), 0)),
                          B.CreateNeg(v), v);
  }
  case IntrinsicId::Ldexp: {
    llvm::Value *x = expr(in->args[0]), *e = expr(in->args[1]);
    if (!P.cuda || P.amdgpu)
      return B.CreateIntrinsic(llvm::Intrinsic::ldexp, {x->getType(), e->getType()}, {x, e});
    std::string nv = t->bits() == 32 ? "__nv_ldexpf" : "__nv_ldexp";
    return B.CreateCall(
        P.M.getOrInsertFunction(
            nv, llvm::FunctionType::get(x->getType(), {x->getType(), e->getType()}, false)),
        {x, e});
  }
  case IntrinsicId::Frexp: {
    // Python's frexp: (x, 0) for an infinity or a NaN.
    llvm::Value *x = expr(in->args[0]), *m, *e;
    llvm::Type *ft = x->getType(), *i32 = B.getInt32Ty();
    if (!P.cuda || P.amdgpu) {
      llvm::Value *r = B.CreateIntrinsic(llvm::Intrinsic::frexp, {ft, i32}, {x});
      m = B.CreateExtractValue(r, {0});
      e = B.CreateExtractValue(r, {1});
    } else {
      llvm::Value *slot = entryAlloca(i32, "frexp.exp");
      std::string nv = ft->isFloatTy() ? "__nv_frexpf" : "__nv_frexp";
      m = B.CreateCall(
          P.M.getOrInsertFunction(nv, llvm::FunctionType::get(ft, {ft, B.getPtrTy()}, false)),
          {x, slot});
      e = B.CreateLoad(i32, slot);
    }
    llvm::Value *finite = B.CreateFCmpOLT(B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x),
                                          llvm::ConstantFP::getInfinity(ft));
    m = B.CreateSelect(finite, m, x);
    e = B.CreateSelect(finite, e, B.getInt32(0));
    llvm::Value *r = llvm::UndefValue::get(P.lt(t));
    r = B.CreateInsertValue(r, m, {0});
    return B.CreateInsertValue(r, e, {1});
  }
  case IntrinsicId::Min:
  case IntrinsicId::Max: {
    // Python's min/max: the first argument unless the second is strictly
    // smaller (larger), so NaN handling follows the argument order.
    llvm::Value *a = expr(in->args[0]), *b = expr(in->args[1]);
    bool isMax = in->id == IntrinsicId::Max;
    llvm::Value *better;
    if (t->isFloat())
      better = isMax ? B.CreateFCmpOGT(b, a) : B.CreateFCmpOLT(b, a);
    else if (t->isInt() && t->isSigned())
      better = isMax ? B.CreateICmpSGT(b, a) : B.CreateICmpSLT(b, a);
    else
      better = isMax ? B.CreateICmpUGT(b, a) : B.CreateICmpULT(b, a);
    return B.CreateSelect(better, b, a);
  }
  case IntrinsicId::ComplexMake: {
    llvm::Value *r = llvm::UndefValue::get(P.lt(t));
    r = B.CreateInsertValue(r, convert(expr(in->args[0]), in->args[0]->type, t->complexPart()),
                            {0});
    return B.CreateInsertValue(r, convert(expr(in->args[1]), in->args[1]->type, t->complexPart()),
                               {1});
  }
  case IntrinsicId::ComplexPow: return complexPow(expr(in->args[0]), expr(in->args[1]), t);
  case IntrinsicId::Real: return B.CreateExtractValue(expr(in->args[0]), {0});
  case IntrinsicId::Imag: return B.CreateExtractValue(expr(in->args[0]), {1});
  case IntrinsicId::ArrayShape:
  case IntrinsicId::ArrayStride:
  case IntrinsicId::ArrayAlloc:
  case IntrinsicId::ArrayTranspose:
  case IntrinsicId::ArrayReshape:
  case IntrinsicId::ArrayPart:
  case IntrinsicId::ArrayViewAs:
  case IntrinsicId::ArrayFill:
  case IntrinsicId::ArrayArange:
  case IntrinsicId::ArrayCopy:
  case IntrinsicId::ArrayUnaliased:
  case IntrinsicId::ArrayLiteral: return arrayIntrinsic(in);
  case IntrinsicId::RandomSeed:
    B.CreateCall(P.runtime("kjit_rt_random_seed"), {expr(in->args[0])});
    return zeroOf(t);
  case IntrinsicId::Lapack: {
    llvm::Value *a = expr(in->args[1]), *piv = expr(in->args[2]), *b = expr(in->args[3]);
    return B.CreateCall(P.runtime("kjit_rt_lapack"),
                        {expr(in->args[0]), dataOf(a), shapeOf(a, 0), dataOf(piv), dataOf(b),
                         shapeOf(b, 0), shapeOf(a, 1)});
  }
  case IntrinsicId::Gemm: {
    llvm::Value *a = expr(in->args[0]), *b = expr(in->args[1]), *c = expr(in->args[2]);
    return B.CreateCall(P.runtime("kjit_rt_gemm"), {dataOf(a), dataOf(b), dataOf(c), shapeOf(a, 0),
                                                    shapeOf(a, 1), shapeOf(b, 1)});
  }
  case IntrinsicId::RandomBits: return B.CreateCall(P.runtime("kjit_rt_random_u32"), {});
  case IntrinsicId::RandomDouble: return B.CreateCall(P.runtime("kjit_rt_random_double"), {});
  case IntrinsicId::RandomGauss: return B.CreateCall(P.runtime("kjit_rt_random_gauss"), {});
  case IntrinsicId::RecordGet:
  case IntrinsicId::RecordSet:
  case IntrinsicId::RecordArrayField: return recordIntrinsic(in);
  case IntrinsicId::ExcMatches:
    return B.CreateICmpNE(
        B.CreateCall(P.runtime("kjit_rt_exc_matches"), {ctxPtr, P.cstr(in->text)}), B.getInt32(0));
  case IntrinsicId::ExcClear:
    B.CreateCall(P.runtime("kjit_rt_exc_clear"), {ctxPtr});
    return zeroOf(t);
  case IntrinsicId::ExcReraise:
    propagate(B.getInt32(1));
    startDeadBlock();
    return zeroOf(t);
  case IntrinsicId::DictParts: return expr(in->args[0]);  // (the same four pointers)
  case IntrinsicId::DictMake: {
    llvm::Value *r = llvm::UndefValue::get(P.lt(t));
    for (unsigned i = 0; i < 4; ++i) r = B.CreateInsertValue(r, expr(in->args[i]), {i});
    return r;
  }
  case IntrinsicId::OptionalValid: return B.CreateExtractValue(expr(in->args[0]), {1u});
  case IntrinsicId::ListNew:
  case IntrinsicId::ListLen:
  case IntrinsicId::ListGet:
  case IntrinsicId::ListSet:
  case IntrinsicId::ListSetField:
  case IntrinsicId::ListResize:
  case IntrinsicId::StrConst: return listIntrinsic(in);
  default: break;
  }
  std::vector<llvm::Value *> args;
  for (const Expr *a : in->args) args.push_back(expr(a));
  return mathCall(in->id, args, t);
}

}  // namespace lowering

}  // namespace kjit
