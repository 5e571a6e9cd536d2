// LoweringArrays.cpp - arrays in LLVM IR: element addresses (wraparound,
// bounds checks, layout-aware strides), views, allocation, and the
// whole-array intrinsics (fill, copy, arange, reductions).
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include <stdexcept>

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
  propagate(B.getInt32(1));
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
  // specs[s] applies to the array's dimension k; a new axis takes none.
  size_t s = 0;
  for (unsigned k = 0; k < at->ndim() || s < v->specs.size(); ++s) {
    if (s < v->specs.size() && v->specs[s].isNewAxis) {
      out = B.CreateInsertValue(out, i64(1), {2u, outDim});
      out = B.CreateInsertValue(out, i64(0), {3u, outDim});
      ++outDim;
      continue;
    }
    if (k >= at->ndim()) break;
    llvm::Value *n = shapeOf(desc, k), *stride = strideOf(desc, k);
    const unsigned dim = k++;
    if (s < v->specs.size() && v->specs[s].isIndex) {
      llvm::Value *i = expr(v->specs[s].start);
      llvm::Value *wrapped = B.CreateSelect(B.CreateICmpSLT(i, i64(0)), B.CreateAdd(i, n), i);
      if (v->boundscheck) {
        llvm::BasicBlock *bad = block("oob"), *ok = block("inbounds");
        B.CreateCondBr(B.CreateICmpUGE(wrapped, n), bad, ok);
        B.SetInsertPoint(bad);
        indexError(i, dim, n, v->loc);
        B.SetInsertPoint(ok);
      }
      data = B.CreateGEP(B.getInt8Ty(), data, B.CreateMul(wrapped, stride));
      continue;
    }
    llvm::Value *newLen = n, *newStride = stride;
    if (s < v->specs.size()) {
      // Python's slice.indices(n), then the length of the range.
      const SliceSpec &sp = v->specs[s];
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
  propagate(B.getInt32(1));  // the runtime recorded MemoryError
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

llvm::Value *FunctionLowering::copyArray(llvm::Value *src, const Type *st, const Type *t,
                                         SourceLoc loc) {
  std::vector<llvm::Value *> dims;
  for (unsigned k = 0; k < st->ndim(); ++k) dims.push_back(shapeOf(src, k));
  llvm::Value *dst = allocate(t, dims, loc);
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

// Folds every element of the array `arrayExpr`, converted to `t`, into an
// accumulator of type `t` that starts at `identity` (0 or 1; `init` instead
// when given); with `skipNan`, elements that are NaN (a complex one: either
// part) are left out.
llvm::Value *FunctionLowering::accumulate(
    const Expr *arrayExpr, const Type *t, double identity, bool skipNan,
    const std::function<llvm::Value *(llvm::Value *, llvm::Value *)> &step, llvm::Value *init) {
  const Type *at = arrayExpr->type, *dt = at->dtype();
  llvm::Value *arr = expr(arrayExpr);
  if (!init) {
    if (t->isFloat())
      init = llvm::ConstantFP::get(P.lt(t), identity);
    else if (t->isComplex()) {
      llvm::Type *pt = P.lt(t->complexPart());
      init = llvm::ConstantStruct::get(
          llvm::cast<llvm::StructType>(P.lt(t)),
          {llvm::ConstantFP::get(pt, identity), llvm::ConstantFP::get(pt, 0.0)});
    } else
      init = llvm::ConstantInt::get(P.lt(t), uint64_t(identity));
  }
  llvm::AllocaInst *acc = entryAlloca(init->getType(), "acc");
  B.CreateStore(init, acc);
  forEachElement(arr, at, [&](llvm::Value *addr, llvm::Value *) {
    llvm::Value *v = fromMem(B.CreateLoad(P.memTy(dt), addr), dt);
    llvm::Value *isNan = nullptr;
    if (skipNan && dt->isFloat()) isNan = B.CreateFCmpUNO(v, v);
    if (skipNan && dt->isComplex()) {
      llvm::Value *re = B.CreateExtractValue(v, {0}), *im = B.CreateExtractValue(v, {1});
      isNan = B.CreateOr(B.CreateFCmpUNO(re, re), B.CreateFCmpUNO(im, im));
    }
    if (!isNan) {
      B.CreateStore(step(B.CreateLoad(init->getType(), acc), convert(v, dt, t)), acc);
      return;
    }
    llvm::BasicBlock *take = block("acc.take"), *next = block("acc.next");
    B.CreateCondBr(isNan, next, take);
    B.SetInsertPoint(take);
    B.CreateStore(step(B.CreateLoad(init->getType(), acc), convert(v, dt, t)), acc);
    B.CreateBr(next);
    B.SetInsertPoint(next);
  });
  return B.CreateLoad(init->getType(), acc);
}

// x / n for a float or complex x and an int64 count, without the
// ZeroDivisionError check: 0 / 0 is NaN, as NumPy's mean of nothing.
llvm::Value *FunctionLowering::divideByCount(llvm::Value *x, llvm::Value *n, const Type *t) {
  const Type *ft = t->isComplex() ? t->complexPart() : t;
  llvm::Value *d = B.CreateSIToFP(n, P.lt(ft));
  if (!t->isComplex()) return B.CreateFDiv(x, d);
  x = B.CreateInsertValue(x, B.CreateFDiv(B.CreateExtractValue(x, {0}), d), {0});
  return B.CreateInsertValue(x, B.CreateFDiv(B.CreateExtractValue(x, {1}), d), {1});
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
  case IntrinsicId::ArrayReshape: {
    // NumPy's rules: the sizes agree; one dimension may be -1 (inferred).
    const Type *st = in->args[0]->type;
    llvm::Value *src = expr(in->args[0]);
    llvm::Value *size = i64(1);
    for (unsigned k = 0; k < st->ndim(); ++k) size = B.CreateMul(size, shapeOf(src, k));
    std::vector<llvm::Value *> dims;
    llvm::Value *known = i64(1), *unknowns = i64(0), *negative = B.getFalse();
    for (size_t k = 1; k < in->args.size(); ++k) {
      llvm::Value *d = expr(in->args[k]);
      dims.push_back(d);
      llvm::Value *inferred = B.CreateICmpEQ(d, i64(-1));
      negative = B.CreateOr(negative, B.CreateICmpSLT(d, i64(-1)));
      unknowns = B.CreateAdd(unknowns, B.CreateZExt(inferred, B.getInt64Ty()));
      known = B.CreateMul(known, B.CreateSelect(inferred, i64(1), d));
    }
    raiseIf(B.CreateOr(negative, B.CreateICmpUGT(unknowns, i64(1))), "ValueError",
            "reshape() takes non-negative dimensions and at most one -1", in->loc);
    llvm::Value *safeKnown = B.CreateSelect(B.CreateICmpEQ(known, i64(0)), i64(1), known);
    llvm::Value *fill = B.CreateSDiv(size, safeKnown);
    llvm::Value *total =
        B.CreateSelect(B.CreateICmpEQ(unknowns, i64(1)), B.CreateMul(known, fill), known);
    raiseIf(B.CreateICmpNE(total, size), "ValueError", "total size of new array must be unchanged",
            in->loc);
    llvm::Value *out = llvm::Constant::getNullValue(P.lt(t));
    out = B.CreateInsertValue(out, B.CreateExtractValue(src, {0u}), {0u});
    out = B.CreateInsertValue(out, dataOf(src), {1u});
    llvm::Value *stride = i64(itemSize(t->dtype()));
    for (unsigned k = unsigned(dims.size()); k-- > 0;) {
      llvm::Value *d = B.CreateSelect(B.CreateICmpEQ(dims[k], i64(-1)), fill, dims[k]);
      out = B.CreateInsertValue(out, d, {2u, k});
      out = B.CreateInsertValue(out, stride, {3u, k});
      stride = B.CreateMul(stride, d);
    }
    return out;
  }
  case IntrinsicId::ArrayPart: {
    // The same shape and strides; the data starts at the part's offset.
    llvm::Value *src = expr(in->args[0]);
    int64_t offset = constArg(1) * itemSize(t->dtype());
    return B.CreateInsertValue(src, B.CreateGEP(B.getInt8Ty(), dataOf(src), i64(offset)), {1u});
  }
  case IntrinsicId::ArrayViewAs: {
    // The last dimension is rescaled by the itemsizes; it must be
    // contiguous and hold a whole number of new items (NumPy's rules).
    const Type *st = in->args[0]->type;
    llvm::Value *src = expr(in->args[0]);
    int64_t from = itemSize(st->dtype()), to = itemSize(t->dtype());
    if (from == to) return src;
    unsigned last = st->ndim() - 1;
    llvm::Value *n = shapeOf(src, last), *stride = strideOf(src, last);
    llvm::Value *bytes = B.CreateMul(n, i64(from));
    raiseIf(B.CreateAnd(B.CreateICmpNE(stride, i64(from)), B.CreateICmpSGT(n, i64(1))),
            "ValueError",
            "To change to a dtype of a different size, the last axis must be contiguous", in->loc);
    raiseIf(B.CreateICmpNE(B.CreateSRem(bytes, i64(to)), i64(0)), "ValueError",
            "When changing to a larger dtype, its size must be a divisor of the total size in "
            "bytes of the last axis of the array.",
            in->loc);
    llvm::Value *out = B.CreateInsertValue(src, B.CreateSDiv(bytes, i64(to)), {2u, last});
    return B.CreateInsertValue(out, i64(to), {3u, last});
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
    return copyArray(expr(in->args[0]), st, t, in->loc);
  }
  case IntrinsicId::ArrayLiteral: {
    std::vector<llvm::Value *> dims;
    size_t at = 0;
    while (at <= in->text.size()) {
      size_t comma = in->text.find(',', at);
      if (comma == std::string::npos) comma = in->text.size();
      dims.push_back(i64(std::stoll(in->text.substr(at, comma - at))));
      at = comma + 1;
    }
    llvm::Value *arr = allocate(t, dims, in->loc);
    llvm::Value *data = dataOf(arr);
    llvm::Type *et = P.memTy(t->dtype());
    for (size_t k = 0; k < in->args.size(); ++k)
      B.CreateStore(toMem(expr(in->args[k]), t->dtype()), B.CreateGEP(et, data, i64(int64_t(k))));
    return arr;
  }
  case IntrinsicId::ArrayUnaliased: {
    // Copy `a` when the bytes it spans meet out's, unless it is out's very
    // view (same data, shape and strides: element i reads what element i
    // writes).
    const Type *at = in->args[0]->type, *ot = in->args[1]->type;
    llvm::Value *a = expr(in->args[0]), *o = expr(in->args[1]);
    auto span = [&](llvm::Value *d, const Type *ty, llvm::Value *&lo, llvm::Value *&hi,
                    llvm::Value *&empty) {
      llvm::Value *base = B.CreatePtrToInt(dataOf(d), B.getInt64Ty());
      lo = base, hi = B.CreateAdd(base, i64(itemSize(ty->dtype())));
      empty = B.getFalse();
      for (unsigned k = 0; k < ty->ndim(); ++k) {
        llvm::Value *n = shapeOf(d, k), *st = strideOf(d, k);
        empty = B.CreateOr(empty, B.CreateICmpSLE(n, i64(0)));
        llvm::Value *reach = B.CreateMul(B.CreateSub(n, i64(1)), st);
        llvm::Value *neg = B.CreateICmpSLT(reach, i64(0));
        lo = B.CreateAdd(lo, B.CreateSelect(neg, reach, i64(0)));
        hi = B.CreateAdd(hi, B.CreateSelect(neg, i64(0), reach));
      }
    };
    llvm::Value *alo, *ahi, *aempty, *olo, *ohi, *oempty;
    span(a, at, alo, ahi, aempty);
    span(o, ot, olo, ohi, oempty);
    llvm::Value *meet = B.CreateAnd(B.CreateICmpULT(alo, ohi), B.CreateICmpULT(olo, ahi));
    meet = B.CreateAnd(meet, B.CreateNot(B.CreateOr(aempty, oempty)));
    llvm::Value *same = B.CreateICmpEQ(dataOf(a), dataOf(o));
    if (at->ndim() != ot->ndim() || at->dtype() != ot->dtype()) {
      same = B.getFalse();
    } else {
      for (unsigned k = 0; k < at->ndim(); ++k) {
        same = B.CreateAnd(same, B.CreateICmpEQ(shapeOf(a, k), shapeOf(o, k)));
        same = B.CreateAnd(same, B.CreateICmpEQ(strideOf(a, k), strideOf(o, k)));
      }
    }
    llvm::BasicBlock *pre = B.GetInsertBlock(), *copyBB = block("unalias.copy"),
                     *done = block("unalias.done");
    B.CreateCondBr(B.CreateAnd(meet, B.CreateNot(same)), copyBB, done);
    B.SetInsertPoint(copyBB);
    llvm::Value *copy = copyArray(a, at, at, in->loc);  // allocate() reads dtype and ndim
    llvm::BasicBlock *copied = B.GetInsertBlock();
    B.CreateBr(done);
    B.SetInsertPoint(done);
    llvm::PHINode *r = B.CreatePHI(a->getType(), 2, "unaliased");
    r->addIncoming(a, pre);
    r->addIncoming(copy, copied);
    return r;
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
  case IntrinsicId::ArrayProd:
  case IntrinsicId::ArrayNanSum:
  case IntrinsicId::ArrayNanProd: {
    bool sum = in->id == IntrinsicId::ArraySum || in->id == IntrinsicId::ArrayNanSum;
    bool skipNan = in->id == IntrinsicId::ArrayNanSum || in->id == IntrinsicId::ArrayNanProd;
    return accumulate(in->args[0], t, sum ? 0.0 : 1.0, skipNan,
                      [&](llvm::Value *a, llvm::Value *x) {
                        if (t->isFloat()) return sum ? B.CreateFAdd(a, x) : B.CreateFMul(a, x);
                        if (t->isComplex())
                          return complexBinary(sum ? BinOp::Add : BinOp::Mul, a, x, t, in->loc);
                        return sum ? B.CreateAdd(a, x) : B.CreateMul(a, x);
                      });
  }
  case IntrinsicId::ArrayAll:
  case IntrinsicId::ArrayAny:
  case IntrinsicId::ArrayCountNonzero: {
    const Type *dt = in->args[0]->type->dtype();
    bool all = in->id == IntrinsicId::ArrayAll;
    return accumulate(
        in->args[0], dt, 0.0, false,
        [&](llvm::Value *a, llvm::Value *x) {
          llvm::Value *truth = truthOf(x, dt);
          if (in->id == IntrinsicId::ArrayCountNonzero)
            return B.CreateAdd(a, B.CreateZExt(truth, B.getInt64Ty()));
          return all ? B.CreateAnd(a, truth) : B.CreateOr(a, truth);
        },
        all           ? B.getTrue()
        : t->isBool() ? B.getFalse()
                      : i64(0));
  }
  case IntrinsicId::ArrayNanMean: {
    // sum / count over the elements that are not NaN, in the result type.
    llvm::AllocaInst *count = entryAlloca(B.getInt64Ty(), "count");
    B.CreateStore(i64(0), count);
    llvm::Value *sum = accumulate(in->args[0], t, 0.0, true, [&](llvm::Value *a, llvm::Value *x) {
      B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt64Ty(), count), i64(1)), count);
      return t->isComplex() ? complexBinary(BinOp::Add, a, x, t, in->loc) : B.CreateFAdd(a, x);
    });
    return divideByCount(sum, B.CreateLoad(B.getInt64Ty(), count), t);
  }
  case IntrinsicId::ArrayVar: {
    // NumPy's two passes: the mean, then the mean of |x - mean|**2. The
    // mean is complex for complex arrays; the result is real.
    const Type *at = in->args[0]->type;
    const Type *ct = at->dtype()->isComplex() ? at->dtype() : t;
    llvm::Value *n = i64(1);
    llvm::Value *arr = expr(in->args[0]);
    for (unsigned k = 0; k < at->ndim(); ++k) n = B.CreateMul(n, shapeOf(arr, k));
    auto add = [&](llvm::Value *a, llvm::Value *x) {
      return ct->isComplex() ? complexBinary(BinOp::Add, a, x, ct, in->loc) : B.CreateFAdd(a, x);
    };
    llvm::Value *mean = divideByCount(accumulate(in->args[0], ct, 0.0, false, add), n, ct);
    llvm::Value *ssd = accumulate(in->args[0], ct, 0.0, false, [&](llvm::Value *a, llvm::Value *x) {
      if (!ct->isComplex()) {
        llvm::Value *d = B.CreateFSub(x, mean);
        return B.CreateFAdd(a, B.CreateFMul(d, d));
      }
      // Only the real part of the accumulator is used.
      llvm::Value *re = B.CreateFSub(B.CreateExtractValue(x, {0}), B.CreateExtractValue(mean, {0}));
      llvm::Value *im = B.CreateFSub(B.CreateExtractValue(x, {1}), B.CreateExtractValue(mean, {1}));
      llvm::Value *sq = B.CreateFAdd(B.CreateFMul(re, re), B.CreateFMul(im, im));
      return B.CreateInsertValue(a, B.CreateFAdd(B.CreateExtractValue(a, {0}), sq), {0});
    });
    if (ct->isComplex()) ssd = B.CreateExtractValue(ssd, {0});
    return divideByCount(ssd, n, t);
  }
  case IntrinsicId::ArrayMin:
  case IntrinsicId::ArrayMax:
  case IntrinsicId::ArrayNanMin:
  case IntrinsicId::ArrayNanMax: {
    const Type *at = in->args[0]->type;
    llvm::Value *arr = expr(in->args[0]);
    bool isMax = in->id == IntrinsicId::ArrayMax || in->id == IntrinsicId::ArrayNanMax;
    bool nan = in->id == IntrinsicId::ArrayNanMin || in->id == IntrinsicId::ArrayNanMax;
    llvm::Value *empty = B.getFalse();
    for (unsigned k = 0; k < at->ndim(); ++k)
      empty = B.CreateOr(empty, B.CreateICmpEQ(shapeOf(arr, k), i64(0)));
    raiseIf(empty, "ValueError",
            fmt::format("zero-size array to reduction operation {} which has no identity",
                        nan     ? (isMax ? "nanmax" : "nanmin")
                        : isMax ? "maximum"
                                : "minimum"),
            in->loc);
    llvm::AllocaInst *acc = entryAlloca(P.lt(t), "acc");
    B.CreateStore(fromMem(B.CreateLoad(P.memTy(t), dataOf(arr)), t), acc);
    forEachElement(arr, at, [&](llvm::Value *addr, llvm::Value *) {
      llvm::Value *x = fromMem(B.CreateLoad(P.memTy(t), addr), t);
      llvm::Value *a = B.CreateLoad(P.lt(t), acc);
      llvm::Value *take;
      if (t->isFloat() && nan)  // NaNs left out: `not x >= a and not isnan(x)`, as Numba
        take = B.CreateAnd(isMax ? B.CreateFCmpUGT(x, a) : B.CreateFCmpULT(x, a),
                           B.CreateFCmpORD(x, x));
      else if (t->isFloat())  // NaN propagates, as NumPy's min/max
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

llvm::Value *FunctionLowering::descField(llvm::Value *desc, unsigned field, unsigned d) {
  if (!llvm::ExtractValueInst::getIndexedType(desc->getType(), {field, d}))
    throw std::logic_error(
        fmt::format("internal error: axis {} of an array that has fewer axes reached lowering", d));
  return B.CreateExtractValue(desc, {field, d});
}

}  // namespace kjit::lowering
