// ExpandSequences.cpp - the typer's sequence walks made concrete: what
// `for x in seq`, enumerate and zip read (Passes.h, expandSequences).
#include "compiler/passes/Passes.h"

namespace kjit::passes {

using namespace ir;

namespace {

class SequenceExpander : public Mutator {
 public:
  using Mutator::mutate;
  explicit SequenceExpander(Builder &ir) : ir(ir) {}
  Builder &ir;
  bool changed = false;

  Expr *mutate(Expr *e) override {
    e = Mutator::mutate(e);  // (the operands first: a sequence may hold one)
    auto *in = dyn_cast<Intrinsic>(e);
    if (!in) return e;
    if (in->id == IntrinsicId::SequenceLength) {
      changed = true;
      return length(in);
    }
    if (in->id == IntrinsicId::SequenceItem) {
      changed = true;
      return item(in);
    }
    return e;
  }

  Expr *length(Intrinsic *in) {
    Expr *seq = in->args[0];
    const Type *t = seq->type;
    if (t->isTuple()) return ir.constInt(int64_t(t->elements().size()), in->type, in->loc);
    if (t->isList()) return ir.intrinsic(IntrinsicId::ListLen, {seq}, in->type, in->loc);
    return ir.intrinsic(IntrinsicId::ArrayShape, {seq, ir.constInt(0, in->type, in->loc)}, in->type,
                        in->loc);
  }

  // The index is in range (the loop counts from 0 to the length): no bounds
  // check, no wraparound.
  Expr *item(Intrinsic *in) {
    Expr *seq = in->args[0], *index = in->args[1];
    const Type *t = seq->type;
    if (t->isTuple()) return ir.tupleGetDynamic(seq, index, in->loc);
    if (t->isList()) return ir.intrinsic(IntrinsicId::ListGet, {seq, index}, in->type, in->loc);
    if (t->ndim() == 1)
      return ir.arrayLoad(seq, {index}, in->loc, /*boundscheck=*/false, /*wraparound=*/false);
    SliceSpec sp;
    sp.isIndex = true;
    sp.start = index;
    return ir.arrayView(in->type, seq, {sp}, in->loc);
  }
};

}  // namespace

bool expandSequences(Function &f, Builder &ir) {
  SequenceExpander x(ir);
  x.mutate(f);
  return x.changed;
}

}  // namespace kjit::passes
