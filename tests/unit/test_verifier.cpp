// The IR tools made from IR.def: the child walks, the mutator and the
// verifier. Programs that cover every node kind are typed and verified
// (before and after the passes); IR built wrong by hand is refused with the
// expected message.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "compiler/Context.h"
#include "compiler/IR.h"
#include "compiler/IRBuilder.h"
#include "compiler/ModuleEnv.h"
#include "compiler/Signature.h"
#include "compiler/TypeInference.h"
#include "compiler/passes/Passes.h"

using namespace kjit;
using namespace kjit::ir;

namespace {

// Every problem of every function of `prog`, one a line ("" when none).
std::string problemsOf(const TypedProgram &prog) {
  std::string out;
  for (const Function *f : prog.functions)
    for (const Problem &p : verify(*f)) out += f->name + ": " + p.message + "\n";
  return out;
}

// Types `func` of `module` for `sig`, checks that it typed, and returns the
// verifier's problems before and after the passes.
std::string typeAndVerify(const std::string &module, const std::string &func,
                          const std::string &sig, Target target = Target::Host,
                          bool kernel = false) {
  Context ctx;
  Signature s;
  std::string err;
  REQUIRE(parseSignature(ctx.types, sig, s, err));
  auto src = functionFromModule(ctx.session(), "m.py", module, func);
  REQUIRE(src != nullptr);
  TypedProgram prog = inferTypes(ctx, src, s.args, nullptr, target, kernel);
  INFO(ctx.diags.render());
  REQUIRE(prog.entry != nullptr);
  std::string before = problemsOf(prog);
  for (Function *f : prog.functions) passes::simplify(*f, ctx.ir);
  return before + problemsOf(prog);
}

const char *hostModule = R"(
import math
import numpy as np

def helper(x, y):
    return x * y + 1

def scalars(a, b, n):
    s = 0.0
    k = n << 2 >> 1
    t = (a, n, 3)
    s += t[0] + t[1]
    if a > b and n != 0 or not (b < 0):
        s = s + a / b - a // b + a % 2.5 + a ** 2
    else:
        s = -s
    v = a if n > 3 else b
    u = ~n & 7 | 1 ^ k
    i = 0
    while i < n:
        i += 1
        if i == 5:
            continue
        if i > 100:
            break
    else:
        s += 1.0
    for j in range(0, n, 2):
        s += math.sqrt(abs(j)) + math.atan2(a, b) + min(j, n) + helper(j, 2)
    for j in range(n):
        if j > 2:
            break
    else:
        s -= 1.0
    if n < 0:
        raise ValueError("negative n")
    print("s is", s, v, u)
    return s + complex(a, b).real

def arrays(a, b, n):
    c = np.zeros((n, 3))
    d = np.empty(n, dtype=np.int32)
    e = np.arange(0, n, 1)
    for i in range(a.shape[0]):
        a[i] = a[i] * 2.0 + a[-1]
        b[i, 0] = b[i, 1] + b[i, -1]
    v = b[1:, ::2]
    w = a[1:n]
    c[0, 1] = a.sum() + v[0, 0] + w[0]
    d[0] = n
    t = (1, 2, 3)
    k = t[n]
    c.fill(0.5)
    return c.copy(), d, e, k, a.max(), b.T
)";

const char *kernelModule = R"(
from numba import cuda, float32

@cuda.jit
def kernel(a, out, lane):
    sm = cuda.shared.array(32, float32)
    loc = cuda.local.array(4, float32)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    if i < a.shape[0]:
        sm[t] = a[i]
        loc[0] = a[i]
    cuda.syncthreads()
    v = cuda.shfl_down_sync(0xffffffff, sm[t], 1) + loc[0]
    old = cuda.atomic.add(out, 0, v)
    cuda.atomic.max(out, 1, old)
    if cuda.all_sync(0xffffffff, v > 0):
        out[2] = cuda.popc(lane)
    cuda.threadfence()
)";

}  // namespace

