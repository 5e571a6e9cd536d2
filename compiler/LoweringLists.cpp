// LoweringLists.cpp - lists in LLVM IR: a list value is a pointer to its
// KjitList (frontend/support/KernelAbi.h); elements lie packed in `data` in
// their memory form. Making a list and growing one call the host runtime
// (kjit_rt_list_new, kjit_rt_list_reserve); reading and writing elements is
// inline. Python's rules (negative indices, IndexError) are the typer's
// and the library's (compiler/lib/builtins/lists.kjit), over these operations.
#include <llvm/IR/MDBuilder.h>

#include "compiler/LoweringImpl.h"
#include "frontend/support/Unicode.h"

namespace kjit::lowering {

using namespace ir;

namespace {

llvm::Value *fieldAddress(llvm::IRBuilder<> &B, llvm::Value *list, abi::ListField f) {
  return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), list, uint64_t(f) * 8);
}

// The code points of UTF-8 text (the source's strings are valid UTF-8).
std::vector<uint32_t> codePoints(const std::string &s) {
  std::vector<uint32_t> out;
  for (size_t i = 0, n = 0; i < s.size(); i += n) out.push_back(unicode::decodeUtf8(s, i, n));
  return out;
}

}  // namespace

llvm::Value *FunctionLowering::listIntrinsic(const Intrinsic *in) {
  const Type *listTy = in->id == IntrinsicId::ListNew ? in->type : in->args[0]->type;
  const Type *elem = listTy->dtype();
  // (A list whose element type stayed unknown has no elements: any size will do.)
  int64_t isz = elem ? int64_t(valueSize(elem)) : 8;
  auto elementAddr = [&](llvm::Value *list, llvm::Value *index) {
    llvm::Value *data = B.CreateLoad(B.getPtrTy(), fieldAddress(B, list, abi::ListData));
    return B.CreateInBoundsGEP(B.getInt8Ty(), data, B.CreateMul(index, i64(isz)));
  };
  switch (in->id) {
  case IntrinsicId::StrConst: {
    // A constant KjitList {size, capacity, data} over constant code points:
    // nothing writes a str, and nothing frees a constant.
    std::vector<uint32_t> cps = codePoints(in->args[0]->type->symbol());
    llvm::Constant *data = llvm::ConstantDataArray::get(C, llvm::ArrayRef<uint32_t>(cps));
    auto *dg = new llvm::GlobalVariable(P.M, data->getType(), true,
                                        llvm::GlobalValue::PrivateLinkage, data, ".str.data");
    llvm::Constant *n = llvm::ConstantInt::get(B.getInt64Ty(), cps.size());
    llvm::Constant *hdr = llvm::ConstantStruct::getAnon(C, {n, n, dg});
    return new llvm::GlobalVariable(P.M, hdr->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                    hdr, ".str");
  }
  case IntrinsicId::ListNew: {
    llvm::Value *l =
        B.CreateCall(P.runtime("kjit_rt_list_new"), {ctxPtr, i64(isz), expr(in->args[0])});
    llvm::BasicBlock *fail = block("list.fail"), *ok = block("list.ok");
    B.CreateCondBr(B.CreateIsNull(l), fail, ok);
    B.SetInsertPoint(fail);
    propagate(B.getInt32(1));  // the runtime recorded the exception
    B.SetInsertPoint(ok);
    return l;
  }
  case IntrinsicId::ListLen:
    return B.CreateLoad(B.getInt64Ty(), fieldAddress(B, expr(in->args[0]), abi::ListSize));
  case IntrinsicId::ListGet: {
    llvm::Value *l = expr(in->args[0]), *i = expr(in->args[1]);
    return fromMem(B.CreateLoad(P.memTy(elem), elementAddr(l, i)), elem);
  }
  case IntrinsicId::ListSet: {
    llvm::Value *l = expr(in->args[0]), *i = expr(in->args[1]), *v = expr(in->args[2]);
    B.CreateStore(toMem(v, elem), elementAddr(l, i));
    return zeroOf(in->type);
  }
  case IntrinsicId::ListSetField: {
    llvm::Value *l = expr(in->args[0]), *v = expr(in->args[2]);
    unsigned k = unsigned(cast<Const>(in->args[1])->i);
    llvm::Value *field = B.CreateStructGEP(P.memTy(elem), elementAddr(l, i64(0)), k);
    B.CreateStore(toMem(v, elem->elements()[k]), field);
    return zeroOf(in->type);
  }
  case IntrinsicId::ListResize: {
    llvm::Value *l = expr(in->args[0]), *n = expr(in->args[1]);
    llvm::Value *cap = B.CreateLoad(B.getInt64Ty(), fieldAddress(B, l, abi::ListCapacity));
    llvm::BasicBlock *grow = block("list.grow"), *done = block("list.sized");
    B.CreateCondBr(B.CreateICmpSGT(n, cap), grow, done,
                   llvm::MDBuilder(C).createBranchWeights(1, 64));
    B.SetInsertPoint(grow);
    checkStatus(B.CreateCall(P.runtime("kjit_rt_list_reserve"), {ctxPtr, l, n, i64(isz)}));
    B.CreateBr(done);
    B.SetInsertPoint(done);
    // Elements past the old size read as zero (a list shrunk, then grown
    // within its capacity, keeps old bytes there).
    llvm::Value *old = B.CreateLoad(B.getInt64Ty(), fieldAddress(B, l, abi::ListSize));
    llvm::BasicBlock *zero = block("list.zero"), *sized = block("list.resized");
    B.CreateCondBr(B.CreateICmpSGT(n, old), zero, sized);
    B.SetInsertPoint(zero);
    B.CreateMemSet(elementAddr(l, old), B.getInt8(0), B.CreateMul(B.CreateSub(n, old), i64(isz)),
                   llvm::MaybeAlign(1));
    B.CreateBr(sized);
    B.SetInsertPoint(sized);
    B.CreateStore(n, fieldAddress(B, l, abi::ListSize));
    return zeroOf(in->type);
  }
  default: return nullptr;
  }
}

}  // namespace kjit::lowering
