// Lowering.cpp - typed IR to LLVM IR: functions, statements, scalars, calls.
// Arrays are in LoweringArrays.cpp.
#include "compiler/Lowering.h"

#include <fmt/format.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

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
    return t->bits() == 16 ? llvm::Type::getHalfTy(C)
           : t->bits() == 32 ? llvm::Type::getFloatTy(C)
                             : llvm::Type::getDoubleTy(C);
  case TypeKind::Complex: {
    llvm::Type *p = lt(t->complexPart());
    return llvm::StructType::get(C, {p, p});
  }
  case TypeKind::Array: return arrayTy(t->ndim());
  case TypeKind::Tuple: {
    std::vector<llvm::Type *> elems;
    for (const Type *e : t->elements()) elems.push_back(lt(e));
    return llvm::StructType::get(C, elems);
  }
  default: return llvm::Type::getInt8Ty(C);  // none and compile-time values: a placeholder
  }
}

llvm::Type *ProgramLowering::memTy(const Type *t) {
  if (t->isBool()) return llvm::Type::getInt8Ty(C);
  if (t->isTuple()) {
    std::vector<llvm::Type *> elems;
    for (const Type *e : t->elements()) elems.push_back(memTy(e));
    return llvm::StructType::get(C, elems);
  }
  return lt(t);
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
  if (n == "kjit_rt_alloc") ft = llvm::FunctionType::get(ptr, {ptr, i64}, false);
  else if (n == "kjit_rt_free") ft = llvm::FunctionType::get(v, {ptr, ptr}, false);
  else if (n == "kjit_rt_raise") ft = llvm::FunctionType::get(v, {ptr, ptr, ptr, ptr, i32}, false);
  else if (n == "kjit_rt_raise_index") ft = llvm::FunctionType::get(v, {ptr, i64, i64, i64, ptr, i32}, false);
  else if (n == "kjit_rt_num_chunks") ft = llvm::FunctionType::get(i64, {ptr}, false);
  else if (n == "kjit_rt_parallel_for") ft = llvm::FunctionType::get(i32, {ptr, ptr, ptr, i64, i64}, false);
  else if (n == "kjit_rt_print_i64" || n == "kjit_rt_print_u64") ft = llvm::FunctionType::get(v, {i64}, false);
  else if (n == "kjit_rt_print_f64") ft = llvm::FunctionType::get(v, {f64}, false);
  else if (n == "kjit_rt_print_bool") ft = llvm::FunctionType::get(v, {i32}, false);
  else if (n == "kjit_rt_print_complex") ft = llvm::FunctionType::get(v, {f64, f64}, false);
  else if (n == "kjit_rt_print_str") ft = llvm::FunctionType::get(v, {ptr}, false);
  else if (n == "kjit_rt_print_end") ft = llvm::FunctionType::get(v, {}, false);
  else if (n == "kjit_cpu_sync") ft = llvm::FunctionType::get(i32, {ptr, i32, i32, ptr, i32, i32}, false);
  else if (n == "kjit_cpu_warp") ft = llvm::FunctionType::get(i64, {ptr, i32, i32, i64, i32, ptr, i32, i32}, false);
  else if (n == "kjit_cpu_activemask") ft = llvm::FunctionType::get(i32, {ptr}, false);
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
  return di->createFunction(file, name, name, file, loc.line, type, loc.line, llvm::DINode::FlagZero,
                            llvm::DISubprogram::SPFlagDefinition);
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
  auto *fn = llvm::Function::Create(ft, llvm::GlobalValue::InternalLinkage, prefix + "." + f.symbol, M);
  fn->getArg(0)->setName("ret");
  fn->getArg(0)->addAttr(llvm::Attribute::NoAlias);
  fn->getArg(1)->setName("ctx");
  for (size_t i = 0; i < f.params.size(); ++i) fn->getArg(unsigned(i + 2))->setName(f.params[i]->name);
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

FunctionLowering::FunctionLowering(ProgramLowering &p, const ir::Function &f, llvm::Function *target,
                                   llvm::Value *ctx)
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

void FunctionLowering::startDeadBlock() { B.SetInsertPoint(block("dead")); }

void FunctionLowering::emitRaise(const std::string &exc, const std::string &msg, SourceLoc loc) {
  if (P.cuda) {
    // A raise in a kernel stops the kernel (the launch fails).
    B.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
    B.CreateRet(B.getInt32(1));
    return;
  }
  std::string file = loc.valid() ? P.sm.buffer(loc.file).name : "";
  B.CreateCall(P.runtime("kjit_rt_raise"),
               {ctxPtr, P.cstr(exc), P.cstr(msg), P.cstr(file), B.getInt32(loc.line)});
  B.CreateRet(B.getInt32(1));
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
  B.CreateRet(status);
  B.SetInsertPoint(cont);
}

// Register form (bool as i1) to memory form (bool as i8), through tuples.
llvm::Value *toMemForm(llvm::IRBuilder<> &B, ProgramLowering &P, llvm::Value *v, const Type *t) {
  if (t->isBool()) return B.CreateZExt(v, B.getInt8Ty());
  if (t->isTuple()) {
    llvm::Value *r = llvm::UndefValue::get(P.memTy(t));
    for (unsigned i = 0; i < t->elements().size(); ++i)
      r = B.CreateInsertValue(r, toMemForm(B, P, B.CreateExtractValue(v, {i}), t->elements()[i]), {i});
    return r;
  }
  return v;
}

llvm::Value *fromMemForm(llvm::IRBuilder<> &B, ProgramLowering &P, llvm::Value *v, const Type *t) {
  if (t->isBool()) return B.CreateICmpNE(v, B.getInt8(0));
  if (t->isTuple()) {
    llvm::Value *r = llvm::UndefValue::get(P.lt(t));
    for (unsigned i = 0; i < t->elements().size(); ++i)
      r = B.CreateInsertValue(r, fromMemForm(B, P, B.CreateExtractValue(v, {i}), t->elements()[i]), {i});
    return r;
  }
  return v;
}

llvm::Value *FunctionLowering::toMem(llvm::Value *v, const Type *t) { return toMemForm(B, P, v, t); }
llvm::Value *FunctionLowering::fromMem(llvm::Value *v, const Type *t) { return fromMemForm(B, P, v, t); }

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
  // Remove unreachable blocks left by break/return/raise.
  for (auto it = LF->begin(); it != LF->end();) {
    llvm::BasicBlock &bb = *it++;
    if (&bb != &LF->getEntryBlock() && llvm::pred_empty(&bb)) {
      bb.dropAllReferences();
    }
  }
  for (auto it = LF->begin(); it != LF->end();) {
    llvm::BasicBlock &bb = *it++;
    if (&bb != &LF->getEntryBlock() && llvm::pred_empty(&bb)) bb.eraseFromParent();
  }
  for (llvm::BasicBlock &bb : *LF)
    if (!bb.getTerminator()) {
      B.SetInsertPoint(&bb);
      B.CreateUnreachable();
    }
}

