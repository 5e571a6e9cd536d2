// Lowering.cpp - typed IR to LLVM IR: types, declarations, function bodies,
// statements and the module. Expressions are in LoweringExpressions.cpp,
// intrinsics in LoweringIntrinsics.cpp, arrays in LoweringArrays.cpp.
#include "compiler/Lowering.h"

#include <fmt/format.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include "compiler/GlobalEnv.h"
#include "compiler/LoweringImpl.h"

namespace kjit {

using namespace ir;
using lowering::FunctionLowering;
using lowering::ProgramLowering;

namespace lowering {

// ---------------------------------------------------------------------------
// Types, declarations, constants

llvm::StructType *ProgramLowering::arrayTy(unsigned ndim) {
  auto it = arrayTypes_.find(ndim);
  if (it != arrayTypes_.end()) return it->second;
  llvm::Type *ptr = llvm::PointerType::getUnqual(C);
  llvm::Type *dims = llvm::ArrayType::get(llvm::Type::getInt64Ty(C), ndim);
  auto *st = llvm::StructType::create(C, {ptr, ptr, dims, dims}, fmt::format("kjit.array{}", ndim));
  arrayTypes_[ndim] = st;
  return st;
}

llvm::Type *ProgramLowering::lt(const Type *t) {
  switch (t->kind()) {
  case TypeKind::Bool: return llvm::Type::getInt1Ty(C);
  case TypeKind::Int: return llvm::Type::getIntNTy(C, t->bits());
  case TypeKind::Float:
    return t->isFloat8()     ? llvm::Type::getInt8Ty(C)  // its bits: storage only
           : t->isBFloat16() ? llvm::Type::getBFloatTy(C)
           : t->bits() == 16 ? llvm::Type::getHalfTy(C)
           : t->bits() == 32 ? llvm::Type::getFloatTy(C)
                             : llvm::Type::getDoubleTy(C);
  case TypeKind::Complex: {
    llvm::Type *p = lt(t->complexPart());
    return llvm::StructType::get(C, {p, p});
  }
  case TypeKind::Array: return arrayTy(t->ndim());
  case TypeKind::Record: return llvm::PointerType::getUnqual(C);  // a reference to its bytes
  case TypeKind::List: return llvm::PointerType::getUnqual(C);    // its KjitList
  case TypeKind::Dict: {
    llvm::Type *p = llvm::PointerType::getUnqual(C);
    return llvm::StructType::get(C, {p, p, p, p});
  }
  case TypeKind::Optional:
    return llvm::StructType::get(C, {lt(t->dtype()), llvm::Type::getInt1Ty(C)});
  case TypeKind::EnumMember: return lt(t->dtype());
  case TypeKind::Tuple: {
    std::vector<llvm::Type *> elems;
    for (const Type *e : t->elements()) elems.push_back(lt(e));
    return llvm::StructType::get(C, elems);
  }
  default: return llvm::Type::getInt8Ty(C);  // none and compile-time values: a placeholder
  }
}

llvm::Type *ProgramLowering::memTy(const Type *t) {
  if (t->isEnumMember()) return memTy(t->dtype());
  if (t->isBool()) return llvm::Type::getInt8Ty(C);
  if (t->isOptional())
    return llvm::StructType::get(C, {memTy(t->dtype()), llvm::Type::getInt8Ty(C)});
  if (t->isTuple()) {
    std::vector<llvm::Type *> elems;
    for (const Type *e : t->elements()) elems.push_back(memTy(e));
    return llvm::StructType::get(C, elems);
  }
  return lt(t);
}

llvm::Type *ProgramLowering::elemTy(const Type *t) {
  if (t->isRecord()) return llvm::ArrayType::get(llvm::Type::getInt8Ty(C), uint64_t(itemSize(t)));
  return memTy(t);
}

llvm::Constant *ProgramLowering::cstr(const std::string &s) {
  auto it = strings_.find(s);
  if (it != strings_.end()) return it->second;
  llvm::Constant *init = llvm::ConstantDataArray::getString(C, s, true);
  auto *gv = new llvm::GlobalVariable(M, init->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                      init, ".str");
  gv->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  strings_[s] = gv;
  return gv;
}

llvm::FunctionCallee ProgramLowering::runtime(const char *name) {
  llvm::Type *ptr = llvm::PointerType::getUnqual(C);
  llvm::Type *i64 = llvm::Type::getInt64Ty(C), *i32 = llvm::Type::getInt32Ty(C);
  llvm::Type *f64 = llvm::Type::getDoubleTy(C), *v = llvm::Type::getVoidTy(C);
  std::string n = name;
  llvm::FunctionType *ft = nullptr;
  if (n == "kjit_rt_alloc")
    ft = llvm::FunctionType::get(ptr, {ptr, i64}, false);
  else if (n == "kjit_rt_free")
    ft = llvm::FunctionType::get(v, {ptr, ptr}, false);
  else if (n == "kjit_rt_exc_matches")
    ft = llvm::FunctionType::get(i32, {ptr, ptr}, false);
  else if (n == "kjit_rt_exc_clear")
    ft = llvm::FunctionType::get(v, {ptr}, false);
  else if (n == "kjit_rt_list_new")
    ft = llvm::FunctionType::get(ptr, {ptr, i64, i64}, false);
  else if (n == "kjit_rt_list_reserve")
    ft = llvm::FunctionType::get(i32, {ptr, ptr, i64, i64}, false);
  else if (n == "kjit_rt_raise")
    ft = llvm::FunctionType::get(v, {ptr, ptr, ptr, ptr, i32}, false);
  else if (n == "kjit_rt_raise_index")
    ft = llvm::FunctionType::get(v, {ptr, i64, i64, i64, ptr, i32}, false);
  else if (n == "kjit_rt_num_chunks")
    ft = llvm::FunctionType::get(i64, {ptr}, false);
  else if (n == "kjit_rt_parallel_for")
    ft = llvm::FunctionType::get(i32, {ptr, ptr, ptr, i64, i64}, false);
  else if (n == "kjit_rt_print_i64" || n == "kjit_rt_print_u64")
    ft = llvm::FunctionType::get(v, {i64}, false);
  else if (n == "kjit_rt_gemm")
    ft = llvm::FunctionType::get(i64, {ptr, ptr, ptr, i64, i64, i64}, false);
  else if (n == "kjit_rt_lapack")
    ft = llvm::FunctionType::get(i64, {i64, ptr, i64, ptr, ptr, i64, i64}, false);
  else if (n == "kjit_rt_random_seed")
    ft = llvm::FunctionType::get(v, {i64}, false);
  else if (n == "kjit_rt_random_u32")
    ft = llvm::FunctionType::get(i64, {}, false);
  else if (n == "kjit_rt_random_double" || n == "kjit_rt_random_gauss")
    ft = llvm::FunctionType::get(f64, {}, false);
  else if (n == "kjit_rt_f64_to_f16")
    ft = llvm::FunctionType::get(llvm::Type::getInt16Ty(C), {f64}, false);
  else if (n == "kjit_rt_print_f64")
    ft = llvm::FunctionType::get(v, {f64}, false);
  else if (n == "kjit_rt_print_bool")
    ft = llvm::FunctionType::get(v, {i32}, false);
  else if (n == "kjit_rt_print_complex")
    ft = llvm::FunctionType::get(v, {f64, f64}, false);
  else if (n == "kjit_rt_print_str" || n == "kjit_rt_print_codes")
    ft = llvm::FunctionType::get(v, {ptr}, false);
  else if (n == "kjit_rt_print_end")
    ft = llvm::FunctionType::get(v, {}, false);
  else if (n == "kjit_cpu_sync")
    ft = llvm::FunctionType::get(i32, {ptr, i32, i32, ptr, i32, i32}, false);
  else if (n == "kjit_cpu_warp")
    ft = llvm::FunctionType::get(i64, {ptr, i32, i32, i64, i32, ptr, i32, i32}, false);
  else if (n == "kjit_cpu_hopper")
    ft = llvm::FunctionType::get(i64, {ptr, i32, ptr, ptr, ptr, i64, i64, ptr, i32, i32}, false);
  else if (n == "kjit_cpu_activemask")
    ft = llvm::FunctionType::get(i32, {ptr}, false);
  return M.getOrInsertFunction(name, ft);
}

llvm::DISubprogram *ProgramLowering::subprogram(const std::string &name, SourceLoc loc) {
  llvm::DIFile *file = cu->getFile();
  if (loc.valid()) {
    std::string path = sm.buffer(loc.file).name;
    size_t slash = path.rfind('/');
    file = di->createFile(slash == std::string::npos ? path : path.substr(slash + 1),
                          slash == std::string::npos ? "." : path.substr(0, slash));
  }
  auto *type = di->createSubroutineType(di->getOrCreateTypeArray({}));
  return di->createFunction(file, name, name, file, loc.line, type, loc.line,
                            llvm::DINode::FlagZero, llvm::DISubprogram::SPFlagDefinition);
}

void ProgramLowering::describeWrapper(llvm::Function *fn, const std::string &name, SourceLoc loc,
                                      llvm::IRBuilder<> &B) {
  if (!di) return;
  llvm::DISubprogram *sp = subprogram(name, loc);
  fn->setSubprogram(sp);
  B.SetCurrentDebugLocation(llvm::DILocation::get(C, loc.line, loc.col, sp));
}

llvm::Function *ProgramLowering::declare(const ir::Function &f) {
  llvm::Type *ptr = llvm::PointerType::getUnqual(C);
  std::vector<llvm::Type *> params = {ptr, ptr};
  for (const Var *p : f.params) params.push_back(lt(p->type));
  auto *ft = llvm::FunctionType::get(llvm::Type::getInt32Ty(C), params, false);
  auto *fn =
      llvm::Function::Create(ft, llvm::GlobalValue::InternalLinkage, prefix + "." + f.symbol, M);
  fn->getArg(0)->setName("ret");
  fn->getArg(0)->addAttr(llvm::Attribute::NoAlias);
  // A device function with wgmma products (or their fences and waits) is
  // inlined always: a call between a wgmma and its wait makes ptxas
  // serialise them (C7510), and its accumulators would be copied.
  if (cuda && !amdgpu) {
    bool wgmma = false;
    forEachNode(f.body, [&](const ir::Node *n) {
      if (auto *in = dyn_cast<ir::Intrinsic>(n))
        wgmma |= in->id >= ir::IntrinsicId::WgmmaFence && in->id <= ir::IntrinsicId::WgmmaStore;
    });
    if (wgmma) fn->addFnAttr(llvm::Attribute::AlwaysInline);
  }
  fn->getArg(1)->setName("ctx");
  for (size_t i = 0; i < f.params.size(); ++i)
    fn->getArg(unsigned(i + 2))->setName(f.params[i]->name);
  functions[&f] = fn;
  return fn;
}

// ---------------------------------------------------------------------------
// Function bodies

FunctionLowering::FunctionLowering(ProgramLowering &p, const ir::Function &f)
    : P(p), C(p.C), B(p.C), F(f) {
  LF = P.functions.at(&f);
  retPtr = LF->getArg(0);
  ctxPtr = LF->getArg(1);
}

FunctionLowering::FunctionLowering(ProgramLowering &p, const ir::Function &f,
                                   llvm::Function *target, llvm::Value *ctx)
    : P(p), C(p.C), B(p.C), F(f), LF(target), ctxPtr(ctx) {}

// One slot per variable, zeroed: a variable that a path leaves unassigned
// reads as zero rather than as whatever the stack held.
void FunctionLowering::allocateSlots() {
  if (!P.cuda && !P.cpuKernel) ownsArray = F.ownsArray;
  slots.assign(F.vars.size(), nullptr);
  for (const auto &v : F.vars) {
    if (!v->type || !v->type->isRuntime() || v->type->isNone()) continue;
    slots[v->id] = B.CreateAlloca(P.lt(v->type), nullptr, v->name);
    if (!v->isParam) B.CreateStore(llvm::Constant::getNullValue(P.lt(v->type)), slots[v->id]);
  }
}

llvm::AllocaInst *FunctionLowering::entryAlloca(llvm::Type *t, const char *name) {
  llvm::IRBuilder<> eb(&LF->getEntryBlock(), LF->getEntryBlock().begin());
  return eb.CreateAlloca(t, nullptr, name);
}

llvm::AllocaInst *FunctionLowering::spillTuple(llvm::Value *tuple, llvm::Type *et, unsigned n,
                                               const char *name) {
  llvm::Type *arr = llvm::ArrayType::get(et, n);
  llvm::AllocaInst *slots = entryAlloca(arr, name);
  for (unsigned k = 0; k < n; ++k)
    B.CreateStore(B.CreateExtractValue(tuple, {k}), B.CreateConstInBoundsGEP2_32(arr, slots, 0, k));
  return slots;
}

llvm::Value *FunctionLowering::tupleIndex(llvm::Value *i, int64_t n, SourceLoc loc) {
  i = B.CreateSelect(B.CreateICmpSLT(i, i64(0)), B.CreateAdd(i, i64(n)), i);
  raiseIf(B.CreateICmpUGE(i, i64(n)), "IndexError", "tuple index out of range", loc);
  return i;
}

llvm::Value *FunctionLowering::pointerRecord(llvm::ArrayRef<llvm::Value *> ptrs, const char *name) {
  llvm::Type *recTy = llvm::ArrayType::get(llvm::PointerType::getUnqual(C), ptrs.size());
  llvm::AllocaInst *rec = entryAlloca(recTy, name);
  for (unsigned k = 0; k < ptrs.size(); ++k)
    B.CreateStore(ptrs[k], B.CreateConstGEP2_32(recTy, rec, 0, k));
  return B.CreatePtrToInt(rec, B.getInt64Ty());
}

void FunctionLowering::startDeadBlock() { B.SetInsertPoint(block("dead")); }

void FunctionLowering::emitRaise(const std::string &exc, const std::string &msg, SourceLoc loc,
                                 bool always) {
  if (!P.reportRaises && !always) {
    B.CreateRet(B.getInt32(abi::StatusExit));  // the thread ends, unreported
    return;
  }
  if (P.cuda) {
    cudaRaise(exc, msg, loc);
    return;
  }
  std::string file = loc.valid() ? P.sm.buffer(loc.file).name : "";
  B.CreateCall(P.runtime("kjit_rt_raise"),
               {ctxPtr, P.cstr(exc), P.cstr(msg), P.cstr(file), B.getInt32(loc.line)});
  propagate(B.getInt32(1));
}

void FunctionLowering::propagate(llvm::Value *status) {
  if (handlers.empty())
    B.CreateRet(status);
  else
    B.CreateBr(handlers.back());
}

void FunctionLowering::tryStmt(const Try *t) {
  llvm::BasicBlock *handlerBB = block("except"), *done = block("try.end");
  handlers.push_back(handlerBB);
  block(t->body);
  handlers.pop_back();
  if (!terminated()) {
    block(t->orelse);  // (what the else block raises is not this try's to catch)
    if (!terminated()) B.CreateBr(done);
  }
  B.SetInsertPoint(handlerBB);
  block(t->handler);
  if (!terminated()) B.CreateBr(done);
  B.SetInsertPoint(done);
}

void FunctionLowering::raiseIf(llvm::Value *bad, const std::string &exc, const std::string &msg,
                               SourceLoc loc) {
  llvm::BasicBlock *raiseBB = block("raise"), *cont = block("ok");
  B.CreateCondBr(bad, raiseBB, cont, llvm::MDBuilder(C).createBranchWeights(1, 1 << 20));
  B.SetInsertPoint(raiseBB);
  emitRaise(exc, msg, loc);
  B.SetInsertPoint(cont);
}

void FunctionLowering::checkStatus(llvm::Value *status) {
  llvm::BasicBlock *fail = block("propagate"), *cont = block("ok");
  B.CreateCondBr(B.CreateICmpNE(status, B.getInt32(0)), fail, cont,
                 llvm::MDBuilder(C).createBranchWeights(1, 1 << 20));
  B.SetInsertPoint(fail);
  propagate(status);
  B.SetInsertPoint(cont);
}

// Register form (bool as i1) to memory form (bool as i8), through tuples.
llvm::Value *toMemForm(llvm::IRBuilder<> &B, ProgramLowering &P, llvm::Value *v, const Type *t) {
  if (t->isEnumMember()) return toMemForm(B, P, v, t->dtype());
  if (t->isBool()) return B.CreateZExt(v, B.getInt8Ty());
  if (t->isOptional()) {
    llvm::Value *r = llvm::UndefValue::get(P.memTy(t));
    r = B.CreateInsertValue(r, toMemForm(B, P, B.CreateExtractValue(v, {0u}), t->dtype()), {0u});
    return B.CreateInsertValue(r, B.CreateZExt(B.CreateExtractValue(v, {1u}), B.getInt8Ty()), {1u});
  }
  if (t->isTuple()) {
    llvm::Value *r = llvm::UndefValue::get(P.memTy(t));
    for (unsigned i = 0; i < t->elements().size(); ++i)
      r = B.CreateInsertValue(r, toMemForm(B, P, B.CreateExtractValue(v, {i}), t->elements()[i]),
                              {i});
    return r;
  }
  return v;
}

llvm::Value *fromMemForm(llvm::IRBuilder<> &B, ProgramLowering &P, llvm::Value *v, const Type *t) {
  if (t->isEnumMember()) return fromMemForm(B, P, v, t->dtype());
  if (t->isBool()) return B.CreateICmpNE(v, B.getInt8(0));
  if (t->isOptional()) {
    llvm::Value *r = llvm::UndefValue::get(P.lt(t));
    r = B.CreateInsertValue(r, fromMemForm(B, P, B.CreateExtractValue(v, {0u}), t->dtype()), {0u});
    return B.CreateInsertValue(r, B.CreateICmpNE(B.CreateExtractValue(v, {1u}), B.getInt8(0)),
                               {1u});
  }
  if (t->isTuple()) {
    llvm::Value *r = llvm::UndefValue::get(P.lt(t));
    for (unsigned i = 0; i < t->elements().size(); ++i)
      r = B.CreateInsertValue(r, fromMemForm(B, P, B.CreateExtractValue(v, {i}), t->elements()[i]),
                              {i});
    return r;
  }
  return v;
}

llvm::Value *FunctionLowering::toMem(llvm::Value *v, const Type *t) {
  return toMemForm(B, P, v, t);
}
llvm::Value *FunctionLowering::fromMem(llvm::Value *v, const Type *t) {
  return fromMemForm(B, P, v, t);
}

void FunctionLowering::run() {
  llvm::BasicBlock *entry = block("entry");
  B.SetInsertPoint(entry);
  if (P.di) {
    scope = P.subprogram(F.name, F.loc);
    LF->setSubprogram(scope);
    B.SetCurrentDebugLocation(llvm::DILocation::get(C, F.loc.line, F.loc.col, scope));
  }
  if (F.fastmath) {
    llvm::FastMathFlags fmf;
    fmf.setAllowReassoc(F.fastmath & FastMath::Reassoc);
    fmf.setNoNaNs(F.fastmath & FastMath::NoNaNs);
    fmf.setNoInfs(F.fastmath & FastMath::NoInfs);
    fmf.setNoSignedZeros(F.fastmath & FastMath::NoSignedZeros);
    fmf.setAllowReciprocal(F.fastmath & FastMath::AllowReciprocal);
    fmf.setAllowContract(F.fastmath & FastMath::Contract);
    fmf.setApproxFunc(F.fastmath & FastMath::ApproxFunc);
    B.setFastMathFlags(fmf);
  }
  allocateSlots();
  for (size_t i = 0; i < F.params.size(); ++i)
    if (slots[F.params[i]->id]) B.CreateStore(LF->getArg(unsigned(i + 2)), slots[F.params[i]->id]);
  block(F.body);
  if (!terminated()) {
    // Falling off the end returns None; for a function whose other paths
    // return a value, the result is zero (the typer accepted the function).
    if (F.returnType && F.returnType->isRuntime() && !F.returnType->isNone())
      B.CreateStore(zeroOf(F.returnType), retPtr);
    B.CreateRet(B.getInt32(0));
  }
  for (llvm::BasicBlock &bb : *LF)
    if (!bb.getTerminator()) {
      B.SetInsertPoint(&bb);
      B.CreateUnreachable();
    }
  // Remove the blocks that the entry cannot reach: code after break,
  // return or raise, with its loops and joins (a dead loop keeps its back
  // edge, so "no predecessors" is not enough).
  llvm::EliminateUnreachableBlocks(*LF);
}

void FunctionLowering::block(const ir::Block &b) {
  for (const Stmt *s : b) {
    if (terminated()) startDeadBlock();
    if (scope && s->loc.valid())
      B.SetCurrentDebugLocation(llvm::DILocation::get(C, s->loc.line, s->loc.col, scope));
    memo.clear();
    memoScopes.clear();
    stmt(s);
  }
}

void FunctionLowering::stmt(const Stmt *s) {
  switch (s->kind()) {
  case Kind::Assign: {
    auto *a = cast<Assign>(s);
    llvm::Value *v = expr(a->value);
    llvm::AllocaInst *slot = slots[a->var->id];
    if (slot && a->var->id < ownsArray.size() && ownsArray[a->var->id]) {
      // The array it held is its own: freed (a null one is not in the arena).
      llvm::Value *old = B.CreateExtractValue(B.CreateLoad(slot->getAllocatedType(), slot), {1u});
      B.CreateCall(P.runtime("kjit_rt_free"), {ctxPtr, old});
    }
    if (slot) B.CreateStore(v, slot);
    return;
  }
  case Kind::Store: arrayStore(cast<ir::Store>(s)); return;
  case Kind::If: {
    auto *i = cast<If>(s);
    llvm::Value *c = expr(i->cond);
    llvm::BasicBlock *thenBB = block("then"), *elseBB = block("else"), *merge = block("endif");
    B.CreateCondBr(c, thenBB, i->otherwise.empty() ? merge : elseBB);
    B.SetInsertPoint(thenBB);
    block(i->then);
    if (!terminated()) B.CreateBr(merge);
    B.SetInsertPoint(elseBB);
    block(i->otherwise);
    if (!terminated()) B.CreateBr(merge);
    B.SetInsertPoint(merge);
    return;
  }
  case Kind::While: whileLoop(cast<While>(s)); return;
  case Kind::ForRange: forRange(cast<ForRange>(s)); return;
  case Kind::Try: tryStmt(cast<Try>(s)); return;
  case Kind::Break: B.CreateBr(loops.back().brk); return;
  case Kind::Continue: B.CreateBr(loops.back().cont); return;
  case Kind::Return: {
    auto *r = cast<Return>(s);
    if (r->value && !r->value->type->isNone()) B.CreateStore(expr(r->value), retPtr);
    B.CreateRet(B.getInt32(0));
    return;
  }
  case Kind::Raise: {
    auto *r = cast<Raise>(s);
    emitRaise(r->excClass, r->message, r->loc);
    return;
  }
  case Kind::Eval: expr(cast<Eval>(s)->value); return;
  default: return;
  }
}

void FunctionLowering::whileLoop(const While *w) {
  llvm::BasicBlock *head = block("while.cond"), *body = block("while.body"),
                   *orelse = block("while.else"), *exit = block("while.end");
  B.CreateBr(head);
  B.SetInsertPoint(head);
  memo.clear();
  B.CreateCondBr(expr(w->cond), body, orelse);
  B.SetInsertPoint(body);
  loops.push_back({head, exit});
  block(w->body);
  loops.pop_back();
  if (!terminated()) B.CreateBr(head);
  B.SetInsertPoint(orelse);
  block(w->orelse);
  if (!terminated()) B.CreateBr(exit);
  B.SetInsertPoint(exit);
}

// A loop of at most 256 iterations, known when compiling, whose body indexes
// a tuple with a value computed at run time (`acc[i]` in `for i in
// range(64)`): unrolled whole, so that every index becomes a constant and the
// tuple stays in registers (a wgmma accumulator of 128 values would
// otherwise go through local memory, element by element).
bool FunctionLowering::unrollWhole(const ForRange *f) {
  auto *lo = dyn_cast<Const>(f->start), *hi = dyn_cast<Const>(f->stop);
  if (!lo || !hi || !lo->type || !hi->type || !lo->type->isInt() || !hi->type->isInt() ||
      f->constStep == 0)
    return false;
  int64_t span = hi->i - lo->i, step = f->constStep;
  int64_t trips = step > 0 ? (span + step - 1) / step : (span + step + 1) / step;
  if (trips <= 0 || trips > 256) return false;
  bool indexed = false;
  forEachNode(f->body, [&](const Node *n) {
    if (auto *g = dyn_cast<TupleGet>(n); g && g->dynIndex) indexed = true;
    if (auto *in = dyn_cast<Intrinsic>(n)) {
      // tuple_setitem(t, i, v) with an index known at run time.
      if (in->id == IntrinsicId::TupleSetitem && !isa<Const>(in->args[1])) indexed = true;
      // (And any loop of wgmma products: unrolled, their descriptors are
      // constants apart and nothing of the accumulator moves between them.)
      if (in->id == IntrinsicId::WgmmaMma) indexed = true;
    }
  });
  return indexed;
}

void FunctionLowering::forRange(const ForRange *f) {
  if (f->parallel) {
    parallelFor(f);
    return;
  }
  llvm::Value *start = expr(f->start);
  llvm::Value *stop = expr(f->stop);
  llvm::Value *step = expr(f->step);
  if (f->constStep == 0)
    raiseIf(B.CreateICmpEQ(step, i64(0)), "ValueError", "range() arg 3 must not be zero", f->loc);
  llvm::AllocaInst *counter = entryAlloca(B.getInt64Ty(), "range.i");
  B.CreateStore(start, counter);
  llvm::BasicBlock *head = block("for.cond"), *body = block("for.body"), *latch = block("for.inc"),
                   *orelse = block("for.else"), *exit = block("for.end");
  B.CreateBr(head);
  B.SetInsertPoint(head);
  llvm::Value *i = B.CreateLoad(B.getInt64Ty(), counter, "i");
  llvm::Value *cond;
  if (f->constStep > 0)
    cond = B.CreateICmpSLT(i, stop);
  else if (f->constStep < 0)
    cond = B.CreateICmpSGT(i, stop);
  else
    cond = B.CreateSelect(B.CreateICmpSGT(step, i64(0)), B.CreateICmpSLT(i, stop),
                          B.CreateICmpSGT(i, stop));
  B.CreateCondBr(cond, body, orelse);
  B.SetInsertPoint(body);
  if (slots[f->var->id]) B.CreateStore(i, slots[f->var->id]);
  loops.push_back({latch, exit});
  block(f->body);
  loops.pop_back();
  if (!terminated()) B.CreateBr(latch);
  B.SetInsertPoint(latch);
  llvm::Value *cur = B.CreateLoad(B.getInt64Ty(), counter);
  // (No signed wrap: the counter moves towards `stop` and stays within
  // int64 unless stop + step leaves it, where CPython's integers would not
  // wrap either. With it LLVM knows a grid-stride loop's index stays
  // non-negative and drops negative-index wraparound.)
  B.CreateStore(B.CreateAdd(cur, step, "i.next", false, true), counter);
  llvm::BranchInst *back = B.CreateBr(head);
  if (unrollWhole(f)) {
    llvm::MDNode *full = llvm::MDNode::get(C, {llvm::MDString::get(C, "llvm.loop.unroll.full")});
    llvm::MDNode *loop = llvm::MDNode::getDistinct(C, {nullptr, full});
    loop->replaceOperandWith(0, loop);
    back->setMetadata(llvm::LLVMContext::MD_loop, loop);
  }
  B.SetInsertPoint(orelse);
  block(f->orelse);
  if (!terminated()) B.CreateBr(exit);
  B.SetInsertPoint(exit);
}

}  // namespace lowering

// ---------------------------------------------------------------------------

std::string entrySymbol(const TypedProgram &prog, const LoweringOptions &opts) {
  return opts.moduleName + "." + prog.entry->symbol + (opts.cpuKernel ? "_cpukernel" : "_entry");
}

static llvm::Function *emitEntryWrapper(ProgramLowering &P, const ir::Function &f) {
  llvm::LLVMContext &C = P.C;
  llvm::Type *ptr = llvm::PointerType::getUnqual(C);
  auto *ft = llvm::FunctionType::get(llvm::Type::getInt32Ty(C), {ptr, ptr, ptr}, false);
  auto *w = llvm::Function::Create(ft, llvm::GlobalValue::ExternalLinkage,
                                   P.prefix + "." + f.symbol + "_entry", P.M);
  llvm::IRBuilder<> B(llvm::BasicBlock::Create(C, "entry", w));
  P.describeWrapper(w, f.name + "_entry", f.loc, B);
  llvm::Value *args = w->getArg(0), *ret = w->getArg(1), *ctx = w->getArg(2);
  std::vector<llvm::Value *> callArgs;
  const Type *rt = f.returnType;
  bool hasValue = rt && rt->isRuntime() && !rt->isNone();
  llvm::AllocaInst *slot = B.CreateAlloca(hasValue ? P.lt(rt) : B.getInt8Ty());
  callArgs.push_back(slot);
  callArgs.push_back(ctx);
  for (size_t i = 0; i < f.params.size(); ++i) {
    const Type *t = f.params[i]->type;
    llvm::Value *argPtr = B.CreateLoad(ptr, B.CreateConstGEP1_64(ptr, args, i));
    llvm::Value *v = lowering::fromMemForm(B, P, B.CreateLoad(P.memTy(t), argPtr), t);
    callArgs.push_back(v);
  }
  llvm::Value *status = B.CreateCall(P.functions.at(&f), callArgs);
  if (hasValue) {
    llvm::Value *v = B.CreateLoad(P.lt(rt), slot);
    B.CreateStore(lowering::toMemForm(B, P, v, rt), ret);
  }
  B.CreateRet(status);
  return w;
}

const char *nvptxDataLayout() { return "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"; }
const char *nvptxTriple() { return "nvptx64-nvidia-cuda"; }

std::unique_ptr<llvm::Module> lowerToLLVM(llvm::LLVMContext &llctx, const TypedProgram &prog,
                                          const SourceManager &sm, const LoweringOptions &opts) {
  auto mod = std::make_unique<llvm::Module>(opts.moduleName, llctx);
  bool amdgpu =
      prog.target == Target::CUDA && !opts.cpuKernel && opts.gpu == LoweringOptions::Gpu::AMDGPU;
  if (prog.target == Target::CUDA && !opts.cpuKernel && !amdgpu) {
    mod->setDataLayout(nvptxDataLayout());
    mod->setTargetTriple(nvptxTriple());
  } else if (!opts.dataLayout.empty()) {
    mod->setDataLayout(opts.dataLayout);
    mod->setTargetTriple(opts.triple);
  }
  ProgramLowering P(llctx, *mod, sm, opts.moduleName);
  P.cpuKernel = prog.target == Target::CUDA && opts.cpuKernel;
  P.cuda = prog.target == Target::CUDA && !P.cpuKernel;
  P.amdgpu = amdgpu;
  P.wavefront = amdgpu ? opts.wavefront : 32;
  P.gpuModel = prog.target == Target::CUDA;
  P.reportRaises = prog.target != Target::CUDA || prog.debug;
  if (opts.lineinfo) {
    P.di = std::make_unique<llvm::DIBuilder>(*mod);
    std::string path = prog.entry->loc.valid() ? sm.buffer(prog.entry->loc.file).name : "kernel.py";
    size_t slash = path.rfind('/');
    llvm::DIFile *file =
        P.di->createFile(slash == std::string::npos ? path : path.substr(slash + 1),
                         slash == std::string::npos ? "." : path.substr(0, slash));
    P.cu =
        P.di->createCompileUnit(llvm::dwarf::DW_LANG_Python, file, "kjit", true, "", 0, "",
                                P.cuda ? llvm::DICompileUnit::DebugEmissionKind::DebugDirectivesOnly
                                       : llvm::DICompileUnit::DebugEmissionKind::LineTablesOnly);
    mod->addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);
    mod->addModuleFlag(llvm::Module::Warning, "Dwarf Version", 4);
  }
  for (const ir::Function *f : prog.functions) P.declare(*f);
  for (const ir::Function *f : prog.functions) FunctionLowering(P, *f).run();
  // Host code (@njit, the CPU device): recursion checks its stack.
  if (!P.cuda) lowering::emitRecursionChecks(P);
  if (P.cuda) lowering::emitErrorTables(P);
  if (P.cpuKernel) {
    llvm::Function *thread = emitEntryWrapper(P, *prog.entry);
    lowering::emitCpuKernel(P, *prog.entry, thread, entrySymbol(prog, opts));
  } else if (!P.cuda) {
    emitEntryWrapper(P, *prog.entry);
  } else if (prog.kernel) {
    lowering::emitKernelEntry(P, *prog.entry);
  } else {
    // A device function: exported under its own name, with the internal
    // calling convention (status, result pointer, context, arguments).
    llvm::Function *fn = P.functions.at(prog.entry);
    fn->setLinkage(llvm::GlobalValue::ExternalLinkage);
    fn->setName(prog.entry->name);
    lowering::defineDeviceAllocator(P);
  }
  if (P.di) P.di->finalize();
  return mod;
}

}  // namespace kjit
