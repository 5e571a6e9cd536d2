// LoweringArrays.cpp - arrays in LLVM IR: element addresses (wraparound,
// bounds checks, layout-aware strides), views, allocation, and the
// whole-array intrinsics (fill, copy, arange, reductions).
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include "compiler/LoweringImpl.h"

namespace kjit::lowering {

using namespace ir;

llvm::Value *FunctionLowering::elementAddress(llvm::Value *desc, const Type *arrTy,
                                              std::vector<llvm::Value *> idx, bool wraparound,
                                              bool boundscheck, SourceLoc loc) {
  unsigned nd = arrTy->ndim();
  int64_t isz = itemSize(arrTy->dtype());
  llvm::Value *offset = nullptr;
  for (unsigned k = 0; k < idx.size(); ++k) {
    llvm::Value *i = idx[k];
    llvm::Value *n = shapeOf(desc, k);
    llvm::Value *orig = i;
    if (wraparound && !llvm::isa<llvm::ConstantInt>(i)) {
      i = B.CreateSelect(B.CreateICmpSLT(i, i64(0)), B.CreateAdd(i, n), i);
    } else if (auto *ci = llvm::dyn_cast<llvm::ConstantInt>(i); ci && ci->isNegative()) {
      i = B.CreateAdd(i, n);
    }
    if (boundscheck) {
      llvm::BasicBlock *bad = block("oob"), *ok = block("inbounds");
      B.CreateCondBr(B.CreateICmpUGE(i, n), bad, ok,
                     llvm::MDBuilder(C).createBranchWeights(1, 1 << 20));
      B.SetInsertPoint(bad);
      indexError(orig, k, n, loc);
      B.SetInsertPoint(ok);
    }
    llvm::Value *stride;
    if ((arrTy->layout() == Layout::C && k == nd - 1) || (arrTy->layout() == Layout::F && k == 0))
      stride = i64(isz);  // the contiguous axis: a constant the vectoriser can use
    else
      stride = strideOf(desc, k);
    llvm::Value *term = B.CreateMul(i, stride);
    offset = offset ? B.CreateAdd(offset, term) : term;
  }
  llvm::Value *data = dataOf(desc);
  if (!offset) return data;
  return B.CreateGEP(B.getInt8Ty(), data, offset);
}

void FunctionLowering::indexError(llvm::Value *index, unsigned axis, llvm::Value *n,
                                  SourceLoc loc) {
  if (P.cuda) {
    cudaIndexError(index, axis, n, loc);
    return;
  }
  std::string file = loc.valid() ? P.sm.buffer(loc.file).name : "";
  B.CreateCall(P.runtime("kjit_rt_raise_index"),
               {ctxPtr, index, i64(axis), n, P.cstr(file), B.getInt32(loc.line)});
  B.CreateRet(B.getInt32(1));
}

llvm::Value *FunctionLowering::arrayLoad(const ArrayLoad *l) {
  llvm::Value *desc = expr(l->array);
  std::vector<llvm::Value *> idx;
  for (const Expr *i : l->indices) idx.push_back(expr(i));
  llvm::Value *addr =
      elementAddress(desc, l->array->type, idx, l->wraparound, l->boundscheck, l->loc);
  const Type *dt = l->array->type->dtype();
  if (dt->isRecord()) return addr;  // a record element: a reference to it
  return fromMem(B.CreateLoad(P.memTy(dt), addr), dt);
}

void FunctionLowering::arrayStore(const Store *s) {
  llvm::Value *desc = expr(s->array);
  std::vector<llvm::Value *> idx;
  for (const Expr *i : s->indices) idx.push_back(expr(i));
  llvm::Value *v = expr(s->value);
  llvm::Value *addr =
      elementAddress(desc, s->array->type, idx, s->wraparound, s->boundscheck, s->loc);
  const Type *dt = s->array->type->dtype();
  if (dt->isRecord()) {
    copyRecord(addr, v, dt);
    return;
  }
  B.CreateStore(toMem(v, dt), addr);
}

void FunctionLowering::copyRecord(llvm::Value *dst, llvm::Value *src, const Type *rec) {
  // memmove: a[i] = a[i] copies a record onto itself.
  llvm::MaybeAlign a(uint64_t(dtypeAlign(rec)));
  B.CreateMemMove(dst, a, src, a, uint64_t(itemSize(rec)));
}

llvm::Value *FunctionLowering::arrayView(const ArrayView *v) {
  llvm::Value *desc = expr(v->array);
  const Type *at = v->array->type;
  llvm::Value *data = dataOf(desc);
  llvm::Value *out = llvm::UndefValue::get(P.lt(v->type));
  out = B.CreateInsertValue(out, B.CreateExtractValue(desc, {0u}), {0u});
  unsigned outDim = 0;
  for (unsigned k = 0; k < at->ndim(); ++k) {
    llvm::Value *n = shapeOf(desc, k), *stride = strideOf(desc, k);
    if (k < v->specs.size() && v->specs[k].isIndex) {
      llvm::Value *i = expr(v->specs[k].start);
      llvm::Value *wrapped = B.CreateSelect(B.CreateICmpSLT(i, i64(0)), B.CreateAdd(i, n), i);
      if (v->boundscheck) {
        llvm::BasicBlock *bad = block("oob"), *ok = block("inbounds");
        B.CreateCondBr(B.CreateICmpUGE(wrapped, n), bad, ok);
        B.SetInsertPoint(bad);
        indexError(i, k, n, v->loc);
        B.SetInsertPoint(ok);
      }
      data = B.CreateGEP(B.getInt8Ty(), data, B.CreateMul(wrapped, stride));
      continue;
    }
    llvm::Value *newLen = n, *newStride = stride;
    if (k < v->specs.size()) {
      // Python's slice.indices(n), then the length of the range.
      const SliceSpec &sp = v->specs[k];
      llvm::Value *step = sp.step ? expr(sp.step) : i64(1);
      if (sp.step)
        raiseIf(B.CreateICmpEQ(step, i64(0)), "ValueError", "slice step cannot be zero", v->loc);
      llvm::Value *pos = B.CreateICmpSGT(step, i64(0));
      llvm::Value *lower = B.CreateSelect(pos, i64(0), i64(-1));
      llvm::Value *upper = B.CreateSelect(pos, n, B.CreateSub(n, i64(1)));
      auto clampBound = [&](const Expr *e, llvm::Value *dflt) -> llvm::Value * {
        if (!e) return dflt;
        llvm::Value *x = expr(e);
        llvm::Value *neg = B.CreateAdd(x, n);
        llvm::Value *negC = B.CreateSelect(B.CreateICmpSLT(neg, lower), lower, neg);
        llvm::Value *posC = B.CreateSelect(B.CreateICmpSGT(x, upper), upper, x);
        return B.CreateSelect(B.CreateICmpSLT(x, i64(0)), negC, posC);
      };
      llvm::Value *start = clampBound(sp.start, B.CreateSelect(pos, lower, upper));
      llvm::Value *stop = clampBound(sp.stop, B.CreateSelect(pos, upper, lower));
      llvm::Value *lenPos = B.CreateSelect(
          B.CreateICmpSGT(stop, start),
          B.CreateAdd(B.CreateSDiv(B.CreateSub(B.CreateSub(stop, start), i64(1)), step), i64(1)),
          i64(0));
      llvm::Value *lenNeg = B.CreateSelect(
          B.CreateICmpSGT(start, stop),
          B.CreateAdd(
              B.CreateSDiv(B.CreateSub(B.CreateSub(start, stop), i64(1)), B.CreateNeg(step)),
              i64(1)),
          i64(0));
      newLen = B.CreateSelect(pos, lenPos, lenNeg);
      newStride = B.CreateMul(stride, step);
      data = B.CreateGEP(B.getInt8Ty(), data, B.CreateMul(start, stride));
    }
    out = B.CreateInsertValue(out, newLen, {2u, outDim});
    out = B.CreateInsertValue(out, newStride, {3u, outDim});
    ++outDim;
  }
  return B.CreateInsertValue(out, data, {1u});
}

llvm::Value *FunctionLowering::allocate(const Type *arrTy, const std::vector<llvm::Value *> &dims,
                                        SourceLoc loc) {
  int64_t isz = itemSize(arrTy->dtype());
  llvm::Value *total = i64(1);
  llvm::Value *anyNeg = B.getFalse();
  llvm::Value *overflow = B.getFalse();
  // The element count and the byte count, checked for overflow (NumPy's
  // "array is too big"): a wrapped size would allocate too little.
  auto mul = [&](llvm::Value *a, llvm::Value *b) {
    llvm::Value *r = B.CreateBinaryIntrinsic(llvm::Intrinsic::smul_with_overflow, a, b);
    overflow = B.CreateOr(overflow, B.CreateExtractValue(r, {1u}));
    return B.CreateExtractValue(r, {0u});
  };
  for (llvm::Value *d : dims) {
    anyNeg = B.CreateOr(anyNeg, B.CreateICmpSLT(d, i64(0)));
    total = mul(total, d);
  }
  raiseIf(anyNeg, "ValueError", "negative dimensions are not allowed", loc);
  llvm::Value *bytes = mul(total, i64(isz));
  raiseIf(
      overflow, "ValueError",
      "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.",
      loc);
  llvm::Value *p = B.CreateCall(P.runtime("kjit_rt_alloc"), {ctxPtr, bytes});
  llvm::BasicBlock *fail = block("alloc.fail"), *ok = block("alloc.ok");
  B.CreateCondBr(B.CreateIsNull(p), fail, ok);
  B.SetInsertPoint(fail);
  B.CreateRet(B.getInt32(1));  // the runtime recorded MemoryError
  B.SetInsertPoint(ok);
  llvm::Value *desc = llvm::UndefValue::get(P.lt(arrTy));
  desc = B.CreateInsertValue(desc, p, {0u});
  desc = B.CreateInsertValue(desc, p, {1u});
  llvm::Value *stride = i64(isz);
  for (unsigned k = unsigned(dims.size()); k-- > 0;) {
    desc = B.CreateInsertValue(desc, dims[k], {2u, k});
    desc = B.CreateInsertValue(desc, stride, {3u, k});
    stride = B.CreateMul(stride, dims[k]);
  }
  return desc;
}

void FunctionLowering::forEachElement(
    llvm::Value *desc, const Type *arrTy,
    const std::function<void(llvm::Value *, llvm::Value *)> &body) {
  unsigned nd = arrTy->ndim();
  llvm::AllocaInst *flat = entryAlloca(B.getInt64Ty(), "flat");
  B.CreateStore(i64(0), flat);
  llvm::Value *data = dataOf(desc);
  std::function<void(unsigned, llvm::Value *)> level = [&](unsigned k, llvm::Value *base) {
    if (k == nd) {
      llvm::Value *f = B.CreateLoad(B.getInt64Ty(), flat);
      body(B.CreateGEP(B.getInt8Ty(), data, base), f);
      B.CreateStore(B.CreateAdd(f, i64(1)), flat);
      return;
    }
    llvm::Value *n = shapeOf(desc, k);
    llvm::Value *stride = (arrTy->layout() == Layout::C && k == nd - 1)
                              ? i64(itemSize(arrTy->dtype()))
                              : strideOf(desc, k);
    llvm::BasicBlock *pre = B.GetInsertBlock(), *head = block("each.cond"),
                     *bodyBB = block("each.body"), *exit = block("each.end");
    B.CreateBr(head);
    B.SetInsertPoint(head);
    llvm::PHINode *i = B.CreatePHI(B.getInt64Ty(), 2, "e");
    i->addIncoming(i64(0), pre);
    B.CreateCondBr(B.CreateICmpSLT(i, n), bodyBB, exit);
    B.SetInsertPoint(bodyBB);
    level(k + 1, B.CreateAdd(base, B.CreateMul(i, stride)));
    i->addIncoming(B.CreateAdd(i, i64(1), "", false, true), B.GetInsertBlock());
    B.CreateBr(head);
    B.SetInsertPoint(exit);
  };
  level(0, i64(0));
}

llvm::Value *FunctionLowering::arrayIntrinsic(const Intrinsic *in) {
  const Type *t = in->type;
  auto constArg = [&](size_t i) { return unsigned(cast<Const>(in->args[i])->i); };
  switch (in->id) {
  case IntrinsicId::ArrayShape: return shapeOf(expr(in->args[0]), constArg(1));
  case IntrinsicId::ArrayStride: return strideOf(expr(in->args[0]), constArg(1));
  case IntrinsicId::ArrayTranspose: {
    llvm::Value *d = expr(in->args[0]);
    unsigned nd = t->ndim();
    llvm::Value *out = d;
    for (unsigned k = 0; k < nd; ++k) {
      out = B.CreateInsertValue(out, shapeOf(d, nd - 1 - k), {2u, k});
      out = B.CreateInsertValue(out, strideOf(d, nd - 1 - k), {3u, k});
    }
    return out;
  }
  case IntrinsicId::ArrayAlloc: {
    std::vector<llvm::Value *> dims;
    for (const Expr *a : in->args) dims.push_back(expr(a));
    return allocate(t, dims, in->loc);
  }
  case IntrinsicId::ArrayFill: {
    llvm::Value *arr = expr(in->args[0]);
    if (t->dtype()->isRecord()) {  // np.zeros of records: every byte zero
      llvm::MaybeAlign a(uint64_t(dtypeAlign(t->dtype())));
      forEachElement(arr, in->args[0]->type, [&](llvm::Value *addr, llvm::Value *) {
        B.CreateMemSet(addr, B.getInt8(0), uint64_t(itemSize(t->dtype())), a);
      });
      return arr;
    }
    llvm::Value *v = toMem(expr(in->args[1]), t->dtype());
    forEachElement(arr, in->args[0]->type,
                   [&](llvm::Value *addr, llvm::Value *) { B.CreateStore(v, addr); });
    return arr;
  }
  case IntrinsicId::ArrayCopy: {
    const Type *st = in->args[0]->type;
    llvm::Value *src = expr(in->args[0]);
    std::vector<llvm::Value *> dims;
    for (unsigned k = 0; k < st->ndim(); ++k) dims.push_back(shapeOf(src, k));
    llvm::Value *dst = allocate(t, dims, in->loc);
    llvm::Value *dstData = dataOf(dst);
    llvm::Type *et = P.elemTy(t->dtype());
    forEachElement(src, st, [&](llvm::Value *addr, llvm::Value *flatIdx) {
      if (t->dtype()->isRecord())
        copyRecord(B.CreateGEP(et, dstData, flatIdx), addr, t->dtype());
      else
        B.CreateStore(B.CreateLoad(et, addr), B.CreateGEP(et, dstData, flatIdx));
    });
    return dst;
  }
  case IntrinsicId::ArrayArange: {
    const Type *ct = in->args[0]->type;  // int64 or float64
    llvm::Value *start = expr(in->args[0]), *stop = expr(in->args[1]), *step = expr(in->args[2]);
    llvm::Value *n;
    if (ct->isInt()) {
      raiseIf(B.CreateICmpEQ(step, i64(0)), "ZeroDivisionError", "division by zero", in->loc);
      llvm::Value *span = B.CreateSub(stop, start);
      llvm::Value *adj = B.CreateSelect(B.CreateICmpSGT(step, i64(0)), i64(-1), i64(1));
      n = B.CreateSDiv(B.CreateAdd(span, B.CreateAdd(step, adj)), step);
    } else {
      llvm::Value *zero = llvm::ConstantFP::get(B.getDoubleTy(), 0.0);
      raiseIf(B.CreateFCmpOEQ(step, zero), "ZeroDivisionError", "division by zero", in->loc);
      llvm::Value *q = B.CreateUnaryIntrinsic(llvm::Intrinsic::ceil,
                                              B.CreateFDiv(B.CreateFSub(stop, start), step));
      n = B.CreateIntrinsic(llvm::Intrinsic::fptosi_sat, {B.getInt64Ty(), B.getDoubleTy()}, {q});
    }
    n = B.CreateSelect(B.CreateICmpSLT(n, i64(0)), i64(0), n);
    llvm::Value *arr = allocate(t, {n}, in->loc);
    llvm::Type *et = P.memTy(t->dtype());
    llvm::Value *data = dataOf(arr);
    forEachElement(arr, t, [&](llvm::Value *, llvm::Value *i) {
      llvm::Value *v =
          ct->isInt() ? B.CreateAdd(start, B.CreateMul(i, step))
                      : B.CreateFAdd(start, B.CreateFMul(B.CreateSIToFP(i, B.getDoubleTy()), step));
      B.CreateStore(toMem(convert(v, ct, t->dtype()), t->dtype()), B.CreateGEP(et, data, i));
    });
    return arr;
  }
  case IntrinsicId::ArraySum:
  case IntrinsicId::ArrayProd: {
    const Type *at = in->args[0]->type;
    llvm::Value *arr = expr(in->args[0]);
    bool sum = in->id == IntrinsicId::ArraySum;
    llvm::AllocaInst *acc = entryAlloca(P.lt(t), "acc");
    llvm::Value *identity;
    if (t->isFloat())
      identity = llvm::ConstantFP::get(P.lt(t), sum ? 0.0 : 1.0);
    else if (t->isComplex()) {
      llvm::Type *pt = P.lt(t->complexPart());
      identity = llvm::ConstantStruct::get(
          llvm::cast<llvm::StructType>(P.lt(t)),
          {llvm::ConstantFP::get(pt, sum ? 0.0 : 1.0), llvm::ConstantFP::get(pt, 0.0)});
    } else
      identity = llvm::ConstantInt::get(P.lt(t), sum ? 0 : 1);
    B.CreateStore(identity, acc);
    const Type *dt = at->dtype();
    forEachElement(arr, at, [&](llvm::Value *addr, llvm::Value *) {
      llvm::Value *x = convert(fromMem(B.CreateLoad(P.memTy(dt), addr), dt), dt, t);
      llvm::Value *a = B.CreateLoad(P.lt(t), acc);
      llvm::Value *r;
      if (t->isFloat())
        r = sum ? B.CreateFAdd(a, x) : B.CreateFMul(a, x);
      else if (t->isComplex())
        r = complexBinary(sum ? BinOp::Add : BinOp::Mul, a, x, t, in->loc);
      else
        r = sum ? B.CreateAdd(a, x) : B.CreateMul(a, x);
      B.CreateStore(r, acc);
    });
    return B.CreateLoad(P.lt(t), acc);
  }
  case IntrinsicId::ArrayMin:
  case IntrinsicId::ArrayMax: {
    const Type *at = in->args[0]->type;
    llvm::Value *arr = expr(in->args[0]);
    bool isMax = in->id == IntrinsicId::ArrayMax;
    llvm::Value *empty = B.getFalse();
    for (unsigned k = 0; k < at->ndim(); ++k)
      empty = B.CreateOr(empty, B.CreateICmpEQ(shapeOf(arr, k), i64(0)));
    raiseIf(empty, "ValueError",
            fmt::format("zero-size array to reduction operation {} which has no identity",
                        isMax ? "maximum" : "minimum"),
            in->loc);
    llvm::AllocaInst *acc = entryAlloca(P.lt(t), "acc");
    B.CreateStore(fromMem(B.CreateLoad(P.memTy(t), dataOf(arr)), t), acc);
    forEachElement(arr, at, [&](llvm::Value *addr, llvm::Value *) {
      llvm::Value *x = fromMem(B.CreateLoad(P.memTy(t), addr), t);
      llvm::Value *a = B.CreateLoad(P.lt(t), acc);
      llvm::Value *take;
      if (t->isFloat())  // NaN propagates, as NumPy's min/max
        take = B.CreateOr(isMax ? B.CreateFCmpOGT(x, a) : B.CreateFCmpOLT(x, a),
                          B.CreateFCmpUNO(x, x));
      else if (t->isBool() || !t->isSigned())
        take = isMax ? B.CreateICmpUGT(x, a) : B.CreateICmpULT(x, a);
      else
        take = isMax ? B.CreateICmpSGT(x, a) : B.CreateICmpSLT(x, a);
      B.CreateStore(B.CreateSelect(take, x, a), acc);
    });
    return B.CreateLoad(P.lt(t), acc);
  }
  default: return zeroOf(t);
  }
}

// ---- records -----------------------------------------------------------------------

llvm::Value *FunctionLowering::recordIntrinsic(const Intrinsic *in) {
  const Type *t = in->type;
  if (in->id == IntrinsicId::RecordArrayField) {
    // The array's descriptor, moved to the field, with a nested array's
    // axes (C order within the element) after the array's own.
    const Type *at = in->args[0]->type;
    const RecordField &f = *at->dtype()->field(in->text);
    llvm::Value *src = expr(in->args[0]);
    llvm::Value *out = llvm::UndefValue::get(P.lt(t));
    out = B.CreateInsertValue(out, B.CreateExtractValue(src, {0u}), {0u});
    out = B.CreateInsertValue(out, B.CreateGEP(B.getInt8Ty(), dataOf(src), i64(f.offset)), {1u});
    unsigned nd = at->ndim();
    for (unsigned k = 0; k < nd; ++k) {
      out = B.CreateInsertValue(out, shapeOf(src, k), {2u, k});
      out = B.CreateInsertValue(out, strideOf(src, k), {3u, k});
    }
    int64_t stride = itemSize(f.dtype);
    for (size_t k = f.shape.size(); k-- > 0;) {
      out = B.CreateInsertValue(out, i64(f.shape[k]), {2u, nd + unsigned(k)});
      out = B.CreateInsertValue(out, i64(stride), {3u, nd + unsigned(k)});
      stride *= f.shape[k];
    }
    return out;
  }
  const Type *rec = in->args[0]->type;
  const RecordField &f = *rec->field(in->text);
  llvm::Value *addr = B.CreateGEP(B.getInt8Ty(), expr(in->args[0]), i64(f.offset));
  llvm::Align align(uint64_t(fieldAccessAlign(rec, f)));
  // A nested array: its C-contiguous descriptor over the record's bytes.
  auto nested = [&]() {
    unsigned nd = unsigned(f.shape.size());
    llvm::Value *desc = llvm::Constant::getNullValue(P.arrayTy(nd));
    desc = B.CreateInsertValue(desc, addr, {1u});
    int64_t stride = itemSize(f.dtype);
    for (unsigned k = nd; k-- > 0;) {
      desc = B.CreateInsertValue(desc, i64(f.shape[k]), {2u, k});
      desc = B.CreateInsertValue(desc, i64(stride), {3u, k});
      stride *= f.shape[k];
    }
    return desc;
  };
  if (in->id == IntrinsicId::RecordGet) {
    if (!f.shape.empty()) return nested();
    if (f.dtype->isRecord()) return addr;  // a nested record: a reference
    return fromMem(B.CreateAlignedLoad(P.memTy(f.dtype), addr, align), f.dtype);
  }
  // RecordSet
  const Expr *value = in->args[1];
  llvm::Value *v = expr(value);
  if (f.shape.empty()) {
    if (f.dtype->isRecord())
      copyRecord(addr, v, f.dtype);
    else
      B.CreateAlignedStore(toMem(v, f.dtype), addr, align);
    return zeroOf(t);
  }
  // An array into a nested array: the same shape, element by element.
  const Type *vt = value->type;
  llvm::Value *differs = B.getFalse();
  for (unsigned k = 0; k < vt->ndim(); ++k)
    differs = B.CreateOr(differs, B.CreateICmpNE(shapeOf(v, k), i64(f.shape[k])));
  raiseIf(differs, "ValueError",
          fmt::format("the array assigned to field '{}' must have its shape {}", f.name,
                      shapeTupleText(f.shape)),
          in->loc);
  llvm::Type *et = P.memTy(f.dtype);
  const Type *st = vt->dtype();
  forEachElement(v, vt, [&](llvm::Value *src, llvm::Value *flat) {
    llvm::Value *x = convert(fromMem(B.CreateLoad(P.memTy(st), src), st), st, f.dtype);
    B.CreateAlignedStore(toMem(x, f.dtype), B.CreateGEP(et, addr, flat), align);
  });
  return zeroOf(t);
}

}  // namespace kjit::lowering
