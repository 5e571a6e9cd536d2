// Pipeline.cpp - the order of the compiler's stages and passes.
#include "compiler/Pipeline.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include "compiler/Lowering.h"
#include "compiler/passes/Passes.h"

namespace kjit {

static void dumpIR(const TypedProgram &prog, const char *after) {
  for (const ir::Function *f : prog.functions)
    std::fprintf(stderr, "; kjit typed IR after %s\n%s", after, ir::print(*f).c_str());
}

TypedProgram buildTypedProgram(Context &ctx, std::shared_ptr<FunctionSource> fn,
                               const std::vector<const Type *> &argTypes,
                               const Type *declaredReturn, Target target, bool kernel) {
  TypedProgram prog = inferTypes(ctx, std::move(fn), argTypes, declaredReturn, target, kernel);
  if (!prog.entry) return prog;
  bool dump = dumpRequested("ir");
  if (dump) dumpIR(prog, "type inference");
  // The passes, in order.
  for (ir::Function *f : prog.functions) passes::simplify(*f, ctx.irArena);
  if (dump) dumpIR(prog, "simplify");
  return prog;
}

std::unique_ptr<llvm::Module> buildLLVMModule(llvm::LLVMContext &llctx, const TypedProgram &prog,
                                              const Context &ctx, const LoweringOptions &opts) {
  std::unique_ptr<llvm::Module> mod = lowerToLLVM(llctx, prog, ctx.sources, opts);
  if (dumpRequested("llvm")) {
    std::string text;
    llvm::raw_string_ostream os(text);
    mod->print(os, nullptr);
    std::fprintf(stderr, "; kjit LLVM IR as lowered\n%s", text.c_str());
  }
  return mod;
}

}  // namespace kjit
