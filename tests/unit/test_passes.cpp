// Each typed-IR pass on IR built by hand (with ir::Builder).
#include <catch2/catch.hpp>

#include "compiler/Context.h"
#include "compiler/IR.h"
#include "compiler/IRBuilder.h"
#include "compiler/passes/Passes.h"

using namespace kjit;
using namespace kjit::ir;

namespace {

// A function to put statements in, and ir::Builder's factories (ctx.ir).
struct Fixture {
  Context ctx;
  ir::Builder &ir = ctx.ir;
  Function *fn = ctx.irArena.makeFunction();
  SourceLoc loc{};

  Const *i64(int64_t v) { return ir.constInt(v, ctx.types.int64(), loc); }
  Var *var(const char *name, const Type *t) {
    auto v = std::make_unique<Var>();
    v->name = name;
    v->type = t;
    v->id = unsigned(fn->vars.size());
    fn->vars.push_back(std::move(v));
    return fn->vars.back().get();
  }
  VarRef *ref(Var *v) { return ir.varRef(v, loc); }
  Binary *bin(BinOp op, Expr *l, Expr *r) { return ir.binary(op, l, r, loc); }
  Assign *assign(Var *v, Expr *e) {
    Assign *a = ir.assign(v, e, loc);
    fn->body.push_back(a);
    return a;
  }
  TupleMake *tuple(std::vector<Expr *> elems) { return ir.tupleMake(std::move(elems), loc); }
  TupleGet *get(Expr *t, unsigned k) { return ir.tupleGet(t, k, loc); }
};

}  // namespace

TEST_CASE("simplify folds integer arithmetic and comparisons", "[passes]") {
  Fixture b;
  const Type *i64 = b.ctx.types.int64();
  Var *x = b.var("x", i64);
  Var *c = b.var("c", b.ctx.types.boolean());
  Assign *a1 = b.assign(x, b.bin(BinOp::Add, b.i64(2), b.bin(BinOp::Mul, b.i64(3), b.i64(4))));
  Assign *a2 = b.assign(c, b.bin(BinOp::Lt, b.i64(-1), b.i64(1)));
  CHECK(passes::simplify(*b.fn, b.ir));
  REQUIRE(isa<Const>(a1->value));
  CHECK(cast<Const>(a1->value)->i == 14);
  REQUIRE(isa<Const>(a2->value));
  CHECK(cast<Const>(a2->value)->i == 1);
  CHECK_FALSE(passes::simplify(*b.fn, b.ir));  // a fixpoint
}

TEST_CASE("simplify keeps divisions, whose checks can raise", "[passes]") {
  Fixture b;
  const Type *i64 = b.ctx.types.int64();
  Var *x = b.var("x", i64);
  Assign *a = b.assign(x, b.bin(BinOp::FloorDiv, b.i64(1), b.i64(0)));
  CHECK_FALSE(passes::simplify(*b.fn, b.ir));
  CHECK(isa<Binary>(a->value));
}

TEST_CASE("simplify forwards tuple elements only when the rest is pure", "[passes]") {
  Fixture b;
  const Type *i64 = b.ctx.types.int64();
  Var *x = b.var("x", i64), *y = b.var("y", i64), *z = b.var("z", i64);
  // (x, 5)[1] -> 5
  Assign *a1 = b.assign(y, b.get(b.tuple({b.ref(x), b.i64(5)}), 1));
  // (x // y, 5)[1] keeps the tuple: x // y may raise ZeroDivisionError
  Assign *a2 =
      b.assign(z, b.get(b.tuple({b.bin(BinOp::FloorDiv, b.ref(x), b.ref(y)), b.i64(5)}), 1));
  CHECK(passes::simplify(*b.fn, b.ir));
  REQUIRE(isa<Const>(a1->value));
  CHECK(cast<Const>(a1->value)->i == 5);
  CHECK(isa<TupleGet>(a2->value));
}

TEST_CASE("simplify wraps folded values to the result width", "[passes]") {
  Fixture b;
  const Type *i8 = b.ctx.types.intTy(8, true);
  Var *x = b.var("x", i8);
  Const *c1 = b.ir.constInt(100, i8, b.loc), *c2 = b.ir.constInt(100, i8, b.loc);
  Assign *a = b.assign(x, b.bin(BinOp::Add, c1, c2));
  passes::simplify(*b.fn, b.ir);
  REQUIRE(isa<Const>(a->value));
  CHECK(cast<Const>(a->value)->i == -56);
}