// ---- the child lists ------------------------------------------------------------

TEST_CASE("forEachChild visits children in IR.def's order, then blocks", "[ir]") {
  Context ctx;
  Builder &ir = ctx.ir;
  Const *c = ir.constBool(true, {});
  Const *x = ir.constInt(0, ctx.types.int64(), {});
  Break *br = ir.breakStmt({});
  Return *ret = ir.returnStmt(nullptr, {});
  If *i = ir.ifStmt(c, {br}, {ret}, {});
  std::vector<const Node *> seen;
  forEachChild(static_cast<const Node *>(i), [&](const Node *n) { seen.push_back(n); });
  CHECK(seen == std::vector<const Node *>{c, br, ret});

  // The view's rules are not these children's concern: its array is an
  // int64 here, so it is made by hand.
  auto *s = ctx.irArena.make<ArrayView>({});
  s->array = x;
  s->specs = {SliceSpec{false, nullptr, c, nullptr}, SliceSpec{true, x, nullptr, nullptr}};
  seen.clear();
  forEachChild(static_cast<const Node *>(s), [&](const Node *n) { seen.push_back(n); });
  CHECK(seen == std::vector<const Node *>{x, c, x});  // null bounds are absent

  unsigned count = 0;
  forEachNode(static_cast<const Node *>(i), [&](const Node *) { ++count; });
  CHECK(count == 4);
}

TEST_CASE("the mutator replaces children in place", "[ir]") {
  Context ctx;
  Builder &ir = ctx.ir;
  Const *a = ir.constInt(1, ctx.types.int64(), {});
  Const *b = ir.constInt(2, ctx.types.int64(), {});
  Binary *add = ir.binary(BinOp::Add, a, a, {});
  Eval *ev = ir.eval(add, {});
  struct Swap : Mutator {
    using Mutator::mutate;
    Const *from, *to;
    Expr *mutate(Expr *e) override { return e == from ? to : Mutator::mutate(e); }
  } swap;
  swap.from = a;
  swap.to = b;
  Block body{ev};
  swap.mutate(body);
  CHECK(add->lhs == b);
  CHECK(add->rhs == b);
  CHECK(ev->value == add);
}

// ---- typed programs verify ------------------------------------------------------

TEST_CASE("typed programs of every node kind verify before and after the passes",
          "[ir][verifier]") {
  CHECK(typeAndVerify(hostModule, "scalars", "(float64, float64, int64)") == "");
  CHECK(typeAndVerify(hostModule, "scalars", "(float32, int32, int8)") == "");
  CHECK(typeAndVerify(hostModule, "arrays", "(float64[:], float32[:, :], int64)") == "");
  CHECK(typeAndVerify(kernelModule, "kernel", "(float32[:], float32[:], uint32)", Target::CUDA,
                      true) == "");
}

// ---- bad IR is refused, with the message ----------------------------------------

namespace {

struct Bad {
  Context ctx;
  Function *fn = ctx.irArena.makeFunction();
  Bad() {
    fn->name = "f";
    fn->returnType = ctx.types.none();
  }
  Var *var(const char *name, const Type *t) {
    auto v = std::make_unique<Var>();
    v->name = name;
    v->type = t;
    v->id = unsigned(fn->vars.size());
    fn->vars.push_back(std::move(v));
    return fn->vars.back().get();
  }
  template <class T>
  T *make() {
    return ctx.irArena.make<T>(SourceLoc{});
  }
  Const *constant(const Type *t) {
    auto *c = make<Const>();
    c->type = t;
    return c;
  }
  std::vector<std::string> messages() {
    std::vector<std::string> out;
    for (const Problem &p : verify(*fn)) out.push_back(p.message);
    return out;
  }
};

using Messages = std::vector<std::string>;

}  // namespace

TEST_CASE("the verifier: an expression without a type", "[ir][verifier]") {
  Bad b;
  auto *ev = b.make<Eval>();
  ev->value = b.constant(nullptr);
  b.fn->body.push_back(ev);
  CHECK(b.messages() == Messages{"Const expression without a type"});
}

