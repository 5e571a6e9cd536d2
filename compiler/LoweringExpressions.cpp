// LoweringExpressions.cpp - typed-IR expressions to LLVM IR: constants,
// conversions, operators, and/or, select, calls. Intrinsics are in
// LoweringIntrinsics.cpp, arrays in LoweringArrays.cpp.
#include <fmt/format.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/PatternMatch.h>

#include "compiler/LoweringImpl.h"
#include "frontend/support/BFloat16.h"

namespace kjit {

using namespace ir;
using lowering::FunctionLowering;
using lowering::ProgramLowering;

namespace lowering {

// ---------------------------------------------------------------------------
// Expressions

llvm::Value *FunctionLowering::expr(const Expr *e) {
  if (isa<VarRef>(e) || isa<Const>(e)) return exprUncached(e);
  auto it = memo.find(e);
  if (it != memo.end()) return it->second;
  llvm::Value *v = exprUncached(e);
  memo[e] = v;
  if (!memoScopes.empty()) memoScopes.back().push_back(e);
  return v;
}

llvm::Value *FunctionLowering::constant(const Const *c) {
  const Type *t = c->type;
  if (t->isArray() && c->bytes) {
    // A frozen global array: its bytes in a constant global.
    auto *init = llvm::ConstantDataArray::getRaw(*c->bytes, c->bytes->size(), B.getInt8Ty());
    // On the GPU in constant memory (address space 4), read through ld.const.
    auto *gv = new llvm::GlobalVariable(P.M, init->getType(), true,
                                        llvm::GlobalValue::PrivateLinkage, init, "const_array",
                                        nullptr, llvm::GlobalValue::NotThreadLocal, P.cuda ? 4 : 0);
    gv->setAlignment(llvm::Align(64));
    if (P.cpuKernel) P.cpuConstBytes += int64_t(c->bytes->size());  // a GPU's constant memory
    llvm::Value *desc = llvm::Constant::getNullValue(P.lt(t));
    desc = B.CreateInsertValue(desc,
                               P.cuda ? B.CreateAddrSpaceCast(gv, llvm::PointerType::getUnqual(C))
                                      : static_cast<llvm::Value *>(gv),
                               {1u});
    int64_t stride = itemSize(t->dtype());
    for (unsigned k = unsigned(c->shape.size()); k-- > 0;) {
      desc = B.CreateInsertValue(desc, i64(c->shape[k]), {2u, k});
      desc = B.CreateInsertValue(desc, i64(stride), {3u, k});
      stride *= c->shape[k];
    }
    return desc;
  }
  if (t->isArray()) {
    // A device array captured by reference: its address, shape and strides.
    llvm::Value *desc = llvm::Constant::getNullValue(P.lt(t));
    desc = B.CreateInsertValue(desc, B.CreateIntToPtr(i64(c->i), llvm::PointerType::getUnqual(C)),
                               {1u});
    for (unsigned k = 0; k < unsigned(c->shape.size()); ++k) {
      desc = B.CreateInsertValue(desc, i64(c->shape[k]), {2u, k});
      desc = B.CreateInsertValue(desc, i64(c->strides[k]), {3u, k});
    }
    return desc;
  }
  if (t->isBool()) return B.getInt1(c->i != 0);
  if (t->isInt()) return B.getIntN(t->bits(), uint64_t(c->i));
  if (t->isFloat8()) return B.getInt8(fp8::fromDouble(c->f, t->isE5M2()));  // its bits
  if (t->isFloat()) return llvm::ConstantFP::get(P.lt(t), c->f);
  if (t->isComplex()) {
    llvm::Type *p = P.lt(t->complexPart());
    return llvm::ConstantStruct::get(
        llvm::cast<llvm::StructType>(P.lt(t)),
        {llvm::ConstantFP::get(p, c->f), llvm::ConstantFP::get(p, c->im)});
  }
  return llvm::Constant::getNullValue(P.lt(t));
}

llvm::Value *FunctionLowering::truthOf(llvm::Value *v, const Type *from) {
  if (from->isBool()) return v;
  if (from->isFloat8()) v = float8ToFloat(v, from->isE5M2());
  if (from->isFloat()) return B.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));
  if (from->isComplex()) {
    llvm::Value *z = llvm::ConstantFP::get(P.lt(from->complexPart()), 0.0);
    return B.CreateOr(B.CreateFCmpUNE(B.CreateExtractValue(v, {0}), z),
                      B.CreateFCmpUNE(B.CreateExtractValue(v, {1}), z));
  }
  return B.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
}

