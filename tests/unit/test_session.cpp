// The Session (compiler/Session.h): what outlives one compilation is its own,
// shared by the Contexts given it and by nothing else.
#include <catch2/catch.hpp>
#include <thread>
#include <vector>

#include "compiler/Context.h"
#include "compiler/JitClass.h"
#include "compiler/ModuleEnv.h"
#include "compiler/Session.h"
#include "compiler/UfuncSource.h"

using namespace kjit;

namespace {

std::shared_ptr<const JitClassInfo> pointClass() {
  auto info = std::make_shared<JitClassInfo>();
  info->id = "m.Point#1";
  info->name = "Point";
  info->fieldNames = {"x", "y"};
  info->fieldTypes = {"float64", "int64"};
  return info;
}

UfuncLoopSpec sinLoop() {
  UfuncLoopSpec spec;
  spec.ufunc = "sin";
  spec.inputs = {1};
  spec.ndim = 1;
  spec.allocateDtype = "float64";
  return spec;
}

}  // namespace

TEST_CASE("two sessions share no @jitclass", "[session]") {
  Session a, b;
  a.registerJitClass(pointClass());
  CHECK(a.findJitClass("m.Point#1") != nullptr);
  CHECK(b.findJitClass("m.Point#1") == nullptr);
  TypeContext tc;
  std::string error;
  const Type *t = jitClassType(a, tc, "m.Point#1", error);
  REQUIRE(t != nullptr);
  CHECK(t->isJitClass());
  CHECK(t->str() == "instance.jitclass.Point<x:float64,y:int64>");
  CHECK(jitClassType(b, tc, "m.Point#1", error) == nullptr);
  CHECK(error == "unknown @jitclass 'm.Point#1'");
}

TEST_CASE("two sessions share no library function", "[session]") {
  Session a, b;
  std::shared_ptr<FunctionSource> la = a.libraryFunction("linspace");
  std::shared_ptr<FunctionSource> lb = b.libraryFunction("linspace");
  REQUIRE(la != nullptr);
  REQUIRE(lb != nullptr);
  CHECK(la != lb);
  CHECK(la->identity == lb->identity);  // stable: the cache keys rely on it
  CHECK(a.libraryFunction("linspace") == la);
  CHECK(a.libraryFunction("no_such_function") == nullptr);

  std::shared_ptr<FunctionSource> ca = a.cmathFunction("exp"), cb = b.cmathFunction("exp");
  REQUIRE(ca != nullptr);
  REQUIRE(cb != nullptr);
  CHECK(ca != cb);
  CHECK(ca->identity == cb->identity);
  CHECK(a.cmathFunction("exp") == ca);

  std::shared_ptr<FunctionSource> ua = a.ufuncLoopFunction(sinLoop());
  std::shared_ptr<FunctionSource> ub = b.ufuncLoopFunction(sinLoop());
  REQUIRE(ua != nullptr);
  CHECK(ua != ub);
  CHECK(ua->identity == ub->identity);
  CHECK(a.ufuncLoopFunction(sinLoop()) == ua);
}

TEST_CASE("one session serves two contexts", "[session]") {
  auto shared = std::make_shared<Session>();
  Context c1(shared), c2(shared);
  CHECK(&c1.session() == shared.get());
  CHECK(&c2.session() == shared.get());
  std::shared_ptr<FunctionSource> f1 = c1.session().libraryFunction("linspace");
  REQUIRE(f1 != nullptr);
  CHECK(c2.session().libraryFunction("linspace") == f1);
  CHECK(c2.session().cmathFunction("sqrt") == c1.session().cmathFunction("sqrt"));
  c1.session().registerJitClass(pointClass());
  CHECK(c2.session().findJitClass("m.Point#1") != nullptr);

  // Contexts made alone have sessions of their own.
  Context alone1, alone2;
  CHECK(&alone1.session() != &alone2.session());
  CHECK(alone1.session().libraryFunction("linspace") != f1);
}

TEST_CASE("a module's imports from numpy are the session's functions", "[session]") {
  Session session;
  auto f = functionFromModule(
      session, "m.py", "from numpy import linspace\ndef f():\n    return linspace(0, 1)\n", "f");
  REQUIRE(f != nullptr);
  REQUIRE(f->lookup);
  std::optional<GlobalValue> g = f->lookup("linspace");
  REQUIRE(g);
  CHECK(g->kind == GlobalValue::Kind::JitFunction);
  CHECK(g->fn == session.libraryFunction("linspace"));
}

TEST_CASE("threads asking one session for a function get the same one", "[session]") {
  Session session;
  std::vector<std::shared_ptr<FunctionSource>> got(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < got.size(); ++i)
    threads.emplace_back([&, i] { got[i] = session.libraryFunction("_list_sort_key"); });
  for (std::thread &t : threads) t.join();
  REQUIRE(got[0] != nullptr);
  for (const auto &f : got) CHECK(f == got[0]);
}
