// Pipeline.cpp - the order of the compiler's stages and passes.
#include "compiler/Pipeline.h"

#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "compiler/IRBuilder.h"
#include "compiler/Lowering.h"
#include "compiler/passes/Passes.h"

namespace kjit {

// Reports each problem of each function as an internal error; false when
// there was one.
static bool verifyIR(Context &ctx, const TypedProgram &prog, const char *after) {
  bool ok = true;
  for (const ir::Function *f : prog.functions)
    for (const ir::Problem &p : ir::verify(*f)) {
      ctx.diags.error(DiagCategory::Compile, p.loc,
                      "internal error: the typed IR of '" + f->name + "' is invalid after " +
                          after + ": " + p.message);
      ok = false;
    }
  return ok;
}

static void dumpIR(const TypedProgram &prog, const char *after) {
  for (const ir::Function *f : prog.functions)
    std::fprintf(stderr, "; kjit typed IR after %s\n%s", after, ir::print(*f).c_str());
}

namespace {

// One pass over the typed IR of every function of a program.
struct Pass {
  const char *name;
  void (*run)(Context &ctx, ir::Function &f);
};

// The passes, in the order they run (compiler/passes/Passes.h says what
// each does). A new pass is one line here.
const Pass kPasses[] = {
    {"expand sequences", [](Context &ctx, ir::Function &f) { passes::expandSequences(f, ctx.ir); }},
    {"simplify", [](Context &ctx, ir::Function &f) { passes::simplify(f, ctx.ir); }},
    {"array ownership", [](Context &, ir::Function &f) { passes::arrayOwnership(f); }},
};

}  // namespace

TypedProgram buildTypedProgram(Context &ctx, std::shared_ptr<FunctionSource> fn,
                               const std::vector<const Type *> &argTypes,
                               const Type *declaredReturn, Target target, bool kernel) {
  TypedProgram prog = inferTypes(ctx, std::move(fn), argTypes, declaredReturn, target, kernel);
  if (!prog.entry) return prog;
  bool dump = dumpRequested("ir"), verify = ir::checksRequested();
  // After each stage: the dump when asked (KJIT_DUMP=ir), the verifier in
  // debug builds and with KJIT_VERIFY=1; an invalid IR stops the
  // compilation with an internal error naming the stage.
  auto after = [&](const char *stage) {
    if (dump) dumpIR(prog, stage);
    if (verify && !verifyIR(ctx, prog, stage)) prog.entry = nullptr;
    return prog.entry != nullptr;
  };
  if (!after("type inference")) return prog;
  passes::lowerArrayExprs(ctx, prog);
  if (!after("lower array expressions")) return prog;
  for (const Pass &pass : kPasses) {
    for (ir::Function *f : prog.functions) pass.run(ctx, *f);
    if (!after(pass.name)) return prog;
  }
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
