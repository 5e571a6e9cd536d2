#include "targets/Driver.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include "compiler/Lowering.h"
#include "compiler/Pipeline.h"
#include "targets/amdgpu/AmdgpuTarget.h"
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
    if (!jit.compileToObject(*mod, out.object, error) ||
        !jit.addObject(out.object, out.symbol, code, error))
      return false;
  } else if (!jit.add(std::move(llctx), std::move(mod), out.symbol, code, error)) {
    return false;
  }
  out.entry = code.entry;
  return true;
}

std::string loweredText(const Context &ctx, const TypedProgram &prog, HostJit *jit, bool lineinfo) {
  llvm::LLVMContext llctx;
  LoweringOptions lo = jit ? hostLowering(*jit, "kjit", lineinfo) : LoweringOptions();
  lo.lineinfo = lineinfo;
  std::unique_ptr<llvm::Module> mod = buildLLVMModule(llctx, prog, ctx, lo);
  std::string text;
  llvm::raw_string_ostream os(text);
  mod->print(os, nullptr);
  return text;
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

// The kernel's name as the PTX gives it (the NVPTX back end renames what PTX
// cannot spell), from the module's kernel annotation after code generation.
static std::string kernelEntryName(const llvm::Module &mod) {
  const llvm::NamedMDNode *md = mod.getNamedMetadata("nvvm.annotations");
  if (!md) return "";
  for (const llvm::MDNode *op : md->operands()) {
    if (op->getNumOperands() < 2) continue;
    auto *kind = llvm::dyn_cast<llvm::MDString>(op->getOperand(1));
    auto *fn = llvm::dyn_cast_or_null<llvm::ValueAsMetadata>(op->getOperand(0).get());
    if (kind && kind->getString() == "kernel" && fn) return fn->getValue()->getName().str();
  }
  return "";
}

bool buildForCuda(const Context &ctx, const TypedProgram &prog, const PtxOptions &opts,
                  bool lineinfo, std::string &ptx, std::string &entry, std::string *llvmText,
                  std::string &error) {
  llvm::LLVMContext llctx;
  LoweringOptions lo;
  lo.lineinfo = lineinfo;
  std::unique_ptr<llvm::Module> mod = buildLLVMModule(llctx, prog, ctx, lo);
  if (llvmText) {
    llvm::raw_string_ostream os(*llvmText);
    mod->print(os, nullptr);
  }
  if (!compileToPtx(*mod, opts, ptx, error)) return false;
  entry = kernelEntryName(*mod);
  return true;
}

bool buildForAmdgpu(const Context &ctx, const TypedProgram &prog, const AmdgpuOptions &opts,
                    bool lineinfo, std::string &hsaco, std::string &entry, std::string *assembly,
                    std::string *llvmText, std::string &error) {
  const AmdgpuProcessor *proc = amdgpuProcessor(opts.arch);
  if (!proc) {
    error = unknownProcessorMessage(opts.arch);
    return false;
  }
  llvm::LLVMContext llctx;
  LoweringOptions lo;
  lo.lineinfo = lineinfo;
  lo.gpu = LoweringOptions::Gpu::AMDGPU;
  lo.wavefront = proc->wavefront;
  lo.dataLayout = amdgpuLoweringDataLayout();
  lo.triple = amdgpuTriple();
  std::unique_ptr<llvm::Module> mod = buildLLVMModule(llctx, prog, ctx, lo);
  if (llvmText) {
    llvm::raw_string_ostream os(*llvmText);
    mod->print(os, nullptr);
  }
  if (!compileToHsaco(*mod, opts, hsaco, assembly, error)) return false;
  entry = prog.kernel ? prog.entry->name : std::string();
  return true;
}

}  // namespace kjit
