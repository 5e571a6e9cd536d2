// BranchFp64Selects.cpp - float64 arithmetic that LLVM speculated into a
// select goes back under a branch, on NVIDIA GPUs.
//
// LLVM's O3 pipeline flattens short if/else arms into selects
// (SimplifyCFG): `r = odd ? fma(p, z2, 1) : fma(p, z, z)` becomes two fmas
// and a select. On a CPU that trades a possible branch miss for an ALU op. On
// an NVIDIA GPU the trade is poor for float64: every thread then runs both
// arms on the FP64 pipe, and the 64-bit select (SELP.F64) takes an FP64 issue
// slot too, while the branch only costs a branch-unit instruction; a warp
// whose lanes agree runs one arm. libdevice's sin and cos end in two such
// arms (the quadrant's polynomial and its sign), so a loop over
// `math.sin(...)` in float64 ran about 4 % more FP64 instructions (and
// cycles, clocks locked; measured with ncu on the H100) than NVVM's code,
// which keeps the branches. This pass, run after O3 on the NVPTX module only,
// puts back a branch around each float64 arithmetic arm that the select alone
// uses.
#include "targets/nvptx/BranchFp64Selects.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <vector>

namespace kjit::nvptx {

namespace {

// A float64 arithmetic instruction that has no side effects and whose only
// user is `sel`, in sel's block before it: it can run under a branch.
bool sinkableArm(llvm::Value *v, llvm::SelectInst *sel) {
  auto *in = llvm::dyn_cast<llvm::Instruction>(v);
  if (!in || in->getParent() != sel->getParent() || !in->hasOneUse() ||
      !in->getType()->isDoubleTy() || llvm::isa<llvm::PHINode>(in))
    return false;
  if (llvm::isa<llvm::BinaryOperator>(in) || llvm::isa<llvm::UnaryOperator>(in))
    return true;  // fadd, fsub, fmul, fdiv, frem, fneg (the type is double)
  if (auto *ii = llvm::dyn_cast<llvm::IntrinsicInst>(in)) {
    switch (ii->getIntrinsicID()) {
    case llvm::Intrinsic::fma:
    case llvm::Intrinsic::fmuladd:
    case llvm::Intrinsic::nvvm_fma_rn_d:
    case llvm::Intrinsic::nvvm_fma_rz_d:
    case llvm::Intrinsic::nvvm_fma_rm_d:
    case llvm::Intrinsic::nvvm_fma_rp_d:
    case llvm::Intrinsic::nvvm_mul_rn_d:
    case llvm::Intrinsic::nvvm_add_rn_d: return true;
    default: return false;
    }
  }
  return false;
}

}  // namespace

unsigned branchFp64Selects(llvm::Module &m) {
  unsigned turned = 0;
  for (llvm::Function &f : m) {
    if (f.isDeclaration()) continue;
    std::vector<llvm::SelectInst *> work;
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &in : bb)
        if (auto *sel = llvm::dyn_cast<llvm::SelectInst>(&in))
          if (sel->getType()->isDoubleTy() && sel->getCondition()->getType()->isIntegerTy(1) &&
              (sinkableArm(sel->getTrueValue(), sel) || sinkableArm(sel->getFalseValue(), sel)))
            work.push_back(sel);
    for (llvm::SelectInst *sel : work) {
      // An arm that another turned select moved is in another block now.
      bool sinkT = sinkableArm(sel->getTrueValue(), sel);
      bool sinkF = sinkableArm(sel->getFalseValue(), sel);
      if (!sinkT && !sinkF) continue;
      llvm::Value *cond = sel->getCondition();
      llvm::Instruction *thenTerm = nullptr, *elseTerm = nullptr;
      if (sinkT && sinkF) {
        llvm::SplitBlockAndInsertIfThenElse(cond, sel->getIterator(), &thenTerm, &elseTerm);
      } else if (sinkT) {
        thenTerm = llvm::SplitBlockAndInsertIfThen(cond, sel->getIterator(), false);
      } else {
        llvm::IRBuilder<> b(sel);
        elseTerm = llvm::SplitBlockAndInsertIfThen(b.CreateNot(cond), sel->getIterator(), false);
      }
      llvm::BasicBlock *join = sel->getParent();
      auto incoming = [&](llvm::Instruction *term, llvm::Value *arm) {
        llvm::cast<llvm::Instruction>(arm)->moveBefore(term);
        return std::make_pair(arm, term->getParent());
      };
      llvm::PHINode *phi = llvm::PHINode::Create(sel->getType(), 2, sel->getName(), join->begin());
      // The block the condition is tested in: where an arm that stays is
      // computed, and the edge that skips a moved one.
      llvm::BasicBlock *from = thenTerm ? thenTerm->getParent()->getSinglePredecessor()
                                        : elseTerm->getParent()->getSinglePredecessor();
      if (thenTerm) {
        auto [v, b] = incoming(thenTerm, sel->getTrueValue());
        phi->addIncoming(v, b);
      } else {
        phi->addIncoming(sel->getTrueValue(), from);
      }
      if (elseTerm) {
        auto [v, b] = incoming(elseTerm, sel->getFalseValue());
        phi->addIncoming(v, b);
      } else {
        phi->addIncoming(sel->getFalseValue(), from);
      }
      sel->replaceAllUsesWith(phi);
      sel->eraseFromParent();
      ++turned;
    }
  }
  return turned;
}

}  // namespace kjit::nvptx
