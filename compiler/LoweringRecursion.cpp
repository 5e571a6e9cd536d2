// LoweringRecursion.cpp - the stack check of recursive host functions.
//
// A function on a cycle of calls (recursion, direct or mutual) checks at its
// entry that the stack it runs on has room left: its stack pointer against
// the bounds in the call's KjitCallContext (runtime/host/HostRuntime.h,
// stackLimit and stackSpan at offsets 16 and 24). Past the limit, or on a
// stack that the context does not describe (a prange worker), it calls
// kjit_rt_stack_check, which looks at the running thread's own stack and
// raises RecursionError where that is full. Deep recursion then ends with
// an exception as in Python instead of a segmentation fault. Host code only
// (@njit and the CPU device); a GPU keeps its own limits.
#include <fmt/format.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <set>

#include "compiler/LoweringImpl.h"

namespace kjit::lowering {

namespace {

// The functions defined in `M` that a function uses (calls or takes the
// address of: a prange body passed to the runtime is reached too).
std::set<llvm::Function *> uses(llvm::Function *g) {
  std::set<llvm::Function *> out;
  for (llvm::BasicBlock &bb : *g)
    for (llvm::Instruction &inst : bb)
      for (llvm::Value *op : inst.operands())
        if (auto *h = llvm::dyn_cast<llvm::Function>(op->stripPointerCasts()))
          if (!h->isDeclaration()) out.insert(h);
  return out;
}

void emitCheck(ProgramLowering &P, const ir::Function &f, llvm::Function *fn) {
  llvm::LLVMContext &C = P.C;
  llvm::BasicBlock *entry = &fn->getEntryBlock();
  auto it = entry->begin();
  while (it != entry->end() && llvm::isa<llvm::AllocaInst>(*it)) ++it;
  llvm::BasicBlock *body = llvm::SplitBlock(entry, &*it);  // entry keeps the allocas
  llvm::BasicBlock *slow = llvm::BasicBlock::Create(C, "stack.check", fn, body);
  llvm::BasicBlock *full = llvm::BasicBlock::Create(C, "stack.full", fn, body);
  entry->getTerminator()->eraseFromParent();
  llvm::IRBuilder<> B(entry);
  if (llvm::DISubprogram *sp = fn->getSubprogram())
    B.SetCurrentDebugLocation(llvm::DILocation::get(C, f.loc.line, f.loc.col, sp));
  llvm::Value *ctx = fn->getArg(1);
  llvm::Type *i64 = B.getInt64Ty(), *ptr = B.getPtrTy();
  llvm::Value *sp = B.CreatePtrToInt(B.CreateStackSave("sp"), i64);
  llvm::Value *limit =
      B.CreateLoad(i64, B.CreateConstGEP1_64(B.getInt8Ty(), ctx, 16), "stack.limit");
  llvm::Value *span = B.CreateLoad(i64, B.CreateConstGEP1_64(B.getInt8Ty(), ctx, 24), "stack.span");
  // limit <= sp < limit + span, as one unsigned comparison.
  llvm::Value *ok = B.CreateICmpULT(B.CreateSub(sp, limit), span);
  B.CreateCondBr(ok, body, slow, llvm::MDBuilder(C).createBranchWeights(1 << 20, 1));
  B.SetInsertPoint(slow);
  auto *ft = llvm::FunctionType::get(B.getInt32Ty(), {ptr, i64, ptr, ptr, B.getInt32Ty()}, false);
  std::string file = f.loc.valid() ? P.sm.buffer(f.loc.file).name : "";
  llvm::Value *status =
      B.CreateCall(P.M.getOrInsertFunction("kjit_rt_stack_check", ft),
                   {ctx, sp, P.cstr(f.name), P.cstr(file), B.getInt32(f.loc.line)});
  B.CreateCondBr(B.CreateICmpEQ(status, B.getInt32(0)), body, full);
  B.SetInsertPoint(full);
  B.CreateRet(B.getInt32(1));
}

}  // namespace

void emitRecursionChecks(ProgramLowering &P) {
  std::map<llvm::Function *, std::set<llvm::Function *>> graph;
  for (llvm::Function &g : P.M)
    if (!g.isDeclaration()) graph[&g] = uses(&g);
  for (auto &[irFn, fn] : P.functions) {
    // On a cycle: `fn` reaches itself.
    std::set<llvm::Function *> seen;
    std::vector<llvm::Function *> work{fn};
    bool cycle = false;
    while (!work.empty() && !cycle) {
      llvm::Function *g = work.back();
      work.pop_back();
      for (llvm::Function *h : graph[g]) {
        if (h == fn) cycle = true;
        if (seen.insert(h).second) work.push_back(h);
      }
    }
    if (cycle) emitCheck(P, *irFn, fn);
  }
}

}  // namespace kjit::lowering