// Casts to and from OptionalType(T): None is { zero, false }, a value
// { value, true }; reading the value of None raises Numba's TypeError.
llvm::Value *FunctionLowering::optionalCast(const Cast *c) {
  const Type *from = c->value->type, *to = c->type;
  llvm::Value *v = expr(c->value);
  if (to->isOptional()) {
    llvm::Value *r = llvm::UndefValue::get(P.lt(to));
    if (from->isNone()) {
      r = B.CreateInsertValue(r, zeroOf(to->dtype()), {0u});
      return B.CreateInsertValue(r, B.getFalse(), {1u});
    }
    llvm::Value *valid = B.getTrue();
    if (from->isOptional()) {
      valid = B.CreateExtractValue(v, {1u});
      v = B.CreateExtractValue(v, {0u});
      from = from->dtype();
    }
    r = B.CreateInsertValue(r, convert(v, from, to->dtype()), {0u});
    return B.CreateInsertValue(r, valid, {1u});
  }
  raiseIf(B.CreateNot(B.CreateExtractValue(v, {1u})), "TypeError",
          fmt::format("expected {}, got None", from->dtype()->str()), c->loc);
  return convert(B.CreateExtractValue(v, {0u}), from->dtype(), to);
}

// float64 -> float32 rounding to odd: exact values as they are, others
// truncated towards zero with the last bit set. Rounding that to bfloat16
// then gives float64 -> bfloat16 rounded once (GPUs before sm_90 have no
// such conversion, and LLVM would round twice through float32).
llvm::Value *FunctionLowering::roundToOddFloat(llvm::Value *d) {
  llvm::Value *f = B.CreateFPTrunc(d, B.getFloatTy());
  llvm::Value *back = B.CreateFPExt(f, B.getDoubleTy());
  llvm::Value *inexact = B.CreateFCmpONE(back, d);
  llvm::Value *away = B.CreateFCmpOGT(B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, back),
                                      B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, d));
  llvm::Value *bits = B.CreateBitCast(f, B.getInt32Ty());
  llvm::Value *towardZero = B.CreateSelect(away, B.CreateSub(bits, B.getInt32(1)), bits);
  llvm::Value *odd = B.CreateOr(towardZero, B.getInt32(1));
  return B.CreateBitCast(B.CreateSelect(inexact, odd, bits), B.getFloatTy());
}

// ---- 8-bit floats: their bits (i8), converted through float32 with integer
// and float32 operations that every target has (docs/types.md).

// float8_e4m3fn or float8_e5m2 bits -> float32, exactly.
llvm::Value *FunctionLowering::float8ToFloat(llvm::Value *b8, bool e5m2) {
  llvm::Type *i32 = B.getInt32Ty(), *f32 = B.getFloatTy();
  const unsigned man = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  llvm::Value *b = B.CreateZExt(b8, i32);
  llvm::Value *sign = B.CreateShl(B.CreateAnd(b, 0x80), 24);
  llvm::Value *e = B.CreateAnd(B.CreateLShr(b, man), (1u << (7 - man)) - 1);
  llvm::Value *m = B.CreateAnd(b, (1u << man) - 1);
  llvm::Value *normal =
      B.CreateOr(sign, B.CreateOr(B.CreateShl(B.CreateAdd(e, B.getInt32(127 - bias)), 23),
                                  B.CreateShl(m, 23 - man)));
  // subnormals: m * 2**(1 - bias - man)
  llvm::Value *sub = B.CreateFMul(B.CreateUIToFP(m, f32),
                                  llvm::ConstantFP::get(f32, std::ldexp(1.0, 1 - int(bias + man))));
  sub = B.CreateOr(B.CreateBitCast(sub, i32), sign);
  llvm::Value *special =
      e5m2 ? B.CreateICmpEQ(e, B.getInt32(31))  // inf, NaN: float32's, the fraction kept
           : B.CreateICmpEQ(B.CreateAnd(b, 0x7f), B.getInt32(0x7f));  // e4m3fn: NaN only
  llvm::Value *specialBits =
      e5m2 ? B.CreateOr(B.CreateOr(sign, B.getInt32(0x7f800000)), B.CreateShl(m, 21))
           : B.CreateOr(sign, B.getInt32(0x7fc00000));
  llvm::Value *r = B.CreateSelect(B.CreateICmpEQ(e, B.getInt32(0)), sub, normal);
  return B.CreateBitCast(B.CreateSelect(special, specialBits, r), f32);
}