void FunctionLowering::block(const ir::Block &b) {
  for (const Stmt *s : b) {
    if (terminated()) startDeadBlock();
    if (scope && s->loc.valid()) B.SetCurrentDebugLocation(llvm::DILocation::get(C, s->loc.line, s->loc.col, scope));
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

void FunctionLowering::forRange(const ForRange *f) {
  if (f->parallel) {
    parallelFor(f);
    return;
  }
  llvm::Value *start = expr(f->start);
  llvm::Value *stop = expr(f->stop);
  llvm::Value *step = expr(f->step);
  if (f->constStep == 0) raiseIf(B.CreateICmpEQ(step, i64(0)), "ValueError", "range() arg 3 must not be zero", f->loc);
  llvm::AllocaInst *counter = entryAlloca(B.getInt64Ty(), "range.i");
  B.CreateStore(start, counter);
  llvm::BasicBlock *head = block("for.cond"), *body = block("for.body"), *latch = block("for.inc"),
                   *orelse = block("for.else"), *exit = block("for.end");
  B.CreateBr(head);
  B.SetInsertPoint(head);
  llvm::Value *i = B.CreateLoad(B.getInt64Ty(), counter, "i");
  llvm::Value *cond;
  if (f->constStep > 0) cond = B.CreateICmpSLT(i, stop);
  else if (f->constStep < 0) cond = B.CreateICmpSGT(i, stop);
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
  B.CreateStore(B.CreateAdd(cur, step, "i.next", false, f->constStep > 0), counter);
  B.CreateBr(head);
  B.SetInsertPoint(orelse);
  block(f->orelse);
  if (!terminated()) B.CreateBr(exit);
  B.SetInsertPoint(exit);
}

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
    auto *gv = new llvm::GlobalVariable(P.M, init->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                        init, "const_array", nullptr, llvm::GlobalValue::NotThreadLocal,
                                        P.cuda ? 4 : 0);
    gv->setAlignment(llvm::Align(64));
    llvm::Value *desc = llvm::Constant::getNullValue(P.lt(t));
    desc = B.CreateInsertValue(desc, P.cuda ? B.CreateAddrSpaceCast(gv, llvm::PointerType::getUnqual(C))
                                            : static_cast<llvm::Value *>(gv), {1u});
    int64_t stride = t->dtype()->isBool() ? 1 : t->dtype()->bits() / 8;
    for (unsigned k = unsigned(c->shape.size()); k-- > 0;) {
      desc = B.CreateInsertValue(desc, i64(c->shape[k]), {2u, k});
      desc = B.CreateInsertValue(desc, i64(stride), {3u, k});
      stride *= c->shape[k];
    }
    return desc;
  }
  if (t->isBool()) return B.getInt1(c->i != 0);
  if (t->isInt()) return B.getIntN(t->bits(), uint64_t(c->i));
  if (t->isFloat()) return llvm::ConstantFP::get(P.lt(t), c->f);
  if (t->isComplex()) {
    llvm::Type *p = P.lt(t->complexPart());
    return llvm::ConstantStruct::get(llvm::cast<llvm::StructType>(P.lt(t)),
                                     {llvm::ConstantFP::get(p, c->f), llvm::ConstantFP::get(p, c->im)});
  }
  return llvm::Constant::getNullValue(P.lt(t));
}

