// Unit tests of type inference (compiler/TypeInference.h) on small modules,
// resolved the way kjitc resolves them (compiler/ModuleEnv.h): the entry's
// return type, variables' types, specialisation of callees, and diagnostics
// with their locations.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "compiler/Context.h"
#include "compiler/IR.h"
#include "compiler/ModuleEnv.h"
#include "compiler/Signature.h"
#include "compiler/TypeInference.h"

using namespace kjit;

namespace {

// One typing of `func` from `module` for the argument types of `sig` (e.g.
// "(float64[:], int64)"); `ret`, when given, is a declared return type.
struct Typed {
  Context ctx;
  TypedProgram prog;
  std::shared_ptr<FunctionSource> src;

  Typed(const std::string &module, const std::string &func, const std::string &sig,
        const std::string &ret = "", bool parallel = false) {
    Signature s;
    std::string err;
    REQUIRE(parseSignature(ctx.types, sig, s, err));
    const Type *declared = nullptr;
    if (!ret.empty()) {
      declared = parseType(ctx.types, ret, err);
      REQUIRE(declared != nullptr);
    }
    src = functionFromModule(ctx.session(), "m.py", module, func);
    REQUIRE(src != nullptr);
    src->parallel = parallel;
    prog = inferTypes(ctx, src, s.args, declared);
  }
  Typed(const Typed &) = delete;

  bool ok() const { return prog.entry != nullptr && !ctx.diags.hasErrors(); }
  std::string diags() const { return ctx.diags.render(); }
  const ir::Function &entry() const {
    INFO(diags());
    REQUIRE(prog.entry != nullptr);
    return *prog.entry;
  }
  std::string returnType() const { return entry().returnType->str(); }
  // The type of local `name` in the entry (its last incarnation: the typer
  // makes a Var per pass; the last one is the final pass's).
  std::string varType(const std::string &name) const {
    const ir::Function &f = entry();
    for (auto it = f.vars.rbegin(); it != f.vars.rend(); ++it)
      if ((*it)->name == name) return (*it)->type ? (*it)->type->str() : "<null>";
    return "<no variable " + name + ">";
  }
  const std::vector<Diagnostic> &all() const { return ctx.diags.diagnostics(); }
};

// The first statement of kind T in a block, searching nested blocks.
template <class T>
const T *findStmt(const ir::Block &b) {
  for (const ir::Stmt *s : b) {
    if (auto *t = ir::dyn_cast<T>(s)) return t;
    const T *r = nullptr;
    if (auto *i = ir::dyn_cast<ir::If>(s)) {
      if (!(r = findStmt<T>(i->then))) r = findStmt<T>(i->otherwise);
    } else if (auto *w = ir::dyn_cast<ir::While>(s)) {
      if (!(r = findStmt<T>(w->body))) r = findStmt<T>(w->orelse);
    } else if (auto *f = ir::dyn_cast<ir::ForRange>(s)) {
      if (!(r = findStmt<T>(f->body))) r = findStmt<T>(f->orelse);
    }
    if (r) return r;
  }
  return nullptr;
}

}  // namespace

// ---- types of results and variables ------------------------------------------

TEST_CASE("the entry's return type follows the argument types", "[typer]") {
  const char *m =
      "def add(a, b):\n"
      "    return a + b\n";
  {
    Typed t(m, "add", "(int64, float64)");
    CHECK(t.returnType() == "float64");
  }
  {
    Typed t(m, "add", "(int32, int32)");
    CHECK(t.returnType() == "int64");
  }
  {
    Typed t(m, "add", "(float32, int16)");
    CHECK(t.returnType() == "float32");
  }
  {
    Typed t(m, "add", "(float32, int64)");
    CHECK(t.returnType() == "float64");
  }
  {
    Typed t(m, "add", "(uint8, uint8)");
    CHECK(t.returnType() == "uint64");
  }
  {
    Typed t(m, "add", "(UniTuple(int64, 2), Tuple(float32, int64))");
    CHECK(t.returnType() == "Tuple(int64, int64, float32, int64)");
  }
}

TEST_CASE("a function without return returns none", "[typer]") {
  Typed t(
      "def f(a):\n"
      "    a[0] = 1\n",
      "f", "(float64[:],)");
  CHECK(t.returnType() == "none");
}