// float32 -> float8 bits, to nearest even, saturating to the largest finite
// value as PTX's cvt.rn.satfinite does (infinities too); NaN -> 0x7f.
llvm::Value *FunctionLowering::floatToFloat8(llvm::Value *f, bool e5m2) {
  llvm::Type *i32 = B.getInt32Ty(), *f32 = B.getFloatTy();
  const unsigned man = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  const double largest = e5m2 ? 57344.0 : 448.0;
  const uint32_t largestBits = e5m2 ? 0x7b : 0x7e, nanBits = 0x7f;
  llvm::Value *bits = B.CreateBitCast(f, i32);
  llvm::Value *sign = B.CreateAnd(B.CreateLShr(bits, 24), 0x80);
  llvm::Value *a = B.CreateAnd(bits, 0x7fffffff);
  llvm::Value *x = B.CreateBitCast(a, f32);
  // normal results: float32's bits rounded to `man` fraction bits, rebiased
  const unsigned drop = 23 - man;
  llvm::Value *rounded =
      B.CreateLShr(B.CreateAdd(a, B.CreateAdd(B.getInt32((1u << (drop - 1)) - 1),
                                              B.CreateAnd(B.CreateLShr(a, drop), 1))),
                   drop);
  llvm::Value *normal = B.CreateSub(rounded, B.getInt32((127 - bias) << man));
  // subnormal results: x / 2**(1 - bias - man) rounded to an integer (the
  // largest rounds up to the smallest normal's bits, as it should)
  llvm::Value *scaled =
      B.CreateFMul(x, llvm::ConstantFP::get(f32, std::ldexp(1.0, int(bias + man) - 1)));
  llvm::Value *sub = B.CreateFPToUI(B.CreateUnaryIntrinsic(llvm::Intrinsic::rint, scaled), i32);
  llvm::Value *minNormal = llvm::ConstantFP::get(f32, std::ldexp(1.0, 1 - int(bias)));
  llvm::Value *r = B.CreateSelect(B.CreateFCmpOLT(x, minNormal), sub, normal);
  r = B.CreateSelect(B.CreateFCmpOGE(x, llvm::ConstantFP::get(f32, largest)),
                     B.getInt32(largestBits), r);
  r = B.CreateOr(r, sign);
  r = B.CreateSelect(B.CreateFCmpUNO(x, x), B.getInt32(nanBits), r);  // one NaN, positive
  return B.CreateTrunc(r, B.getInt8Ty());
}

llvm::Value *FunctionLowering::float8Convert(llvm::Value *v, const Type *from, const Type *to) {
  llvm::Type *f32 = B.getFloatTy(), *f64 = B.getDoubleTy();
  if (from->isFloat8() && to->isFloat8())  // (e4m3fn <-> e5m2: through float32, exact)
    return floatToFloat8(float8ToFloat(v, from->isE5M2()), to->isE5M2());
  if (from->isFloat8()) {
    llvm::Value *f = float8ToFloat(v, from->isE5M2());
    if (to->isBool()) return B.CreateFCmpUNE(f, llvm::ConstantFP::get(f32, 0.0));
    if (to->isInt()) {
      auto id = to->isSigned() ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
      return B.CreateIntrinsic(id, {P.lt(to), f32}, {f});
    }
    if (to->isComplex()) {
      llvm::Type *part = P.lt(to->complexPart());
      llvm::Value *r = llvm::UndefValue::get(P.lt(to));
      r = B.CreateInsertValue(r, B.CreateFPCast(f, part), {0});
      return B.CreateInsertValue(r, llvm::ConstantFP::get(part, 0.0), {1});
    }
    return B.CreateFPCast(f, P.lt(to));
  }
  // to an 8-bit float: a float32 that rounds as the exact value would
  if (from->isComplex()) {
    v = B.CreateExtractValue(v, {0});
    from = from->complexPart();
  }
  llvm::Value *f;
  if (from->isFloat() && from->bits() == 32)
    f = v;
  else if (from->isFloat() && from->bits() < 32)
    f = B.CreateFPExt(v, f32);
  else if (from->isFloat())
    f = roundToOddFloat(v);
  else  // an integer or a bool: as a float64 (exact below 2**53), then to odd
    f = roundToOddFloat(from->isInt() && from->isSigned() ? B.CreateSIToFP(v, f64)
                                                          : B.CreateUIToFP(v, f64));
  return floatToFloat8(f, to->isE5M2());
}

