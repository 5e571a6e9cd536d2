#include <catch2/catch.hpp>

#include "helpers.h"

using namespace kjit;

TEST_CASE("a diagnostic renders like a Python traceback", "[diagnostics]") {
  Context ctx;
  ctx.parse("k.py", "def f(x):\n    y = [i for i in x]\n    return y\n", 12);
  REQUIRE(ctx.diags.errorCount() == 1);
  CHECK(ctx.diags.render() ==
        "k.py:13:9: error: list comprehensions are not supported in kernels; write a loop\n"
        "  File \"k.py\", line 13\n"
        "    y = [i for i in x]\n"
        "        ^^^^^^^^^^^^^^\n");
  const Diagnostic &d = ctx.diags.diagnostics()[0];
  CHECK(d.category == DiagCategory::Unsupported);
  CHECK(d.loc.line == 13);
  CHECK(d.loc.col == 9);
  CHECK(d.loc.endCol == 23);
}

TEST_CASE("notes follow their error", "[diagnostics]") {
  Context ctx;
  ctx.parse("k.py", "x = (1,\n     2]\n");
  std::string r = ctx.diags.render();
  CHECK_THAT(r, Catch::Contains("k.py:2:7: error: closing parenthesis ']' does not match opening parenthesis '(' on line 1"));
  CHECK_THAT(r, Catch::Contains("k.py:1:5: note: '(' opened here, expected ')'"));
}

TEST_CASE("the error limit stops a cascade", "[diagnostics]") {
  Context ctx;
  ctx.diags.setErrorLimit(3);
  std::string src = "def f():\n";
  for (int i = 0; i < 10; ++i) src += "    global x\n";
  ctx.parse("k.py", src);
  CHECK(ctx.diags.errorCount() == 3);
}
