// Threads compiling one function at once (the JIT driver without Python):
// the first caller compiles under the function's lock, the others wait and
// find its result, so eight threads asking for a new specialisation at once
// get one CompileResult, and its code runs in each of them. `make tsan`
// runs this under ThreadSanitizer.
#include <atomic>
#include <catch2/catch.hpp>
#include <memory>
#include <thread>
#include <vector>

#include "compiler/GlobalEnv.h"
#include "runtime/host/HostRuntime.h"
#include "runtime/jit/JitFunction.h"

using namespace kjit;
using namespace kjit::jit;

namespace {

std::shared_ptr<FunctionSource> source(const std::string &name, const std::string &text) {
  auto s = std::make_shared<FunctionSource>();
  s->name = name;
  s->filename = "<threads>";
  s->text = text;
  s->paramNames = {"x", "n"};
  s->lookup = [](const std::string &) { return std::optional<GlobalValue>(); };
  return s;
}

}  // namespace

TEST_CASE("eight threads asking for a new specialisation at once compile it once",
          "[jit][threads]") {
  static JitRuntime *rt = new JitRuntime();  // (as the binding's: never destroyed)
  JitFunction fn(*rt,
                 source("poly",
                        "def poly(x, n):\n"
                        "    s = 0.0\n"
                        "    for i in range(n):\n"
                        "        s += x * i\n"
                        "    return s\n"),
                 JitOptions{});
  constexpr int kThreads = 8;
  std::vector<const CompileResult *> got(kThreads, nullptr);
  std::vector<double> values(kThreads, 0.0);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();  // released together
      const CompileResult &c = fn.hostCompileSignature("float64(float64, int64)");
      got[t] = &c;
      double x = t;
      int64_t n = 4;
      void *args[] = {&x, &n};
      KjitCallContext ctx;
      double out = -1.0;
      if (c.entry && c.entry(args, &out, &ctx) == 0) values[t] = out;
    });
  }
  for (auto &th : threads) th.join();
  CHECK(fn.host().all().size() == 1);
  for (int t = 0; t < kThreads; ++t) {
    CHECK(got[t] == got[0]);
    CHECK(values[t] == Approx(t * 6.0));  // x * (0 + 1 + 2 + 3)
  }
}