TEST_CASE("the verifier: binary operands of another type than the operation", "[ir][verifier]") {
  Bad b;
  const Type *f64 = b.ctx.types.float64(), *i64 = b.ctx.types.int64();
  auto *add = b.make<Binary>();
  add->op = BinOp::Add;
  add->lhs = b.constant(i64);
  add->rhs = b.constant(f64);
  add->type = f64;
  auto *lt = b.make<Binary>();
  lt->op = BinOp::Lt;
  lt->lhs = b.constant(i64);
  lt->rhs = b.constant(i64);
  lt->type = i64;
  auto *shl = b.make<Binary>();
  shl->op = BinOp::LShift;
  shl->lhs = b.constant(i64);
  shl->rhs = b.constant(b.ctx.types.intTy(8, true));  // allowed: shifts
  shl->type = i64;
  for (Expr *e : {static_cast<Expr *>(add), static_cast<Expr *>(lt), static_cast<Expr *>(shl)}) {
    auto *ev = b.make<Eval>();
    ev->value = e;
    b.fn->body.push_back(ev);
  }
  CHECK(b.messages() == Messages{"the left operand of Binary is int64, expected float64",
                                 "comparison < is int64, expected bool"});
}

TEST_CASE("the verifier: casts, array indices and stored values", "[ir][verifier]") {
  Bad b;
  const Type *f32 = b.ctx.types.floatTy(32), *i32 = b.ctx.types.intTy(32, true);
  const Type *arr = b.ctx.types.array(f32, 2, Layout::C);
  Var *a = b.var("a", arr);
  auto ref = [&] {
    auto *r = b.make<VarRef>();
    r->var = a;
    r->type = arr;
    return r;
  };
  auto *st = b.make<ir::Store>();
  st->array = ref();
  st->indices = {b.constant(i32)};
  st->value = b.constant(b.ctx.types.float64());
  b.fn->body.push_back(st);
  auto *cast = b.make<Cast>();
  cast->value = ref();
  cast->type = f32;
  auto *ev = b.make<Eval>();
  ev->value = cast;
  b.fn->body.push_back(ev);
  CHECK(b.messages() ==
        Messages{"Store has 1 indices into a 2-d array, expected one per dimension",
                 "an index of Store is int32, expected int64",
                 "the value of Store is float64, expected float32",
                 "Cast from array(float32, 2d, C) to float32, expected numbers, arrays of one "
                 "dtype and ndim, an enum member and its value, or [] to a list type"});
}

TEST_CASE("the verifier: break outside a loop, return of another type", "[ir][verifier]") {
  Bad b;
  auto *w = b.make<While>();
  w->cond = b.constant(b.ctx.types.boolean());
  w->body = {b.make<Break>()};       // fine: in the body
  w->orelse = {b.make<Continue>()};  // the else clause is outside the loop
  b.fn->body.push_back(w);
  auto *r = b.make<Return>();
  r->value = b.constant(b.ctx.types.int64());
  b.fn->body.push_back(r);
  CHECK(b.messages() ==
        Messages{"Continue outside a loop body", "the value of Return is int64, expected none"});
}

TEST_CASE("the verifier: variables of another function", "[ir][verifier]") {
  Bad b;
  Var stray;
  stray.name = "x";
  stray.type = b.ctx.types.int64();
  auto *a = b.make<Assign>();
  a->var = &stray;
  a->value = b.constant(b.ctx.types.int64());
  b.fn->body.push_back(a);
  CHECK(b.messages() ==
        Messages{"an assignment of variable 'x', which is not one of function 'f'"});
}

// ---- the builder: result types, and the verifier's rules on each node ---------