llvm::Value *FunctionLowering::convert(llvm::Value *v, const Type *from, const Type *to) {
  if (from == to) return v;
  // An enum member is its value.
  if (from->isEnumMember()) return convert(v, from->dtype(), to);
  if (to->isEnumMember()) return convert(v, from, to->dtype());
  if (from->isArray() && to->isArray()) return v;
  if (from->isList() && to->isList()) return v;  // [] given its elements' type
  if (from->isDict() || to->isDict()) return v;  // a dict and its four lists
  if (from->isFloat8() || to->isFloat8()) return float8Convert(v, from, to);
  if (to->isBool()) return truthOf(v, from);
  llvm::Type *dst = P.lt(to);
  if (to->isComplex()) {
    const Type *part = to->complexPart();
    llvm::Value *re, *im;
    if (from->isComplex()) {
      re = convert(B.CreateExtractValue(v, {0}), from->complexPart(), part);
      im = convert(B.CreateExtractValue(v, {1}), from->complexPart(), part);
    } else {
      re = convert(v, from, part);
      im = llvm::ConstantFP::get(P.lt(part), 0.0);
    }
    llvm::Value *r = llvm::UndefValue::get(dst);
    r = B.CreateInsertValue(r, re, {0});
    return B.CreateInsertValue(r, im, {1});
  }
  if (from->isComplex()) return convert(B.CreateExtractValue(v, {0}), from->complexPart(), to);
  bool fromSigned = from->isInt() ? from->isSigned() : false;  // bool is unsigned 0/1
  if (to->isInt()) {
    if (from->isFloat()) {
      // AMD GPUs: v_cvt_i32_f32/f64 saturate and give 0 for NaN, as
      // fptosi.sat does, in one instruction (the back end would expand
      // fptosi.sat into compares and selects).
      if (P.amdgpu && to->isSigned() && to->bits() == 32 && from->bits() >= 32) {
        const char *text = from->bits() == 32 ? "v_cvt_i32_f32 $0, $1" : "v_cvt_i32_f64 $0, $1";
        auto *asmTy = llvm::FunctionType::get(dst, {v->getType()}, false);
        return B.CreateCall(llvm::InlineAsm::get(asmTy, text, "=v,v", /*sideEffects=*/false), {v});
      }
      // Saturating, so that out-of-range values are not poison.
      auto id = to->isSigned() ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
      return B.CreateIntrinsic(id, {dst, v->getType()}, {v});
    }
    return fromSigned ? B.CreateSExtOrTrunc(v, dst) : B.CreateZExtOrTrunc(v, dst);
  }
  // to float
  if (from->isFloat()) {
    if (!P.cuda && to->isHalf() && from->bits() == 64)
      // x86-64 has no float64 -> float16 instruction and LLVM would call
      // compiler-rt's __truncdfhf2, which the JIT does not have: kjit's
      // runtime rounds once, to nearest even (HostRuntime.cpp).
      return B.CreateBitCast(B.CreateCall(P.runtime("kjit_rt_f64_to_f16"), {v}), dst);
    if (P.cuda && to->isBFloat16() && from->bits() == 64) v = roundToOddFloat(v);
    if (from->bits() == 16 && to->bits() == 16)  // float16 <-> bfloat16: through float32 (exact)
      v = B.CreateFPExt(v, B.getFloatTy());
    return B.CreateFPCast(v, dst);
  }
  if (P.cuda && !P.amdgpu && to->isHalf() && from->isInt() && from->bits() == 8) {
    // int8/uint8 to float16 in one instruction, as nvcc's (LLVM would widen
    // the byte to 16 bits first).
    auto *asmTy = llvm::FunctionType::get(dst, {B.getInt16Ty()}, false);
    const char *text = fromSigned ? "cvt.rn.f16.s8 $0, $1;" : "cvt.rn.f16.u8 $0, $1;";
    llvm::Value *wide =
        fromSigned ? B.CreateSExt(v, B.getInt16Ty()) : B.CreateZExt(v, B.getInt16Ty());
    return B.CreateCall(llvm::InlineAsm::get(asmTy, text, "=h,h", false), {wide});
  }
  return fromSigned ? B.CreateSIToFP(v, dst) : B.CreateUIToFP(v, dst);
}