llvm::Value *FunctionLowering::convert(llvm::Value *v, const Type *from, const Type *to) {
  if (from == to) return v;
  if (from->isArray() && to->isArray()) return v;
  if (to->isBool()) {
    if (from->isFloat()) return B.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));
    if (from->isComplex()) {
      llvm::Value *z = llvm::ConstantFP::get(P.lt(from->complexPart()), 0.0);
      return B.CreateOr(B.CreateFCmpUNE(B.CreateExtractValue(v, {0}), z),
                        B.CreateFCmpUNE(B.CreateExtractValue(v, {1}), z));
    }
    return B.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
  }
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
      // Saturating, so that out-of-range values are not poison.
      auto id = to->isSigned() ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
      return B.CreateIntrinsic(id, {dst, v->getType()}, {v});
    }
    return fromSigned ? B.CreateSExtOrTrunc(v, dst) : B.CreateZExtOrTrunc(v, dst);
  }
  // to float
  if (from->isFloat()) return B.CreateFPCast(v, dst);
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
    return convert(expr(c->value), c->value->type, c->type);
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
    for (unsigned i = 0; i < t->elems.size(); ++i) r = B.CreateInsertValue(r, expr(t->elems[i]), {i});
    return r;
  }
  case Kind::TupleGet: {
    auto *g = cast<TupleGet>(e);
    if (!g->dynIndex) return B.CreateExtractValue(expr(g->tuple), {g->index});
    llvm::Value *tv = expr(g->tuple);
    llvm::Value *i = expr(g->dynIndex);
    auto n = int64_t(g->tuple->type->elements().size());
    i = B.CreateSelect(B.CreateICmpSLT(i, i64(0)), B.CreateAdd(i, i64(n)), i);
    raiseIf(B.CreateICmpUGE(i, i64(n)), "IndexError", "tuple index out of range", g->loc);
    llvm::Type *et = P.lt(g->type);
    llvm::AllocaInst *slots = entryAlloca(llvm::ArrayType::get(et, uint64_t(n)), "tuple");
    for (int64_t k = 0; k < n; ++k)
      B.CreateStore(B.CreateExtractValue(tv, {unsigned(k)}), B.CreateConstInBoundsGEP2_64(slots->getAllocatedType(), slots, 0, uint64_t(k)));
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
      raiseIf(byZero, "ZeroDivisionError", div ? "integer division by zero" : "integer modulo by zero", loc);
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
      llvm::Value *adjust = B.CreateAnd(B.CreateICmpNE(rem, zero), B.CreateICmpSLT(B.CreateXor(rem, r), zero));
      if (div) {
        llvm::Value *fq = B.CreateSelect(adjust, B.CreateSub(q, llvm::ConstantInt::get(q->getType(), 1)), q);
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
    bool negL = llvm::PatternMatch::match(l, llvm::PatternMatch::m_FNeg(llvm::PatternMatch::m_Value(x)));
    bool negR = llvm::PatternMatch::match(r, llvm::PatternMatch::m_FNeg(llvm::PatternMatch::m_Value(y)));
    if (negL != negR) return B.CreateFNeg(B.CreateFMul(negL ? x : l, negR ? y : r));
    return B.CreateFMul(l, r);
  }
  case BinOp::Div:
    if (!numpyErrors()) raiseIf(B.CreateFCmpOEQ(r, zero), "ZeroDivisionError", "division by zero", loc);
    return B.CreateFDiv(l, r);
  case BinOp::FloorDiv:
  case BinOp::Mod: {
    bool div = op == BinOp::FloorDiv;
    if (!numpyErrors())
      raiseIf(B.CreateFCmpOEQ(r, zero), "ZeroDivisionError", div ? "division by zero" : "modulo by zero", loc);
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
    llvm::Value *dz = B.CreateIntrinsic(llvm::Intrinsic::copysign, {ft}, {zero, B.CreateFDiv(l, r)});
    llvm::Value *q = B.CreateSelect(B.CreateFCmpUNE(d, zero), fl, dz);
    // NumPy's x // 0.0: x / 0.0 (inf, -inf or nan).
    if (numpyErrors()) q = B.CreateSelect(B.CreateFCmpOEQ(r, zero), B.CreateFDiv(l, r), q);
    return q;
  }
  default: (void)t; return zero;
  }
}

