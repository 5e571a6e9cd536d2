// TypeInference.h - from the AST of a kjit function and argument types to the
// typed IR of it and of every kjit function it calls.
//
// Typing follows Numba's rules (docs/types.md): literals are int64, float64,
// complex128; integer arithmetic is done in 64 bits; mixed int/float promotes
// as NumPy does; a variable's type is the unification of every value assigned
// to it that can reach a common read (other assignments are other variables).
// Errors are diagnostics with locations (category Typing or
// Unsupported); the result's entry is null when any was reported.
#pragma once

#include <memory>
#include <vector>

#include "compiler/Context.h"
#include "compiler/GlobalEnv.h"
#include "compiler/IR.h"

namespace kjit {

namespace typing {
class ProgramTyper;
}

struct TypedProgram {
  ir::Function *entry = nullptr;
  std::vector<ir::Function *> functions;  // callees first, entry last
  Target target = Target::Host;
  bool kernel = false;  // CUDA: the entry is a kernel
  // CUDA: @cuda.jit(debug=True), as Numba: Python's error model (division by
  // zero raises) and a `raise` reported by the launch. Without it a `raise`
  // ends the thread without a report (failed bounds checks are reported
  // either way).
  bool debug = false;
  // The program's typer, kept for the passes that call code they make
  // (typeForPass).
  std::shared_ptr<typing::ProgramTyper> typer;
};

// `declaredReturn` (from an explicit signature) fixes the entry's return
// type: returned values are converted to it; void means "returns None".
// For the CUDA target, `kernel` makes the entry a kernel (it must not return
// a value); the kernel language (cuda.*) is available to every function.
TypedProgram inferTypes(Context &ctx, std::shared_ptr<FunctionSource> fn,
                        const std::vector<const Type *> &argTypes,
                        const Type *declaredReturn = nullptr, Target target = Target::Host,
                        bool kernel = false);

// Types `fn` for `args` in the program's own typer (one cache of
// specialisations, one symbol counter), for a pass that calls library code
// it makes after inference (compiler/passes/LowerArrayExprs.cpp). The
// functions typed anew, callees first, are appended to `added`: the pass
// puts them into prog.functions. Null, with diagnostics, on failure.
ir::Function *typeForPass(TypedProgram &prog, std::shared_ptr<FunctionSource> fn,
                          const std::vector<const Type *> &args, SourceLoc loc,
                          std::vector<ir::Function *> &added);

}  // namespace kjit
