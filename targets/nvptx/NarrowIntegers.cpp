// NarrowIntegers.cpp - integer narrowing for NVIDIA GPUs, on LLVM IR.
//
// This is a pass over LLVM IR, not the typed IR: it needs LLVM's scalar
// evolution to prove that an int64 value fits in 32 bits, which the typed IR
// cannot, and it only pays on NVPTX (64-bit integer arithmetic and
// conversions are slower there than on the CPU). So it lives with the NVPTX
// target, which runs it on the lowered module before the code generator.
#include "targets/nvptx/NarrowIntegers.h"

#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>

#include <map>
#include <set>

namespace kjit::nvptx {

namespace {

// A 64-bit integer converted to floating point costs several times a 32-bit
// one on NVIDIA GPUs (I2F.S64 is not full rate). Python's loop indices are
// int64, so `float32(k)` in `for k in range(64)` would pay it where nvcc's
// `int k` does not: convert from 32 bits wherever the value provably fits.
void narrowIntToFloat(llvm::Function &f, llvm::ScalarEvolution &se) {
  std::vector<llvm::CastInst *> work;
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &in : bb) {
      if (!(llvm::isa<llvm::SIToFPInst>(in) || llvm::isa<llvm::UIToFPInst>(in)) ||
          !in.getOperand(0)->getType()->isIntegerTy(64))
        continue;
      llvm::ConstantRange r = se.getSignedRange(se.getSCEV(in.getOperand(0)));
      bool fits = r.getSignedMin().sge(INT32_MIN) && r.getSignedMax().sle(INT32_MAX);
      // An unsigned conversion reads the bits as unsigned: only a
      // non-negative range keeps its value.
      if (fits && llvm::isa<llvm::UIToFPInst>(in) && r.getSignedMin().isNegative()) fits = false;
      if (fits) work.push_back(llvm::cast<llvm::CastInst>(&in));
    }
  for (llvm::CastInst *c : work) {
    llvm::IRBuilder<> b(c);
    llvm::Value *narrow = b.CreateTrunc(c->getOperand(0), b.getInt32Ty());
    c->replaceAllUsesWith(b.CreateSIToFP(narrow, c->getType()));
    c->eraseFromParent();
  }
}

// Python's range() counts in int64. A loop counter whose values provably
// fit in 32 bits, and that is only counted, compared and truncated (after
// narrowIntToFloat, `float32(k)` is a truncation), counts in 32 bits: one
// instruction a step instead of two and no conversion, as nvcc's `int k`.
void narrowInductionVariables(llvm::Function &f, llvm::ScalarEvolution &se) {
  llvm::Type *i32 = llvm::Type::getInt32Ty(f.getContext());
  std::vector<llvm::PHINode *> phis;
  for (llvm::BasicBlock &bb : f)
    for (llvm::PHINode &p : bb.phis())
      if (p.getType()->isIntegerTy(64)) phis.push_back(&p);
  if (phis.empty()) return;
  auto range = [&](llvm::Value *v) { return se.getSignedRange(se.getSCEV(v)); };
  auto fits = [&](llvm::Value *v) {
    llvm::ConstantRange r = range(v);
    return r.getSignedMin().sge(INT32_MIN) && r.getSignedMax().sle(INT32_MAX);
  };
  auto smallConst = [](llvm::Value *v) {
    auto *c = llvm::dyn_cast<llvm::ConstantInt>(v);
    return c && c->getBitWidth() == 64 && c->getSExtValue() >= INT32_MIN &&
           c->getSExtValue() <= INT32_MAX;
  };
  struct Plan {
    std::vector<llvm::Instruction *>
        members;  // the counter's phis and the sums of it and constants
    std::set<llvm::Value *> in;
    std::vector<llvm::Instruction *> users;  // truncations and comparisons
  };
  std::vector<Plan> plans;
  std::set<llvm::Value *> taken;
  for (llvm::PHINode *phi : phis) {
    if (taken.count(phi) || !llvm::isa<llvm::SCEVAddRecExpr>(se.getSCEV(phi))) continue;
    Plan pl;
    pl.members.push_back(phi);
    pl.in.insert(phi);
    std::set<llvm::Instruction *> userSet;
    bool ok = true;
    for (size_t i = 0; ok && i < pl.members.size(); ++i) {
      llvm::Instruction *v = pl.members[i];
      if (!fits(v)) ok = false;
      bool nonNegative = !range(v).getSignedMin().isNegative();
      for (llvm::User *u : v->users()) {
        auto *ui = llvm::dyn_cast<llvm::Instruction>(u);
        if (!ui || !ok) {
          ok = false;
          break;
        }
        if (pl.in.count(ui)) continue;
        if (auto *p = llvm::dyn_cast<llvm::PHINode>(ui)) {
          if (p->getType()->isIntegerTy(64) && !taken.count(p)) {
            pl.in.insert(p);
            pl.members.push_back(p);
            continue;
          }
        } else if (auto *bo = llvm::dyn_cast<llvm::BinaryOperator>(ui)) {
          // (An unrolled loop's k + 1 is often `or disjoint k, 1`.)
          bool disjointOr = bo->getOpcode() == llvm::Instruction::Or &&
                            llvm::cast<llvm::PossiblyDisjointInst>(bo)->isDisjoint();
          bool addSub = bo->getOpcode() == llvm::Instruction::Add ||
                        bo->getOpcode() == llvm::Instruction::Sub || disjointOr;
          llvm::Value *other = bo->getOperand(0) == v ? bo->getOperand(1) : bo->getOperand(0);
          if (addSub && smallConst(other)) {
            pl.in.insert(bo);
            pl.members.push_back(bo);
            continue;
          }
        } else if (auto *tr = llvm::dyn_cast<llvm::TruncInst>(ui)) {
          if (tr->getType()->getIntegerBitWidth() <= 32) {
            userSet.insert(tr);
            continue;
          }
        } else if (auto *cmp = llvm::dyn_cast<llvm::ICmpInst>(ui)) {
          llvm::Value *other = cmp->getOperand(0) == v ? cmp->getOperand(1) : cmp->getOperand(0);
          bool otherOk = pl.in.count(other) || smallConst(other);
          bool signOk = cmp->isEquality() || cmp->isSigned() ||
                        (nonNegative && (!llvm::isa<llvm::ConstantInt>(other) ||
                                         !llvm::cast<llvm::ConstantInt>(other)->isNegative()));
          if (otherOk && signOk) {
            userSet.insert(cmp);
            continue;
          }
        }
        ok = false;
      }
    }
    // Comparisons between members must stay among members.
    for (llvm::Instruction *u : userSet)
      if (auto *cmp = llvm::dyn_cast<llvm::ICmpInst>(u))
        for (llvm::Value *op : cmp->operands())
          if (!pl.in.count(op) && !smallConst(op)) ok = false;
    if (!ok) continue;
    pl.users.assign(userSet.begin(), userSet.end());
    for (llvm::Instruction *i : pl.members) taken.insert(i);
    plans.push_back(std::move(pl));
  }
  for (Plan &pl : plans) {
    std::map<llvm::Value *, llvm::Value *> narrow;
    for (llvm::Instruction *i : pl.members)
      if (auto *p = llvm::dyn_cast<llvm::PHINode>(i))
        narrow[p] = llvm::PHINode::Create(i32, p->getNumIncomingValues(), p->getName() + ".i32",
                                          p->getIterator());
    auto operand = [&](llvm::Value *v, llvm::Instruction *before) -> llvm::Value * {
      if (auto it = narrow.find(v); it != narrow.end()) return it->second;
      if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(v))
        return llvm::ConstantInt::getSigned(i32, c->getSExtValue());
      return llvm::IRBuilder<>(before).CreateTrunc(
          v, i32);  // a start value that fits (its phi's range does)
    };
    // Sums in the order found: each one's counter operand comes first.
    bool progress = true;
    while (progress) {
      progress = false;
      for (llvm::Instruction *i : pl.members) {
        auto *bo = llvm::dyn_cast<llvm::BinaryOperator>(i);
        if (!bo || narrow.count(bo)) continue;
        llvm::Value *a = bo->getOperand(0), *b = bo->getOperand(1);
        if ((pl.in.count(a) && !narrow.count(a)) || (pl.in.count(b) && !narrow.count(b))) continue;
        llvm::IRBuilder<> ib(bo);
        auto opc =
            bo->getOpcode() == llvm::Instruction::Or ? llvm::Instruction::Add : bo->getOpcode();
        narrow[bo] = ib.CreateBinOp(opc, operand(a, bo), operand(b, bo), bo->getName() + ".i32");
        progress = true;
      }
    }
    for (llvm::Instruction *i : pl.members)
      if (auto *p = llvm::dyn_cast<llvm::PHINode>(i)) {
        auto *np = llvm::cast<llvm::PHINode>(narrow[p]);
        for (unsigned k = 0; k < p->getNumIncomingValues(); ++k)
          np->addIncoming(operand(p->getIncomingValue(k), p->getIncomingBlock(k)->getTerminator()),
                          p->getIncomingBlock(k));
      }
    for (llvm::Instruction *u : pl.users) {
      llvm::IRBuilder<> ib(u);
      llvm::Value *repl;
      if (auto *tr = llvm::dyn_cast<llvm::TruncInst>(u)) {
        llvm::Value *v = operand(tr->getOperand(0), tr);
        repl = tr->getType() == i32 ? v : ib.CreateTrunc(v, tr->getType());
      } else {
        auto *cmp = llvm::cast<llvm::ICmpInst>(u);
        repl = ib.CreateICmp(cmp->getPredicate(), operand(cmp->getOperand(0), cmp),
                             operand(cmp->getOperand(1), cmp));
      }
      u->replaceAllUsesWith(repl);
      u->eraseFromParent();
    }
    for (llvm::Instruction *i : pl.members)
      i->replaceAllUsesWith(llvm::PoisonValue::get(i->getType()));
    for (llvm::Instruction *i : pl.members) i->eraseFromParent();
  }
}

}  // namespace

// The two narrowings above, per function (the second sees the first's
// truncations), with one set of analyses for the module.
void narrowIntegers(llvm::Module &m) {
  llvm::PassBuilder pb;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cam;
  llvm::ModuleAnalysisManager mam;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cam, mam);
  for (llvm::Function &f : m) {
    if (f.isDeclaration()) continue;
    narrowIntToFloat(f, fam.getResult<llvm::ScalarEvolutionAnalysis>(f));
    fam.invalidate(f, llvm::PreservedAnalyses::none());
    narrowInductionVariables(f, fam.getResult<llvm::ScalarEvolutionAnalysis>(f));
  }
}

}  // namespace kjit::nvptx
