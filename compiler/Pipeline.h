// Pipeline.h - the compiler's stages as one readable list (Pipeline.cpp):
//   parse -> inferTypes -> passes over the typed IR -> lowerToLLVM -> target.
// KJIT_DUMP=ir,llvm prints the typed IR after each pass and the lowered LLVM
// IR to stderr.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/Context.h"
#include "compiler/GlobalEnv.h"
#include "compiler/TypeInference.h"
#include "frontend/support/Options.h"  // dumpRequested: KJIT_DUMP

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace kjit {

struct LoweringOptions;

// Parses, types and runs the typed-IR passes; null entry on errors (in
// ctx.diags).
TypedProgram buildTypedProgram(Context &ctx, std::shared_ptr<FunctionSource> fn,
                               const std::vector<const Type *> &argTypes,
                               const Type *declaredReturn = nullptr, Target target = Target::Host,
                               bool kernel = false);

// Lowers a typed program to LLVM IR (and dumps it when asked).
std::unique_ptr<llvm::Module> buildLLVMModule(llvm::LLVMContext &llctx, const TypedProgram &prog,
                                              const Context &ctx, const LoweringOptions &opts);

}  // namespace kjit