llvm::Value *FunctionLowering::exprUncached(const Expr *e) {
  switch (e->kind()) {
  case Kind::Const: return constant(cast<Const>(e));
  case Kind::VarRef: {
    auto *r = cast<VarRef>(e);
    llvm::AllocaInst *slot = slots[r->var->id];
    if (!slot) return zeroOf(e->type);
    return B.CreateLoad(slot->getAllocatedType(), slot, r->var->name);
  }
  case Kind::Cast: {
    auto *c = cast<Cast>(e);
    const Type *from = c->value->type, *to = c->type;
    if (to->isOptional() || from->isOptional()) return optionalCast(c);
    return convert(expr(c->value), from, to);
  }
  case Kind::Unary: return unary(cast<Unary>(e));
  case Kind::Binary: return binary(cast<Binary>(e));
  case Kind::Logical: return logical(cast<Logical>(e));
  case Kind::Select: return select(cast<Select>(e));
  case Kind::ArrayLoad: return arrayLoad(cast<ArrayLoad>(e));
  case Kind::ArrayView: return arrayView(cast<ArrayView>(e));
  case Kind::TupleMake: {
    auto *t = cast<TupleMake>(e);
    llvm::Value *r = llvm::UndefValue::get(P.lt(e->type));
    for (unsigned i = 0; i < t->elems.size(); ++i)
      r = B.CreateInsertValue(r, expr(t->elems[i]), {i});
    return r;
  }
  case Kind::TupleGet: {
    auto *g = cast<TupleGet>(e);
    if (!g->dynIndex) return B.CreateExtractValue(expr(g->tuple), {g->index});
    llvm::Value *tv = expr(g->tuple);
    auto n = unsigned(g->tuple->type->elements().size());
    llvm::Value *i = tupleIndex(expr(g->dynIndex), n, g->loc);
    llvm::Type *et = P.lt(g->type);
    llvm::AllocaInst *slots = spillTuple(tv, et, n, "tuple");
    return B.CreateLoad(et, B.CreateInBoundsGEP(slots->getAllocatedType(), slots, {i64(0), i}));
  }
  case Kind::Call: return call(cast<Call>(e));
  case Kind::Intrinsic: return intrinsic(cast<Intrinsic>(e));
  default: return zeroOf(e->type);
  }
}

llvm::Value *FunctionLowering::unary(const Unary *u) {
  llvm::Value *v = expr(u->operand);
  const Type *t = u->type;
  switch (u->op) {
  case UnOp::Not: return B.CreateNot(v);
  case UnOp::Invert: return B.CreateNot(v);
  case UnOp::Neg:
    if (t->isInt()) return B.CreateNeg(v);
    if (t->isFloat()) return B.CreateFNeg(v);
    if (t->isComplex()) {
      llvm::Value *r = B.CreateInsertValue(v, B.CreateFNeg(B.CreateExtractValue(v, {0})), {0});
      return B.CreateInsertValue(r, B.CreateFNeg(B.CreateExtractValue(v, {1})), {1});
    }
    return v;
  }
  return v;
}

llvm::Value *FunctionLowering::binary(const Binary *b) {
  llvm::Value *l = expr(b->lhs);
  llvm::Value *r = expr(b->rhs);
  const Type *t = b->lhs->type;  // comparisons: operand type; others: result type
  if (isComparison(b->op)) {
    if (t->isComplex()) {
      llvm::Value *re = B.CreateFCmpOEQ(B.CreateExtractValue(l, {0}), B.CreateExtractValue(r, {0}));
      llvm::Value *im = B.CreateFCmpOEQ(B.CreateExtractValue(l, {1}), B.CreateExtractValue(r, {1}));
      llvm::Value *eq = B.CreateAnd(re, im);
      return b->op == BinOp::Eq ? eq : B.CreateNot(eq);
    }
    if (t->isFloat()) {
      switch (b->op) {
      case BinOp::Lt: return B.CreateFCmpOLT(l, r);
      case BinOp::Gt: return B.CreateFCmpOGT(l, r);
      case BinOp::Le: return B.CreateFCmpOLE(l, r);
      case BinOp::Ge: return B.CreateFCmpOGE(l, r);
      case BinOp::Eq: return B.CreateFCmpOEQ(l, r);
      default: return B.CreateFCmpUNE(l, r);
      }
    }
    bool s = t->isInt() && t->isSigned();
    switch (b->op) {
    case BinOp::Lt: return s ? B.CreateICmpSLT(l, r) : B.CreateICmpULT(l, r);
    case BinOp::Gt: return s ? B.CreateICmpSGT(l, r) : B.CreateICmpUGT(l, r);
    case BinOp::Le: return s ? B.CreateICmpSLE(l, r) : B.CreateICmpULE(l, r);
    case BinOp::Ge: return s ? B.CreateICmpSGE(l, r) : B.CreateICmpUGE(l, r);
    case BinOp::Eq: return B.CreateICmpEQ(l, r);
    default: return B.CreateICmpNE(l, r);
    }
  }
  if (t->isBool()) {  // & | ^ on bools
    switch (b->op) {
    case BinOp::BitAnd: return B.CreateAnd(l, r);
    case BinOp::BitOr: return B.CreateOr(l, r);
    default: return B.CreateXor(l, r);
    }
  }
  if (t->isInt()) return intBinary(b->op, l, r, t, b->loc);
  if (t->isFloat()) return floatBinary(b->op, l, r, t, b->loc);
  return complexBinary(b->op, l, r, t, b->loc);
}

