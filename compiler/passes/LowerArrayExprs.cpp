// LowerArrayExprs.cpp - the typer's pending array expressions
// (compiler/ArrayExprs.h) become calls of their loop functions, typed then
// in the program's own typer; the loops join the program before the
// function that calls them.
#include <algorithm>
#include <set>

#include "compiler/ArrayExprs.h"
#include "compiler/Session.h"
#include "compiler/TypeInference.h"
#include "compiler/passes/Passes.h"

namespace kjit::passes {

using namespace ir;

namespace {

struct Lower : Mutator {
  using Mutator::mutate;
  Context &ctx;
  TypedProgram &prog;
  const Function &fn;
  std::vector<Function *> &added;
  bool changed = false;
  Lower(Context &ctx, TypedProgram &prog, const Function &fn, std::vector<Function *> &added)
      : ctx(ctx), prog(prog), fn(fn), added(added) {}

  Expr *mutate(Expr *e) override {
    mutateChildren(e);
    if (!isPendingArrayExpr(e)) return e;
    auto *in = cast<Intrinsic>(e);
    size_t operands = 0;
    UfuncLoopSpec spec = pendingLoopSpec(in, fn.parallel, fn.fastmath, operands);
    std::vector<Expr *> args = in->args;
    Expr *out = operands < args.size() ? args.back() : nullptr;
    // NumPy computes as if the operands were read before the output is
    // written: an operand that shares memory with `out` other than element
    // for element is copied first.
    if (out)
      for (size_t k = 0; k < operands; ++k)
        if (args[k]->type->isArray())
          args[k] = ctx.ir.intrinsic(IntrinsicId::ArrayUnaliased, {args[k], out}, args[k]->type,
                                     args[k]->loc);
    std::vector<const Type *> types;
    std::vector<Expr *> runtimeArgs;
    for (Expr *a : args) {
      types.push_back(a->type);
      if (a->type->isRuntime()) runtimeArgs.push_back(a);
    }
    Function *loop = typeForPass(prog, ctx.session().ufuncLoopFunction(spec), types, e->loc, added);
    changed = true;
    if (!loop) return ctx.ir.constant(nullptr, e->loc);  // (diagnosed)
    return ctx.ir.call(loop, std::move(runtimeArgs), e->loc);
  }
};

// Lowers f's pending nodes and those of the loops typed for them, which go
// into `order` before f.
bool lowerIn(Context &ctx, TypedProgram &prog, Function &f, std::vector<Function *> &order) {
  std::vector<Function *> added;
  Lower lower(ctx, prog, f, added);
  lower.mutate(f);
  for (Function *g : added) lowerIn(ctx, prog, *g, order);
  order.push_back(&f);
  return lower.changed;
}

}  // namespace

bool lowerArrayExprs(Context &ctx, TypedProgram &prog) {
  std::vector<Function *> order;
  bool changed = false;
  for (Function *f : std::vector<Function *>(prog.functions))
    changed |= lowerIn(ctx, prog, *f, order);
  prog.functions = std::move(order);
  if (ctx.diags.hasErrors()) prog.entry = nullptr;
  return changed;
}

}  // namespace kjit::passes