TEST_CASE("the intrinsic table's columns", "[passes][intrinsics]") {
  CHECK(intrinsicInfo(IntrinsicId::Sqrt).pure());
  CHECK(intrinsicInfo(IntrinsicId::ArrayShape).pure());
  CHECK_FALSE(intrinsicInfo(IntrinsicId::ArrayMin).pure());  // raises on an empty array
  CHECK(intrinsicInfo(IntrinsicId::ArrayMin).mayRaise);
  CHECK(intrinsicInfo(IntrinsicId::ArraySum).memory == MemoryEffect::ReadMem);
  CHECK(intrinsicInfo(IntrinsicId::SyncThreads).barrier);
  CHECK(intrinsicInfo(IntrinsicId::Print).memory == MemoryEffect::WriteMem);
  CHECK(std::string(intrinsicName(IntrinsicId::ShflSync)) == "shfl_sync");
  CHECK(subOpNamed(IntrinsicId::Atomic, "and") == SubOp::AtomicAnd);
  CHECK(subOpNamed(IntrinsicId::ShflSync, "and") == SubOp::None);
  CHECK(std::string(subOpInfo(SubOp::VoteUni).kernelName) == "eq_sync");
  CHECK(subOpInfo(SubOp::ShflBfly).intrinsic == IntrinsicId::ShflSync);
}

TEST_CASE("simplify reads purity from the intrinsic table", "[passes][intrinsics]") {
  Fixture b;
  const Type *f64 = b.ctx.types.float64();
  Var *x = b.var("x", f64), *y = b.var("y", f64);
  auto call = [&](IntrinsicId id, const Type *t) {
    return b.ir.intrinsic(id, {b.ref(x)}, t, b.loc);
  };
  Const *five = b.ir.constFloat(5, f64, b.loc);
  // (sqrt(x), 5.0)[1] -> 5.0: sqrt is pure
  Assign *a1 = b.assign(y, b.get(b.tuple({call(IntrinsicId::Sqrt, f64), five}), 1));
  // (print(x), 5.0)[1] keeps the print
  Assign *a2 = b.assign(y, b.get(b.tuple({call(IntrinsicId::Print, b.ctx.types.none()), five}), 1));
  CHECK(passes::simplify(*b.fn, b.ir));
  CHECK(a1->value == five);
  CHECK(isa<TupleGet>(a2->value));
}

TEST_CASE("expand sequences makes the typer's sequence walks each kind's own operations",
          "[passes]") {
  Fixture b;
  TypeContext &tc = b.ctx.types;
  const Type *i64 = tc.int64(), *f32 = tc.floatTy(32);
  Var *a1 = b.var("a1", tc.array(f32, 1, Layout::C));
  Var *a2 = b.var("a2", tc.array(f32, 2, Layout::C));
  Var *t = b.var("t", tc.tuple({i64, i64, i64}));
  Var *i = b.var("i", i64), *n = b.var("n", i64), *x = b.var("x", f32);
  Var *row = b.var("row", tc.array(f32, 1, Layout::C)), *e = b.var("e", i64);
  auto item = [&](Var *seq, const Type *type) {
    return b.ir.intrinsic(IntrinsicId::SequenceItem, {b.ref(seq), b.ref(i)}, type, b.loc);
  };
  Assign *len = b.assign(n, b.ir.intrinsic(IntrinsicId::SequenceLength, {b.ref(a2)}, i64, b.loc));
  Assign *load = b.assign(x, item(a1, f32));
  Assign *view = b.assign(row, item(a2, row->type));
  Assign *elem = b.assign(e, item(t, i64));
  CHECK(passes::expandSequences(*b.fn, b.ir));
  REQUIRE(isa<Intrinsic>(len->value));
  CHECK(cast<Intrinsic>(len->value)->id == IntrinsicId::ArrayShape);  // the first axis
  REQUIRE(isa<ArrayLoad>(load->value));
  CHECK_FALSE(cast<ArrayLoad>(load->value)->wraparound);  // the index is in range
  REQUIRE(isa<ArrayView>(view->value));
  CHECK(view->value->type == row->type);
  REQUIRE(isa<TupleGet>(elem->value));
  CHECK(cast<TupleGet>(elem->value)->dynIndex != nullptr);
  CHECK_FALSE(passes::expandSequences(*b.fn, b.ir));  // nothing left to expand
}