llvm::Value *FunctionLowering::intBinary(BinOp op, llvm::Value *l, llvm::Value *r, const Type *t,
                                         SourceLoc loc) {
  bool s = t->isSigned();
  llvm::Value *zero = llvm::ConstantInt::get(l->getType(), 0);
  switch (op) {
  case BinOp::Add: return B.CreateAdd(l, r);
  case BinOp::Sub: return B.CreateSub(l, r);
  case BinOp::Mul: return B.CreateMul(l, r);
  case BinOp::BitAnd: return B.CreateAnd(l, r);
  case BinOp::BitOr: return B.CreateOr(l, r);
  case BinOp::BitXor: return B.CreateXor(l, r);
  case BinOp::LShift:
  case BinOp::RShift: {
    // Python: a negative shift count is an error; counts >= width give 0
    // (or -1 for negative numbers shifted right), never poison.
    unsigned w = t->bits();
    if (s) raiseIf(B.CreateICmpSLT(r, zero), "ValueError", "negative shift count", loc);
    llvm::Value *big = B.CreateICmpUGE(r, llvm::ConstantInt::get(r->getType(), w));
    llvm::Value *safe = B.CreateSelect(big, llvm::ConstantInt::get(r->getType(), w - 1), r);
    if (op == BinOp::LShift) return B.CreateSelect(big, zero, B.CreateShl(l, safe));
    return s ? B.CreateAShr(l, safe) : B.CreateSelect(big, zero, B.CreateLShr(l, safe));
  }
  case BinOp::FloorDiv:
  case BinOp::Mod: {
    bool div = op == BinOp::FloorDiv;
    llvm::Value *byZero = B.CreateICmpEQ(r, zero);
    if (numpyErrors()) {
      // Numba's CUDA error model, and error_model='numpy': x // 0 and x % 0 are 0.
      r = B.CreateSelect(byZero, llvm::ConstantInt::get(r->getType(), 1), r);
    } else {
      raiseIf(byZero, "ZeroDivisionError",
              div ? "integer division by zero" : "integer modulo by zero", loc);
    }
    llvm::Value *result;
    if (!s) {
      result = div ? B.CreateUDiv(l, r) : B.CreateURem(l, r);
    } else {
      // x86 traps on INT_MIN / -1: divide by 1 instead and fix up.
      llvm::Value *minusOne = B.CreateICmpEQ(r, llvm::ConstantInt::getSigned(r->getType(), -1));
      llvm::Value *safeR = B.CreateSelect(minusOne, llvm::ConstantInt::get(r->getType(), 1), r);
      llvm::Value *q = B.CreateSDiv(l, safeR);
      llvm::Value *rem = B.CreateSRem(l, safeR);
      // Floor: when the remainder is nonzero and its sign differs from r's.
      llvm::Value *adjust =
          B.CreateAnd(B.CreateICmpNE(rem, zero), B.CreateICmpSLT(B.CreateXor(rem, r), zero));
      if (div) {
        llvm::Value *fq =
            B.CreateSelect(adjust, B.CreateSub(q, llvm::ConstantInt::get(q->getType(), 1)), q);
        result = B.CreateSelect(minusOne, B.CreateNeg(l), fq);
      } else {
        llvm::Value *fr = B.CreateSelect(adjust, B.CreateAdd(rem, r), rem);
        result = B.CreateSelect(minusOne, zero, fr);
      }
    }
    return numpyErrors() ? B.CreateSelect(byZero, zero, result) : result;
  }
  default: return zero;
  }
}

