// Unit tests of the registry of built-ins (compiler/builtins/BuiltinCall.h):
// each family's rows are unique and typed, a module attribute resolves from
// the rows, and one row (np.sign) types numbers, arrays and kernels.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "compiler/Context.h"
#include "compiler/ModuleEnv.h"
#include "compiler/Signature.h"
#include "compiler/TypeInference.h"
#include "compiler/builtins/BuiltinCall.h"

using namespace kjit;

namespace {

// The return type of `f` in `module` typed for `sig`, or the diagnostics.
std::string returnTypeOf(const std::string &module, const std::string &sig) {
  Context ctx;
  Signature s;
  std::string err;
  REQUIRE(parseSignature(ctx.types, sig, s, err));
  auto src = functionFromModule(ctx.session(), "m.py", module, "f");
  REQUIRE(src != nullptr);
  TypedProgram prog = inferTypes(ctx, src, s.args, nullptr);
  if (!prog.entry || ctx.diags.hasErrors()) return "error: " + ctx.diags.render();
  return prog.entry->returnType->str();
}

}  // namespace

TEST_CASE("every family's rows are unique and typed", "[builtins]") {
  for (const char *module :
       {"builtins", "operator", "number", "math", "cmath", "numpy", "numpy.linalg", "numpy.random",
        "array", "list", "dict", "set", "str", "kjit.cuda", "kjit", "numba"}) {
    INFO(module);
    const BuiltinFamily *fam = findFamily(module);
    REQUIRE(fam != nullptr);
    REQUIRE((!fam->entries.empty() || fam->fallback));
    std::set<std::string> names;
    for (const BuiltinEntry &e : fam->entries) {
      INFO(e.name);
      CHECK(names.insert(e.name).second);
      CHECK(e.type != nullptr);
      CHECK((e.form != BuiltinForm::Ufunc || e.nin == 1 || e.nin == 2));
    }
  }
  CHECK(findFamily("no.such.module") == nullptr);
}

TEST_CASE("np.sign is one ufunc row of the numpy family", "[builtins]") {
  const BuiltinEntry *e = findBuiltin("numpy", "sign");
  REQUIRE(e != nullptr);
  CHECK(e->form == BuiltinForm::Ufunc);
  CHECK(e->nin == 1);
  CHECK(findBuiltin("numpy", "no_such_function") == nullptr);
  // The module attribute comes from the row.
  Session session;
  auto g = moduleAttribute(session, "numpy", "sign");
  REQUIRE(g);
  CHECK(g->kind == GlobalValue::Kind::Function);
  CHECK(g->name == "numpy.sign");
}

TEST_CASE("module attributes resolve from the rows", "[builtins]") {
  Session session;
  CHECK(moduleAttribute(session, "math", "sqrt"));
  CHECK_FALSE(moduleAttribute(session, "math", "power"));  // NumPy's spelling, not math's
  CHECK(moduleAttribute(session, "operator", "iand"));
  CHECK(moduleAttribute(session, "numpy.random", "seed"));
  CHECK(builtinGlobal("len"));
  CHECK_FALSE(builtinGlobal("no_such_builtin"));
}

TEST_CASE("np.sign types numbers and arrays as NumPy", "[builtins]") {
  const std::string m =
      "import numpy as np\n"
      "def f(x):\n"
      "    return np.sign(x)\n";
  CHECK(returnTypeOf(m, "(float32)") == "float32");
  CHECK(returnTypeOf(m, "(int8)") == "int8");
  CHECK(returnTypeOf(m, "(complex128)") == "complex128");
  CHECK(returnTypeOf(m, "(int32[:])") == "array(int32, 1d, C)");
  CHECK_THAT(returnTypeOf(m, "(bool)"), Catch::Contains("np.sign() does not accept bool"));
}