TEST_CASE("the builder sets result types and refuses what the verifier refuses", "[ir][builder]") {
  Context ctx;
  Builder &ir = ctx.ir;
  std::vector<std::string> seen;
  ir.setProblemHandler([&](const Node &, const std::vector<Problem> &ps) {
    for (const Problem &p : ps) seen.push_back(p.message);
  });
  const Type *i64 = ctx.types.int64(), *f64 = ctx.types.float64();
  const Type *arr = ctx.types.array(f64, 2, Layout::C);
  Function *fn = ctx.irArena.makeFunction();
  auto v = std::make_unique<Var>();
  v->name = "a";
  v->type = arr;
  fn->vars.push_back(std::move(v));
  Var *a = fn->vars.back().get();

  CHECK(ir.binary(BinOp::Add, ir.constInt(1, i64, {}), ir.constInt(2, i64, {}), {})->type == i64);
  CHECK(ir.binary(BinOp::Lt, ir.constFloat(1, f64, {}), ir.constFloat(2, f64, {}), {})
            ->type->isBool());
  CHECK(ir.arrayLoad(ir.varRef(a, {}), {ir.constInt(0, i64, {}), ir.constInt(1, i64, {})}, {})
            ->type == f64);
  TupleMake *t = ir.tupleMake({ir.constInt(1, i64, {}), ir.constFloat(2, f64, {})}, {});
  CHECK(t->type == ctx.types.tuple({i64, f64}));
  CHECK(ir.tupleGet(t, 1, {})->type == f64);
  CHECK(ir.forRange(nullptr, ir.constInt(0, i64, {}), ir.constInt(9, i64, {}),
                    ir.constInt(3, i64, {}), {})
            ->constStep == 3);
  CHECK(seen.empty());

  ir.binary(BinOp::Add, ir.constInt(1, i64, {}), ir.constFloat(2, f64, {}), {});
  ir.store(ir.varRef(a, {}), {ir.constInt(0, i64, {})}, ir.constInt(0, i64, {}), {});
  ir.intrinsic(IntrinsicId::Atomic, {}, i64, {});
  CHECK(seen == Messages{"the right operand of Binary is float64, expected int64",
                         "Store has 1 indices into a 2-d array, expected one per dimension",
                         "the value of Store is int64, expected float64",
                         "intrinsic atomic without a sub-operation"});
}

namespace {

// The pending array expressions (compiler/ArrayExprs.h) left in `f`.
size_t pendingNodes(Function &f) {
  struct Count : Mutator {
    using Mutator::mutate;
    size_t n = 0;
    Expr *mutate(Expr *e) override {
      mutateChildren(e);
      auto *in = dyn_cast<Intrinsic>(e);
      n += in && in->id == IntrinsicId::ArrayExpr && !in->args.empty();
      return e;
    }
  } count;
  count.mutate(f);
  return count.n;
}

}  // namespace

TEST_CASE("lower array expressions makes each pending node a call of its loop", "[passes]") {
  Context ctx;
  Signature s;
  std::string err;
  REQUIRE(parseSignature(ctx.types, "(float64[:], float64[:])", s, err));
  auto src = functionFromModule(ctx.session(), "m.py",
                                "import numpy as np\n"
                                "def f(x, y):\n"
                                "    z = np.sqrt(x * x + y * y)\n"
                                "    z += x\n"
                                "    return z\n",
                                "f");
  REQUIRE(src != nullptr);
  TypedProgram prog = inferTypes(ctx, src, s.args, nullptr);
  INFO(ctx.diags.render());
  REQUIRE(prog.entry != nullptr);
  // The typer leaves one fused node per statement; no loop is typed yet.
  CHECK(pendingNodes(*prog.entry) == 2);
  CHECK(prog.functions.size() == 1);
  CHECK(passes::lowerArrayExprs(ctx, prog));
  CHECK(pendingNodes(*prog.entry) == 0);
  // The two loops, callees first, the entry last.
  REQUIRE(prog.functions.size() == 3);
  CHECK(prog.functions.back() == prog.entry);
  CHECK(problemsOf(prog) == "");
  CHECK_FALSE(passes::lowerArrayExprs(ctx, prog));  // nothing left
}