TEST_CASE("a variable's type unifies its assignments", "[typer]") {
  Typed t(
      "def f(n):\n"
      "    acc = 0\n"
      "    flag = True\n"
      "    for i in range(n):\n"
      "        acc += 0.5\n"
      "        flag = i\n"
      "    return acc + flag\n",
      "f", "(int64,)");
  CHECK(t.returnType() == "float64");
  CHECK(t.varType("acc") == "float64");
  CHECK(t.varType("flag") == "int64");
  CHECK(t.varType("i") == "int64");
  CHECK(t.varType("n") == "int64");
  // Every assignment converts to the unified type.
  const ir::Assign *first = findStmt<ir::Assign>(t.entry().body);
  REQUIRE(first != nullptr);
  CHECK(first->var->name == "acc");
  CHECK(first->value->type->str() == "float64");
}

TEST_CASE("branches unify: int and float make float64, int8 and uint8 make int16", "[typer]") {
  Typed t(
      "def f(n, a, b):\n"
      "    if n > 0:\n"
      "        x = 1\n"
      "        y = a\n"
      "    else:\n"
      "        x = 2.5\n"
      "        y = b\n"
      "    return x, y\n",
      "f", "(int64, int8, uint8)");
  CHECK(t.varType("x") == "float64");
  CHECK(t.varType("y") == "int16");
  CHECK(t.returnType() == "Tuple(float64, int16)");
}

TEST_CASE("array views and allocations have the expected layouts", "[typer]") {
  Typed t(
      "import numpy as np\n"
      "def f(a, n):\n"
      "    row = a[1]\n"
      "    col = a[:, 1]\n"
      "    head = a[:2]\n"
      "    z = np.zeros((n, 2), dtype=np.float32)\n"
      "    r = np.arange(n)\n"
      "    return row\n",
      "f", "(float64[:, ::1], int64)");
  CHECK(t.varType("row") == "array(float64, 1d, C)");
  CHECK(t.varType("col") == "array(float64, 1d, A)");
  CHECK(t.varType("head") == "array(float64, 2d, C)");
  CHECK(t.varType("z") == "array(float32, 2d, C)");
  CHECK(t.varType("r") == "array(int64, 1d, C)");
  CHECK(t.returnType() == "array(float64, 1d, C)");
}

TEST_CASE("math keeps float32 and widens integers", "[typer]") {
  const char *m =
      "import math\n"
      "def f(x):\n"
      "    return math.sqrt(x)\n";
  {
    Typed t(m, "f", "(float32,)");
    CHECK(t.returnType() == "float32");
  }
  {
    Typed t(m, "f", "(int64,)");
    CHECK(t.returnType() == "float64");
  }
  {
    Typed t(m, "f", "(float64,)");
    CHECK(t.returnType() == "float64");
  }
}

// ---- calls and specialisation ------------------------------------------------

TEST_CASE("callees are specialised per argument types and come first", "[typer]") {
  Typed t(
      "def sq(v):\n"
      "    return v * v\n"
      "def g(a, b):\n"
      "    return sq(a) + sq(b) + sq(a)\n",
      "g", "(int32, float32)");
  REQUIRE(t.ok());
  // sq(int32), sq(float32): the repeated sq(a) reuses the first.
  REQUIRE(t.prog.functions.size() == 3);
  CHECK(t.prog.functions[0]->name == "sq");
  CHECK(t.prog.functions[0]->params[0]->type->str() == "int32");
  CHECK(t.prog.functions[0]->returnType->str() == "int64");
  CHECK(t.prog.functions[1]->name == "sq");
  CHECK(t.prog.functions[1]->returnType->str() == "float32");
  CHECK(t.prog.functions.back() == t.prog.entry);
  CHECK(t.prog.functions[0]->symbol != t.prog.functions[1]->symbol);
  CHECK(t.returnType() == "float64");
}

TEST_CASE("a declared return type converts the returned values", "[typer]") {
  const char *m =
      "def f(a, b):\n"
      "    return a + b\n";
  {
    Typed t(m, "f", "(int64, int64)", "float32");
    CHECK(t.returnType() == "float32");
    const ir::Return *r = findStmt<ir::Return>(t.entry().body);
    REQUIRE(r != nullptr);
    REQUIRE(r->value != nullptr);
    CHECK(r->value->type->str() == "float32");
  }
  {
    Typed t(
        "def f(a):\n"
        "    a[0] = 1\n",
        "f", "(float64[:],)", "void");
    CHECK(t.returnType() == "none");
  }
}

TEST_CASE("recursion types when the return type is declared", "[typer]") {
  Typed t(
      "def fact(n):\n"
      "    if n <= 1:\n"
      "        return 1\n"
      "    return n * fact(n - 1)\n",
      "fact", "(int64,)", "int64");
  INFO(t.diags());
  CHECK(t.ok());
  CHECK(t.returnType() == "int64");
}

