#include <catch2/catch.hpp>

#include "helpers.h"

using namespace kjit;

TEST_CASE("a diagnostic renders like a Python traceback", "[diagnostics]") {
  Context ctx;
  ctx.parse("k.py", "def f(x):\n    y = (yield x)\n    return y\n", 12);
  REQUIRE(ctx.diags.errorCount() == 1);
  CHECK(ctx.diags.render() ==
        "k.py:13:9: error: generators ('yield') are not supported in kernels\n"
        "  File \"k.py\", line 13\n"
        "    y = (yield x)\n"
        "        ^^^^^^^^^\n");
  const Diagnostic &d = ctx.diags.diagnostics()[0];
  CHECK(d.category == DiagCategory::Unsupported);
  CHECK(d.loc.line == 13);
  CHECK(d.loc.col == 9);
  CHECK(d.loc.endCol == 18);
}

TEST_CASE("notes follow their error", "[diagnostics]") {
  Context ctx;
  ctx.parse("k.py", "x = (1,\n     2]\n");
  std::string r = ctx.diags.render();
  CHECK_THAT(r, Catch::Contains("k.py:2:7: error: closing parenthesis ']' does not match opening "
                                "parenthesis '(' on line 1"));
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

TEST_CASE("past the error limit, one note says that the rest was dropped", "[diagnostics]") {
  Context ctx;
  ctx.diags.setErrorLimit(3);
  std::string src = "def f():\n";
  for (int i = 0; i < 10; ++i) src += "    global x\n";
  ctx.parse("k.py", src);
  const std::vector<Diagnostic> &all = ctx.diags.diagnostics();
  REQUIRE(all.size() == 4);
  CHECK(all.back().severity == Severity::Note);
  CHECK_FALSE(all.back().loc.valid());
  std::string r = ctx.diags.render();
  CHECK_THAT(r, Catch::EndsWith("k.py\", line 4\n    global x\n    ^^^^^^^^\n"
                                "note: too many errors emitted, stopping now\n"));
}

TEST_CASE("no note when the errors stop at the limit", "[diagnostics]") {
  Context ctx;
  ctx.diags.setErrorLimit(3);
  ctx.parse("k.py", "def f():\n    global x\n    global y\n    global z\n");
  CHECK(ctx.diags.errorCount() == 3);
  CHECK(ctx.diags.diagnostics().size() == 3);
  CHECK_FALSE(ctx.diags.errorLimitExceeded());
}

TEST_CASE("a note after a dropped error is dropped too", "[diagnostics]") {
  Context ctx;
  ctx.diags.setErrorLimit(1);
  ctx.diags.error(DiagCategory::Syntax, SourceLoc{}, "first");
  ctx.diags.error(DiagCategory::Syntax, SourceLoc{}, "second");
  ctx.diags.note(SourceLoc{}, "about the second");
  ctx.diags.warning(DiagCategory::Performance, SourceLoc{}, "after the stop");
  CHECK(ctx.diags.render() == "error: first\nnote: too many errors emitted, stopping now\n");
}

TEST_CASE("the caret line counts characters on screen, not bytes", "[diagnostics]") {
  // "日本" is 6 bytes and 4 columns wide; "é" is 2 bytes and 1 column.
  CHECK_THAT(test::diagsOf("def f():\n    s = '\xE6\x97\xA5\xE6\x9C\xAC\xC3\xA9'; t = {**d}\n"),
             Catch::Contains("t.py:2:25: error: '**' unpacking in a dict display is not supported\n"
                             "  File \"t.py\", line 2\n"
                             "    s = '\xE6\x97\xA5\xE6\x9C\xAC\xC3\xA9'; t = {**d}\n"
                             "                     ^^^^^\n"));
}

TEST_CASE("source lines end at LF, CRLF or a lone CR", "[diagnostics]") {
  SourceManager sm;
  const SourceBuffer &b = sm.buffer(sm.add("t.py", "a\rb\r\nc\nd", 5));
  CHECK(b.lineText(5) == "a");
  CHECK(b.lineText(6) == "b");
  CHECK(b.lineText(7) == "c");
  CHECK(b.lineText(8) == "d");
  CHECK(b.lineText(9).empty());
}

TEST_CASE("a byte order mark is not part of the first line", "[diagnostics]") {
  SourceManager sm;
  const SourceBuffer &b = sm.buffer(sm.add("t.py", "\xEF\xBB\xBFx = 1\n"));
  CHECK(b.lineText(1) == "x = 1");
}
