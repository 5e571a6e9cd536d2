#include "targets/Driver.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include "compiler/Lowering.h"
#include "compiler/Pipeline.h"
#include "targets/host/HostJit.h"
#include "targets/nvptx/NvptxTarget.h"

namespace kjit {

static LoweringOptions hostLowering(HostJit &jit, const std::string &moduleName, bool lineinfo) {
  LoweringOptions lo;
  lo.dataLayout = jit.dataLayout();
  lo.triple = jit.triple();
  lo.moduleName = moduleName.empty() ? jit.uniqueModuleName() : moduleName;
  lo.lineinfo = lineinfo;
  return lo;
}

bool buildForHost(const Context &ctx, const TypedProgram &prog, HostJit &jit, const HostBuild &opts,
                  HostCode &out, std::string &error) {
  auto llctx = std::make_unique<llvm::LLVMContext>();
  LoweringOptions lo = hostLowering(jit, opts.moduleName, opts.lineinfo);
  lo.cpuKernel = opts.cpuKernel;
  std::unique_ptr<llvm::Module> mod = buildLLVMModule(*llctx, prog, ctx, lo);
  out.symbol = entrySymbol(prog, lo);
  CompiledCode code;
  if (opts.toObject) {
    if (!jit.compileToObject(*mod, out.object, error) || !jit.addObject(out.object, out.symbol, code, error))
      return false;
  } else if (!jit.add(std::move(llctx), std::move(mod), out.symbol, code, error)) {
    return false;
  }
  out.entry = code.entry;
  return true;
}

bool inspectForHost(const Context &ctx, const TypedProgram &prog, HostJit &jit, bool wantAsm,
                    std::string &out, std::string &error, bool cpuKernel) {
  llvm::LLVMContext llctx;
  LoweringOptions lo = hostLowering(jit, "kjit", false);
  lo.cpuKernel = cpuKernel;
  std::unique_ptr<llvm::Module> mod = buildLLVMModule(llctx, prog, ctx, lo);
  CompiledCode code;
  if (!jit.optimizeOnly(*mod, wantAsm, code, error)) return false;
  out = wantAsm ? code.assembly : code.optimizedIR;
  return true;
}

bool buildForCuda(const Context &ctx, const TypedProgram &prog, const PtxOptions &opts, bool lineinfo,
                  std::string &ptx, std::string *llvmText, std::string &error) {
  llvm::LLVMContext llctx;
  LoweringOptions lo;
  lo.lineinfo = lineinfo;
  std::unique_ptr<llvm::Module> mod = buildLLVMModule(llctx, prog, ctx, lo);
  if (llvmText) {
    llvm::raw_string_ostream os(*llvmText);
    mod->print(os, nullptr);
  }
  return compileToPtx(*mod, opts, ptx, error);
}

}  // namespace kjit