TEST_CASE("prange loops are parallel only when the function is", "[typer]") {
  const char *m =
      "from kjit import prange\n"
      "def f(a):\n"
      "    for i in prange(a.shape[0]):\n"
      "        a[i] = i\n";
  {
    Typed t(m, "f", "(float64[:],)");
    const ir::ForRange *loop = findStmt<ir::ForRange>(t.entry().body);
    REQUIRE(loop != nullptr);
    CHECK_FALSE(loop->parallel);
  }
  {
    Typed t(m, "f", "(float64[:],)", "", /*parallel=*/true);
    const ir::ForRange *loop = findStmt<ir::ForRange>(t.entry().body);
    REQUIRE(loop != nullptr);
    CHECK(loop->parallel);
    CHECK(loop->constStep == 1);
  }
}

// ---- diagnostics ---------------------------------------------------------------

TEST_CASE("a variable that cannot be unified: error at the conflict, note at the first assignment",
          "[typer][diagnostics]") {
  Typed t(
      "def f(a, n):\n"
      "    y = n\n"
      "    if n > 0:\n"
      "        y = a\n"
      "    return y\n",
      "f", "(float64[:], int64)");
  CHECK_FALSE(t.ok());
  CHECK(t.prog.entry == nullptr);
  REQUIRE(t.ctx.diags.errorCount() == 1);
  const Diagnostic &d = t.all().at(0);
  CHECK(d.category == DiagCategory::Typing);
  CHECK(d.message == "cannot unify int64 and array(float64, 1d, A) for variable 'y'");
  CHECK(d.loc.line == 4);
  CHECK(d.loc.col == 9);
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].severity == Severity::Note);
  CHECK(d.notes[0].message == "'y' is first assigned a value of type int64 here");
  CHECK(d.notes[0].loc.line == 2);
  CHECK(d.notes[0].loc.col == 5);
}

TEST_CASE("return types that cannot be unified", "[typer][diagnostics]") {
  Typed t(
      "def f(a, n):\n"
      "    if n > 0:\n"
      "        return (n, n)\n"
      "    return n\n",
      "f", "(float64[:], int64)");
  REQUIRE(t.ctx.diags.errorCount() == 1);
  const Diagnostic &d = t.all().at(0);
  CHECK(d.message == "cannot unify return types UniTuple(int64 x 2) and int64");
  CHECK(d.loc.line == 4);
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].loc.line == 3);
}

TEST_CASE("undefined names and locals without a value", "[typer][diagnostics]") {
  {
    Typed t(
        "def f(n):\n"
        "    x = n\n"
        "    return x + nothere\n",
        "f", "(int64,)");
    REQUIRE(t.ctx.diags.errorCount() == 1);
    const Diagnostic &d = t.all().at(0);
    CHECK(d.message == "NameError: name 'nothere' is not defined");
    CHECK(d.loc.line == 3);
    CHECK(d.loc.col == 16);
    CHECK(d.loc.endCol == 23);
  }
  {
    Typed t(
        "def f(n):\n"
        "    t = t + n\n",
        "f", "(int64,)");
    REQUIRE(t.ctx.diags.errorCount() == 1);
    CHECK(t.all().at(0).message == "local variable 't' is used before it is assigned a value");
    CHECK(t.all().at(0).loc.line == 2);
    CHECK(t.all().at(0).loc.col == 9);
  }
}

TEST_CASE("an error in a callee is reported at the callee's line", "[typer][diagnostics]") {
  Typed t(
      "def callee(x):\n"
      "    return x[0]\n"
      "\n"
      "def caller(x):\n"
      "    return callee(x) + 1\n",
      "caller", "(float64,)");
  CHECK(t.prog.entry == nullptr);
  REQUIRE(t.ctx.diags.errorCount() >= 1);
  const Diagnostic &d = t.all().at(0);
  CHECK(d.message == "float64 is not subscriptable");
  CHECK(d.loc.line == 2);
}

TEST_CASE("wrong arity of a builtin, bad argument and index types", "[typer][diagnostics]") {
  struct Case {
    const char *body, *sig, *message;
    unsigned line, col;
  } cases[] = {
      {"import math\ndef f(x):\n    return math.sqrt(1, 2)\n", "(float64,)",
       "math.sqrt() takes 1 argument (2 given)", 3, 12},
      {"def f(x):\n    return abs((x, x))\n", "(float64,)",
       "abs() does not accept UniTuple(float64 x 2)", 2, 16},
      {"def f(a, x):\n    return a[x]\n", "(float64[:], float64)",
       "array indices must be integers, not float64", 2, 14},
      {"def f(a):\n    return a[0, 1, 2]\n", "(float64[:, :],)",
       "too many indices for an array of 2 dimensions: 3", 2, 12},
      {"def f(n):\n    for i in range(1.5):\n        pass\n", "(int64,)",
       "range() arguments must be integers, not float64", 2, 20},
      {"def f(a):\n    if a:\n        return 1\n    return 0\n", "(float64[:],)",
       "the truth value of an array (array(float64, 1d, A)) is ambiguous; use a.any() or a.all(), "
       "or compare its size",
       2, 8},
      {"def f(a, x):\n    a[0] = (x, x)\n", "(float64[:], float64)",
       "cannot store a value of type UniTuple(float64 x 2) into an element of array(float64, 1d, "
       "A)",
       2, 5},
  };
  for (const Case &c : cases) {
    INFO(c.body);
    Typed t(c.body, "f", c.sig);
    REQUIRE(t.ctx.diags.errorCount() == 1);
    const Diagnostic &d = t.all().at(0);
    CHECK(d.message == c.message);
    CHECK(d.loc.line == c.line);
    CHECK(d.loc.col == c.col);
  }
}