llvm::Value *FunctionLowering::complexBinary(BinOp op, llvm::Value *l, llvm::Value *r, const Type *t,
                                             SourceLoc loc) {
  llvm::Value *a = B.CreateExtractValue(l, {0}), *b = B.CreateExtractValue(l, {1});
  llvm::Value *c = B.CreateExtractValue(r, {0}), *d = B.CreateExtractValue(r, {1});
  llvm::Value *re, *im;
  switch (op) {
  case BinOp::Add: re = B.CreateFAdd(a, c); im = B.CreateFAdd(b, d); break;
  case BinOp::Sub: re = B.CreateFSub(a, c); im = B.CreateFSub(b, d); break;
  case BinOp::Mul:
    re = B.CreateFSub(B.CreateFMul(a, c), B.CreateFMul(b, d));
    im = B.CreateFAdd(B.CreateFMul(a, d), B.CreateFMul(b, c));
    break;
  default: {  // Div
    llvm::Value *zero = llvm::ConstantFP::get(a->getType(), 0.0);
    if (!numpyErrors())
      raiseIf(B.CreateAnd(B.CreateFCmpOEQ(c, zero), B.CreateFCmpOEQ(d, zero)), "ZeroDivisionError",
              "complex division by zero", loc);
    llvm::Value *den = B.CreateFAdd(B.CreateFMul(c, c), B.CreateFMul(d, d));
    re = B.CreateFDiv(B.CreateFAdd(B.CreateFMul(a, c), B.CreateFMul(b, d)), den);
    im = B.CreateFDiv(B.CreateFSub(B.CreateFMul(b, c), B.CreateFMul(a, d)), den);
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
  llvm::BasicBlock *from = B.GetInsertBlock(), *rhsBB = block("logic.rhs"), *merge = block("logic.end");
  if (l->isAnd) B.CreateCondBr(truth, rhsBB, merge);
  else B.CreateCondBr(truth, merge, rhsBB);
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
  default: return nullptr;
  }
}

llvm::Value *FunctionLowering::mathCall(IntrinsicId id, std::vector<llvm::Value *> args, const Type *t) {
  llvm::Type *ft = P.lt(t);
  bool f32 = t->bits() == 32;
  if (P.cuda) {
    std::string nv = libdeviceName(id, f32);
    // fastmath: libdevice's approximate float32 functions (sin.approx ...).
    static const char *const fast[] = {"__nv_sinf", "__nv_cosf", "__nv_tanf", "__nv_expf", "__nv_exp10f",
                                       "__nv_logf", "__nv_log2f", "__nv_log10f", "__nv_powf"};
    if (F.fastmath && f32)
      for (const char *name : fast)
        if (nv == name) nv = "__nv_fast_" + nv.substr(5);
    if (!nv.empty()) {
      std::vector<llvm::Type *> params(args.size(), ft);
      return B.CreateCall(P.M.getOrInsertFunction(nv, llvm::FunctionType::get(ft, params, false)), args);
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
  case IntrinsicId::Fabs: return llvmIntrinsic(llvm::Intrinsic::fabs);
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
  if (!base) return args[0];
  std::string name = std::string(base) + (f32 ? "f" : "");
  std::vector<llvm::Type *> params(args.size(), ft);
  llvm::FunctionCallee fn = P.M.getOrInsertFunction(name, llvm::FunctionType::get(ft, params, false));
  if (auto *f = llvm::dyn_cast<llvm::Function>(fn.getCallee())) {
    f->setDoesNotThrow();
    f->setOnlyAccessesArgMemory();
  }
  return B.CreateCall(fn, args);
}

llvm::Value *FunctionLowering::intPow(llvm::Value *a, llvm::Value *b, const Type *t, SourceLoc loc) {
  llvm::Type *it = a->getType();
  llvm::Value *zero = llvm::ConstantInt::get(it, 0), *one = llvm::ConstantInt::get(it, 1);
  llvm::BasicBlock *from = B.GetInsertBlock();
  llvm::BasicBlock *negBB = block("ipow.neg"), *loopBB = block("ipow.loop"), *done = block("ipow.done");
  llvm::Value *negExp = t->isSigned() ? B.CreateICmpSLT(b, zero) : B.getFalse();
  B.CreateCondBr(negExp, negBB, loopBB);
  // Negative exponent, as Numba: 0 raises, 1 and -1 keep magnitude 1, else 0.
  B.SetInsertPoint(negBB);
  raiseIf(B.CreateICmpEQ(a, zero), "ZeroDivisionError", "0 cannot be raised to a negative power", loc);
  llvm::Value *isOne = B.CreateICmpEQ(a, one);
  llvm::Value *isMinusOne = B.CreateICmpEQ(a, llvm::ConstantInt::getSigned(it, -1));
  llvm::Value *odd = B.CreateICmpNE(B.CreateAnd(b, one), zero);
  llvm::Value *negResult =
      B.CreateSelect(isOne, one, B.CreateSelect(isMinusOne, B.CreateSelect(odd, llvm::ConstantInt::getSigned(it, -1), one), zero));
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
  llvm::BasicBlock *pre = B.GetInsertBlock(), *loop = block("powi.loop"), *done = block("powi.done");
  B.CreateCondBr(B.CreateICmpEQ(e0, i64(0)), done, loop);
  B.SetInsertPoint(loop);
  llvm::PHINode *acc = B.CreatePHI(ft, 2), *base = B.CreatePHI(ft, 2), *e = B.CreatePHI(B.getInt64Ty(), 2);
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
  bool first = true;
  for (const Expr *a : in->args) {
    if (!first) B.CreateCall(P.runtime("kjit_rt_print_str"), {P.cstr(" ")});
    first = false;
    const Type *t = a->type;
    if (t->kind() == TypeKind::StringLit) {
      B.CreateCall(P.runtime("kjit_rt_print_str"), {P.cstr(t->symbol())});
    } else if (t->isNone()) {
      B.CreateCall(P.runtime("kjit_rt_print_str"), {P.cstr("None")});
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

llvm::Value *FunctionLowering::intrinsic(const Intrinsic *in) {
  const Type *t = in->type;
  if (in->id >= IntrinsicId::ThreadIdx && in->id <= IntrinsicId::Ffs) {
    if (P.cpuKernel)
      if (llvm::Value *v = cpuKernelIntrinsic(in)) return v;
    return cudaIntrinsic(in);
  }
  switch (in->id) {
  case IntrinsicId::Print:
    if (P.cuda) cudaPrint(in);
    else print(in);
    return zeroOf(t);
  case IntrinsicId::IntPow: return intPow(expr(in->args[0]), expr(in->args[1]), t, in->loc);
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
      return mathCall(IntrinsicId::Hypot, {B.CreateExtractValue(v, {0}), B.CreateExtractValue(v, {1})}, t);
    if (at->isFloat()) return B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v);
    if (!at->isSigned()) return v;
    return B.CreateSelect(B.CreateICmpSLT(v, llvm::ConstantInt::get(v->getType(), 0)), B.CreateNeg(v), v);
  }
  case IntrinsicId::Min:
  case IntrinsicId::Max: {
    // Python's min/max: the first argument unless the second is strictly
    // smaller (larger), so NaN handling follows the argument order.
    llvm::Value *a = expr(in->args[0]), *b = expr(in->args[1]);
    bool isMax = in->id == IntrinsicId::Max;
    llvm::Value *better;
    if (t->isFloat()) better = isMax ? B.CreateFCmpOGT(b, a) : B.CreateFCmpOLT(b, a);
    else if (t->isInt() && t->isSigned()) better = isMax ? B.CreateICmpSGT(b, a) : B.CreateICmpSLT(b, a);
    else better = isMax ? B.CreateICmpUGT(b, a) : B.CreateICmpULT(b, a);
    return B.CreateSelect(better, b, a);
  }
  case IntrinsicId::ComplexMake: {
    llvm::Value *r = llvm::UndefValue::get(P.lt(t));
    r = B.CreateInsertValue(r, convert(expr(in->args[0]), in->args[0]->type, t->complexPart()), {0});
    return B.CreateInsertValue(r, convert(expr(in->args[1]), in->args[1]->type, t->complexPart()), {1});
  }
  case IntrinsicId::Real: return B.CreateExtractValue(expr(in->args[0]), {0});
  case IntrinsicId::Imag: return B.CreateExtractValue(expr(in->args[0]), {1});
  case IntrinsicId::ArrayShape:
  case IntrinsicId::ArrayStride:
  case IntrinsicId::ArrayAlloc:
  case IntrinsicId::ArrayTranspose:
  case IntrinsicId::ArrayFill:
  case IntrinsicId::ArrayArange:
  case IntrinsicId::ArrayCopy:
  case IntrinsicId::ArraySum:
  case IntrinsicId::ArrayProd:
  case IntrinsicId::ArrayMin:
  case IntrinsicId::ArrayMax: return arrayIntrinsic(in);
  default: break;
  }
  std::vector<llvm::Value *> args;
  for (const Expr *a : in->args) args.push_back(expr(a));
  return mathCall(in->id, args, t);
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
  if (prog.target == Target::CUDA && !opts.cpuKernel) {
    mod->setDataLayout(nvptxDataLayout());
    mod->setTargetTriple(nvptxTriple());
  } else if (!opts.dataLayout.empty()) {
    mod->setDataLayout(opts.dataLayout);
    mod->setTargetTriple(opts.triple);
  }
  ProgramLowering P(llctx, *mod, sm, opts.moduleName);
  P.cpuKernel = prog.target == Target::CUDA && opts.cpuKernel;
  P.cuda = prog.target == Target::CUDA && !P.cpuKernel;
  P.gpuModel = prog.target == Target::CUDA;
  if (opts.lineinfo) {
    P.di = std::make_unique<llvm::DIBuilder>(*mod);
    std::string path = prog.entry->loc.valid() ? sm.buffer(prog.entry->loc.file).name : "kernel.py";
    size_t slash = path.rfind('/');
    llvm::DIFile *file = P.di->createFile(slash == std::string::npos ? path : path.substr(slash + 1),
                                          slash == std::string::npos ? "." : path.substr(0, slash));
    P.cu = P.di->createCompileUnit(llvm::dwarf::DW_LANG_Python, file, "kjit", true, "", 0, "",
                                   P.cuda ? llvm::DICompileUnit::DebugEmissionKind::DebugDirectivesOnly
                                          : llvm::DICompileUnit::DebugEmissionKind::LineTablesOnly);
    mod->addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);
    mod->addModuleFlag(llvm::Module::Warning, "Dwarf Version", 4);
  }
  for (const ir::Function *f : prog.functions) P.declare(*f);
  for (const ir::Function *f : prog.functions) FunctionLowering(P, *f).run();
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
  }
  if (P.di) P.di->finalize();
  return mod;
}

}  // namespace kjit
