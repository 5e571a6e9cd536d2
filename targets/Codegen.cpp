#include "targets/Codegen.h"

#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

namespace kjit {

void optimizeO3(llvm::Module &m, llvm::TargetMachine &tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions pto;
  pto.LoopVectorization = true;
  pto.SLPVectorization = true;
  llvm::PassBuilder pb(&tm, pto);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(m, mam);
}

bool finishGpuModule(llvm::Module &m, bool fastmath, std::string &error) {
  if (fastmath)
    for (llvm::Function &f : m) {
      if (f.isDeclaration()) continue;
      f.addFnAttr("denormal-fp-math-f32", "preserve-sign");
      f.addFnAttr("unsafe-fp-math", "true");
    }
  std::string verify;
  llvm::raw_string_ostream vos(verify);
  if (llvm::verifyModule(m, &vos)) {
    error = "internal error: the generated LLVM IR is invalid:\n" + verify;
    return false;
  }
  return true;
}

bool emitFile(llvm::Module &m, llvm::TargetMachine &tm, bool object, std::string &out) {
  llvm::SmallVector<char, 0> buf;
  llvm::raw_svector_ostream os(buf);
  llvm::legacy::PassManager pm;
  auto kind = object ? llvm::CodeGenFileType::ObjectFile : llvm::CodeGenFileType::AssemblyFile;
  if (tm.addPassesToEmitFile(pm, os, nullptr, kind)) return false;
  pm.run(m);
  out.assign(buf.begin(), buf.end());
  return true;
}

}  // namespace kjit