TEST_CASE("unsupported constructs are reported as Unsupported", "[typer][diagnostics]") {
  {
    Typed t(
        "def f(a, b):\n"
        "    del a\n"
        "    return b\n",
        "f", "(float64[:], float64[:])");
    REQUIRE(t.ctx.diags.errorCount() == 1);
    CHECK(t.all().at(0).category == DiagCategory::Unsupported);
  }
  {
    // A run-time index into a tuple whose elements differ in type.
    Typed t(
        "def f(x, i):\n"
        "    t = (x, i)\n"
        "    return t[i]\n",
        "f", "(float64, int64)");
    REQUIRE(t.ctx.diags.errorCount() == 1);
    CHECK(t.all().at(0).category == DiagCategory::Unsupported);
    CHECK(t.all().at(0).loc.line == 3);
  }
}

TEST_CASE("assigning to an item of a read-only array", "[typer][diagnostics]") {
  Context ctx;
  auto src = functionFromModule(ctx.session(), "m.py", "def f(a):\n    a[0] = 1.0\n", "f");
  REQUIRE(src != nullptr);
  const Type *ro = ctx.types.array(ctx.types.float64(), 1, Layout::C, /*readonly=*/true);
  TypedProgram p = inferTypes(ctx, src, {ro});
  CHECK(p.entry == nullptr);
  REQUIRE(ctx.diags.errorCount() == 1);
  const Diagnostic &d = ctx.diags.diagnostics().at(0);
  CHECK(d.message ==
        "cannot assign to an item of a read-only array (readonly array(float64, 1d, C))");
  CHECK(d.loc.line == 2);
  CHECK(d.loc.col == 5);
}

TEST_CASE("break in a parallel prange loop", "[typer][diagnostics]") {
  Typed t(
      "from kjit import prange\n"
      "def f(a):\n"
      "    for i in prange(a.shape[0]):\n"
      "        if a[i] > 0:\n"
      "            break\n"
      "        for j in range(3):\n"
      "            break\n",
      "f", "(float64[:],)", "", /*parallel=*/true);
  // Only the first break leaves the prange loop; the second leaves an inner
  // sequential loop and is fine.
  REQUIRE(t.ctx.diags.errorCount() == 1);
  const Diagnostic &d = t.all().at(0);
  CHECK(d.category == DiagCategory::Unsupported);
  CHECK(d.message == "'break' is not supported inside a prange loop");
  CHECK(d.loc.line == 5);
}

TEST_CASE("a declared void return with a returned value", "[typer][diagnostics]") {
  Typed t(
      "def f(n):\n"
      "    return n\n",
      "f", "(int64,)", "void");
  REQUIRE(t.ctx.diags.errorCount() == 1);
  CHECK(t.all().at(0).message ==
        "the signature declares no return value (void) but f() returns int64");
  CHECK(t.all().at(0).loc.line == 2);
}

TEST_CASE("functionFromModule finds top-level functions only", "[typer]") {
  Session session;
  CHECK(functionFromModule(session, "m.py", "def f():\n    pass\n", "g") == nullptr);
  auto f = functionFromModule(session, "m.py",
                              "import math\ndef f():\n    pass\ndef g():\n    pass\n", "g");
  REQUIRE(f != nullptr);
  CHECK(f->name == "g");
  CHECK(f->filename == "m.py");
  REQUIRE(f->lookup);
  // Globals: imports and the module's other functions.
  auto m = f->lookup("math");
  REQUIRE(m.has_value());
  CHECK(m->kind == GlobalValue::Kind::Module);
  CHECK(m->name == "math");
  auto other = f->lookup("f");
  REQUIRE(other.has_value());
  CHECK(other->kind == GlobalValue::Kind::JitFunction);
  CHECK_FALSE(f->lookup("numpy").has_value());
}