llvm::Value *FunctionLowering::floatBinary(BinOp op, llvm::Value *l, llvm::Value *r, const Type *t,
                                           SourceLoc loc) {
  llvm::Type *ft = l->getType();
  llvm::Value *zero = llvm::ConstantFP::get(ft, 0.0);
  switch (op) {
  case BinOp::Add: return B.CreateFAdd(l, r);
  case BinOp::Sub: return B.CreateFSub(l, r);
  case BinOp::Mul: {
    // (-x) * y is -(x * y) exactly: written so, x * y is shared with the
    // expressions that compute it too (sin(v * k) * exp(-v * k * c): one
    // product, and the negation folds into the constant), as nvcc's code has.
    llvm::Value *x, *y;
    bool negL =
        llvm::PatternMatch::match(l, llvm::PatternMatch::m_FNeg(llvm::PatternMatch::m_Value(x)));
    bool negR =
        llvm::PatternMatch::match(r, llvm::PatternMatch::m_FNeg(llvm::PatternMatch::m_Value(y)));
    if (negL != negR) return B.CreateFNeg(B.CreateFMul(negL ? x : l, negR ? y : r));
    return B.CreateFMul(l, r);
  }
  case BinOp::Div:
    if (!numpyErrors())
      raiseIf(B.CreateFCmpOEQ(r, zero), "ZeroDivisionError", "division by zero", loc);
    return B.CreateFDiv(l, r);
  case BinOp::FloorDiv:
  case BinOp::Mod: {
    bool div = op == BinOp::FloorDiv;
    if (!numpyErrors())
      raiseIf(B.CreateFCmpOEQ(r, zero), "ZeroDivisionError",
              div ? "division by zero" : "modulo by zero", loc);
    // Python's float divmod (Objects/floatobject.c).
    llvm::Value *mod = B.CreateFRem(l, r);
    llvm::Value *d = B.CreateFDiv(B.CreateFSub(l, mod), r);
    llvm::Value *modNonzero = B.CreateFCmpUNE(mod, zero);
    llvm::Value *signsDiffer = B.CreateXor(B.CreateFCmpOLT(r, zero), B.CreateFCmpOLT(mod, zero));
    llvm::Value *fix = B.CreateAnd(modNonzero, signsDiffer);
    llvm::Value *one = llvm::ConstantFP::get(ft, 1.0);
    mod = B.CreateSelect(fix, B.CreateFAdd(mod, r), mod);
    d = B.CreateSelect(fix, B.CreateFSub(d, one), d);
    if (!div) {
      llvm::Value *signedZero = B.CreateIntrinsic(llvm::Intrinsic::copysign, {ft}, {zero, r});
      return B.CreateSelect(modNonzero, mod, signedZero);
    }
    llvm::Value *fl = B.CreateUnaryIntrinsic(llvm::Intrinsic::floor, d);
    llvm::Value *roundUp = B.CreateFCmpOGT(B.CreateFSub(d, fl), llvm::ConstantFP::get(ft, 0.5));
    fl = B.CreateSelect(roundUp, B.CreateFAdd(fl, one), fl);
    llvm::Value *dz =
        B.CreateIntrinsic(llvm::Intrinsic::copysign, {ft}, {zero, B.CreateFDiv(l, r)});
    llvm::Value *q = B.CreateSelect(B.CreateFCmpUNE(d, zero), fl, dz);
    // NumPy's x // 0.0: x / 0.0 (inf, -inf or nan).
    if (numpyErrors()) q = B.CreateSelect(B.CreateFCmpOEQ(r, zero), B.CreateFDiv(l, r), q);
    return q;
  }
  default: (void)t; return zero;
  }
}

llvm::Value *FunctionLowering::complexBinary(BinOp op, llvm::Value *l, llvm::Value *r,
                                             const Type *t, SourceLoc loc) {
  llvm::Value *a = B.CreateExtractValue(l, {0}), *b = B.CreateExtractValue(l, {1});
  llvm::Value *c = B.CreateExtractValue(r, {0}), *d = B.CreateExtractValue(r, {1});
  llvm::Value *re, *im;
  switch (op) {
  case BinOp::Add:
    re = B.CreateFAdd(a, c);
    im = B.CreateFAdd(b, d);
    break;
  case BinOp::Sub:
    re = B.CreateFSub(a, c);
    im = B.CreateFSub(b, d);
    break;
  case BinOp::Mul:
    re = B.CreateFSub(B.CreateFMul(a, c), B.CreateFMul(b, d));
    im = B.CreateFAdd(B.CreateFMul(a, d), B.CreateFMul(b, c));
    break;
  default: {  // Div
    llvm::Value *zero = llvm::ConstantFP::get(a->getType(), 0.0);
    if (!numpyErrors())
      raiseIf(B.CreateAnd(B.CreateFCmpOEQ(c, zero), B.CreateFCmpOEQ(d, zero)), "ZeroDivisionError",
              "complex division by zero", loc);
    // CPython's _Py_c_quot, as Numba's: divide top and bottom by the
    // divisor's larger part, so that no product overflows or underflows
    // ((14+0j) / complex(inf, 5) is 0j, not NaN); NaN parts when that part
    // is 0 (a zero divisor under NumPy's error model) or NaN.
    llvm::Value *nan = llvm::ConstantFP::getNaN(a->getType());
    auto fabs = [&](llvm::Value *v) { return B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); };
    llvm::Value *byReal = B.CreateFCmpOGE(fabs(c), fabs(d));
    llvm::Value *ratio1 = B.CreateFDiv(d, c), *den1 = B.CreateFAdd(c, B.CreateFMul(d, ratio1));
    llvm::Value *re1 = B.CreateFDiv(B.CreateFAdd(a, B.CreateFMul(b, ratio1)), den1);
    llvm::Value *im1 = B.CreateFDiv(B.CreateFSub(b, B.CreateFMul(a, ratio1)), den1);
    llvm::Value *ratio2 = B.CreateFDiv(c, d), *den2 = B.CreateFAdd(B.CreateFMul(c, ratio2), d);
    llvm::Value *re2 = B.CreateFDiv(B.CreateFAdd(B.CreateFMul(a, ratio2), b), den2);
    llvm::Value *im2 = B.CreateFDiv(B.CreateFSub(B.CreateFMul(b, ratio2), a), den2);
    llvm::Value *cZero = B.CreateFCmpOEQ(c, zero), *dZero = B.CreateFCmpOEQ(d, zero);
    re = B.CreateSelect(byReal, B.CreateSelect(cZero, nan, re1), B.CreateSelect(dZero, nan, re2));
    im = B.CreateSelect(byReal, B.CreateSelect(cZero, nan, im1), B.CreateSelect(dZero, nan, im2));
  }
  }
  llvm::Value *res = llvm::UndefValue::get(P.lt(t));
  res = B.CreateInsertValue(res, re, {0});
  return B.CreateInsertValue(res, im, {1});
}

llvm::Value *FunctionLowering::logical(const Logical *l) {
  if (l->operand) expr(l->operand);  // evaluated once; lhs and lhsTruth reuse it
  llvm::Value *lhs = expr(l->lhs);
  llvm::Value *truth = expr(l->lhsTruth);
  llvm::BasicBlock *from = B.GetInsertBlock(), *rhsBB = block("logic.rhs"),
                   *merge = block("logic.end");
  if (l->isAnd)
    B.CreateCondBr(truth, rhsBB, merge);
  else
    B.CreateCondBr(truth, merge, rhsBB);
  B.SetInsertPoint(rhsBB);
  memoScopes.emplace_back();
  llvm::Value *rhs = expr(l->rhs);
  for (const Expr *e : memoScopes.back()) memo.erase(e);
  memoScopes.pop_back();
  llvm::BasicBlock *rhsEnd = B.GetInsertBlock();
  B.CreateBr(merge);
  B.SetInsertPoint(merge);
  llvm::PHINode *phi = B.CreatePHI(lhs->getType(), 2);
  phi->addIncoming(lhs, from);
  phi->addIncoming(rhs, rhsEnd);
  return phi;
}

llvm::Value *FunctionLowering::select(const Select *s) {
  llvm::Value *c = expr(s->cond);
  llvm::BasicBlock *tb = block("sel.true"), *fb = block("sel.false"), *merge = block("sel.end");
  B.CreateCondBr(c, tb, fb);
  llvm::Value *vals[2];
  llvm::BasicBlock *ends[2];
  const Expr *arms[2] = {s->ifTrue, s->ifFalse};
  llvm::BasicBlock *starts[2] = {tb, fb};
  for (int k = 0; k < 2; ++k) {
    B.SetInsertPoint(starts[k]);
    memoScopes.emplace_back();
    vals[k] = expr(arms[k]);
    for (const Expr *e : memoScopes.back()) memo.erase(e);
    memoScopes.pop_back();
    ends[k] = B.GetInsertBlock();
    B.CreateBr(merge);
  }
  B.SetInsertPoint(merge);
  llvm::PHINode *phi = B.CreatePHI(vals[0]->getType(), 2);
  phi->addIncoming(vals[0], ends[0]);
  phi->addIncoming(vals[1], ends[1]);
  return phi;
}

llvm::Value *FunctionLowering::call(const Call *c) {
  llvm::Function *callee = P.functions.at(c->callee);
  std::vector<llvm::Value *> args;
  const Type *rt = c->callee->returnType;
  bool hasValue = rt && rt->isRuntime() && !rt->isNone();
  llvm::AllocaInst *slot = entryAlloca(hasValue ? P.lt(rt) : B.getInt8Ty(), "call.ret");
  args.push_back(slot);
  args.push_back(ctxPtr);
  for (const Expr *a : c->args) args.push_back(expr(a));
  llvm::Value *status = B.CreateCall(callee, args);
  checkStatus(status);
  if (!hasValue) return zeroOf(c->type);
  return B.CreateLoad(slot->getAllocatedType(), slot);
}

}  // namespace lowering

}  // namespace kjit
