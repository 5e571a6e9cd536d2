#include <catch2/catch.hpp>

#include "helpers.h"

using namespace kjit;
using kjit::test::kinds;
using K = TokKind;

namespace {
std::vector<Token> lexText(Context &ctx, const std::string &text, uint32_t firstLine = 1) {
  uint32_t id = ctx.sources.add("t.py", text, firstLine);
  return lex(ctx.sources, id, ctx.diags);
}
}  // namespace

TEST_CASE("indentation produces INDENT and DEDENT", "[lexer]") {
  Context ctx;
  auto toks = lexText(ctx, "def f():\n    if x:\n        y\n    z\n");
  std::vector<K> want = {K::KwDef,      K::Identifier, K::LParen,     K::RParen,     K::Colon,
                         K::Newline,    K::Indent,     K::KwIf,       K::Identifier, K::Colon,
                         K::Newline,    K::Indent,     K::Identifier, K::Newline,    K::Dedent,
                         K::Identifier, K::Newline,    K::Dedent,     K::EndOfFile};
  CHECK(kinds(toks) == want);
  CHECK_FALSE(ctx.diags.hasErrors());
}

TEST_CASE("the first line's indentation is the base level", "[lexer]") {
  Context ctx;
  auto toks = lexText(ctx, "    def f():\n        return 1\n", 40);
  CHECK(toks[0].kind == K::KwDef);
  CHECK(toks[0].loc.line == 40);
  CHECK(toks[0].loc.col == 5);
  CHECK_FALSE(ctx.diags.hasErrors());
}

TEST_CASE("blank lines, comments and brackets do not end lines", "[lexer]") {
  Context ctx;
  auto toks = lexText(ctx, "x = (1 +\n\n  # c\n   2)  # trailing\n\ny = 3 \\\n  + 4\n");
  std::vector<K> want = {K::Identifier, K::Assign, K::LParen,  K::Integer,    K::Plus,
                         K::Integer,    K::RParen, K::Newline, K::Identifier, K::Assign,
                         K::Integer,    K::Plus,   K::Integer, K::Newline,    K::EndOfFile};
  CHECK(kinds(toks) == want);
  CHECK_FALSE(ctx.diags.hasErrors());
}

TEST_CASE("numeric literals in every form", "[lexer]") {
  Context ctx;
  auto toks =
      lexText(ctx, "0xFF 0o17 0b1010 1_000_000 0 00 1.5 .5 5. 1e3 1.5E-2 2j 1.5J 1_0.0_1\n");
  REQUIRE(toks.size() >= 14);
  CHECK(toks[0].intValue == 255);
  CHECK(toks[1].intValue == 15);
  CHECK(toks[2].intValue == 10);
  CHECK(toks[3].intValue == 1000000);
  CHECK(toks[4].intValue == 0);
  CHECK(toks[5].intValue == 0);
  CHECK(toks[6].kind == K::Float);
  CHECK(toks[6].floatValue == 1.5);
  CHECK(toks[7].floatValue == 0.5);
  CHECK(toks[8].floatValue == 5.0);
  CHECK(toks[9].floatValue == 1000.0);
  CHECK(toks[10].floatValue == Approx(0.015));
  CHECK(toks[11].kind == K::Imaginary);
  CHECK(toks[11].floatValue == 2.0);
  CHECK(toks[12].floatValue == 1.5);
  CHECK(toks[13].floatValue == Approx(10.01));
  CHECK_FALSE(ctx.diags.hasErrors());
}

TEST_CASE("integers beyond 64 bits are flagged, not wrapped", "[lexer]") {
  Context ctx;
  auto toks = lexText(ctx, "18446744073709551615 18446744073709551616\n");
  CHECK(toks[0].intValue == UINT64_MAX);
  CHECK_FALSE(toks[0].intTooLarge);
  CHECK(toks[1].intTooLarge);
}

TEST_CASE("malformed numbers are errors with a location", "[lexer]") {
  CHECK_THAT(test::diagsOf("x = 1__0\n"),
             Catch::Contains("t.py:1:5: error: invalid decimal literal"));
  CHECK_THAT(test::diagsOf("x = 0x\n"), Catch::Contains("invalid hexadecimal literal"));
  CHECK_THAT(test::diagsOf("x = 012\n"), Catch::Contains("leading zeros in decimal integer"));
  CHECK_THAT(test::diagsOf("x = 1abc\n"), Catch::Contains("invalid decimal literal"));
}

TEST_CASE("string literals: quotes, escapes, raw, bytes, triple", "[lexer]") {
  Context ctx;
  auto toks = lexText(ctx, "'a\\n' \"b\\x41\" r'\\n' b'\\x00' '''l1\nl2''' f'x'\n");
  CHECK(toks[0].strValue == "a\n");
  CHECK(toks[1].strValue == "bA");
  CHECK(toks[2].strValue == "\\n");
  CHECK(toks[3].isBytes);
  CHECK(toks[3].strValue == std::string(1, '\0'));
  CHECK(toks[4].strValue == "l1\nl2");
  CHECK(toks[4].loc.endLine == 2);
  CHECK(toks[5].isFString);
  CHECK_FALSE(ctx.diags.hasErrors());
}

TEST_CASE("unterminated strings are reported at their start", "[lexer]") {
  CHECK_THAT(test::diagsOf("x = 'abc\n"),
             Catch::Contains("t.py:1:5: error: unterminated string literal (detected at line 1)"));
  CHECK_THAT(test::diagsOf("x = '''abc\n\n"),
             Catch::Contains("unterminated triple-quoted string literal"));
}

TEST_CASE("tabs and spaces mixed inconsistently are an error", "[lexer]") {
  std::string src = "def f():\n        x = 1\n\ty = 2\n";
  CHECK_THAT(test::diagsOf(src),
             Catch::Contains("inconsistent use of tabs and spaces in indentation"));
  // Consistent tabs are fine.
  CHECK(test::diagsOf("def f():\n\tx = 1\n\tif x:\n\t\ty = 2\n").empty());
}

TEST_CASE("a dedent to no outer level is an error", "[lexer]") {
  CHECK_THAT(
      test::diagsOf("def f():\n    x = 1\n  y = 2\n"),
      Catch::Contains("t.py:3:3: error: unindent does not match any outer indentation level"));
}

TEST_CASE("brackets must match", "[lexer]") {
  CHECK_THAT(test::diagsOf("x = (1, 2]\n"),
             Catch::Contains("closing parenthesis ']' does not match opening parenthesis '('"));
  CHECK_THAT(test::diagsOf("x = 1)\n"), Catch::Contains("unmatched ')'"));
  CHECK_THAT(test::diagsOf("x = (1,\n"), Catch::Contains("t.py:1:5: error: '(' was never closed"));
}

TEST_CASE("invalid characters are reported and lexing goes on", "[lexer]") {
  std::string d = test::diagsOf("x = 1 $ 2\ny = 3 ? 4\n");
  CHECK_THAT(d, Catch::Contains("t.py:1:7: error: invalid character '$' (U+0024)"));
  CHECK_THAT(d, Catch::Contains("t.py:2:7: error: invalid character '?' (U+003F)"));
}

TEST_CASE("CRLF line endings", "[lexer]") {
  Context ctx;
  auto toks = lexText(ctx, "def f():\r\n    return 1\r\n");
  CHECK(kinds(toks) == std::vector<K>{K::KwDef, K::Identifier, K::LParen, K::RParen, K::Colon,
                                      K::Newline, K::Indent, K::KwReturn, K::Integer, K::Newline,
                                      K::Dedent, K::EndOfFile});
  CHECK(toks[7].loc.line == 2);
}

TEST_CASE("a line continuation at the end of input is reported where it is", "[lexer]") {
  for (const char *src : {"x = 1 \\\n", "x = 1 \\"}) {
    Context ctx;
    lexText(ctx, src);
    REQUIRE(ctx.diags.errorCount() == 1);
    const Diagnostic &d = ctx.diags.diagnostics()[0];
    CHECK(d.message == "unexpected end of input after line continuation");
    CHECK(d.loc.line == 1);
    CHECK(d.loc.col == 7);
    CHECK(d.loc.endCol == 8);
  }
}

TEST_CASE("names follow Python's rules for non-ASCII characters", "[lexer]") {
  Context ctx;
  // U+00B7 MIDDLE DOT may continue a name but not start one.
  auto toks = lexText(ctx, "\xCF\x80_1 = x\xC2\xB7y\n");
  REQUIRE(kinds(toks) ==
          std::vector<K>{K::Identifier, K::Assign, K::Identifier, K::Newline, K::EndOfFile});
  CHECK(toks[0].text == "\xCF\x80_1");
  CHECK(toks[2].text == "x\xC2\xB7y");
  CHECK_FALSE(ctx.diags.hasErrors());
  CHECK_THAT(test::diagsOf("x = \xC2\xB7y\n"),
             Catch::Contains("t.py:1:5: error: invalid character '\xC2\xB7' (U+00B7)"));
}

TEST_CASE("invalid UTF-8 and invisible characters are reported by code", "[lexer]") {
  CHECK_THAT(test::diagsOf("x = \xFF\n"),
             Catch::Contains("t.py:1:5: error: invalid byte 0xFF; source text must be UTF-8"));
  // U+200B ZERO WIDTH SPACE is not shown, only named.
  CHECK_THAT(test::diagsOf("x = 1\xE2\x80\x8B\n"),
             Catch::Contains("t.py:1:6: error: invalid character (U+200B)"));
}

TEST_CASE("a UTF-8 byte order mark at the start is skipped", "[lexer]") {
  Context ctx;
  auto toks = lexText(ctx, "\xEF\xBB\xBFx = 1\n");
  REQUIRE(toks[0].kind == K::Identifier);
  CHECK(toks[0].text == "x");
  CHECK(toks[0].loc.col == 1);
  CHECK_FALSE(ctx.diags.hasErrors());
}

TEST_CASE("named Unicode escapes are refused, not kept raw", "[lexer]") {
  Context ctx;
  auto toks = lexText(ctx, "'\\N{DEGREE SIGN}' b'\\N{X}' r'\\N{X}'\n");
  REQUIRE(ctx.diags.errorCount() == 1);
  const Diagnostic &d = ctx.diags.diagnostics()[0];
  CHECK(d.category == DiagCategory::Unsupported);
  CHECK_THAT(d.message, Catch::StartsWith("named Unicode escapes ('\\N{...}') are not supported"));
  CHECK(d.loc.col == 2);
  CHECK(d.loc.endCol == 17);
  // In bytes and raw strings '\N' is no escape.
  CHECK(toks[1].strValue == "\\N{X}");
  CHECK(toks[2].strValue == "\\N{X}");
  CHECK_THAT(test::diagsOf("x = '\\N'\n"),
             Catch::Contains("t.py:1:6: error: malformed \\N character escape in string literal"));
}

TEST_CASE("closing brackets that match nothing become Error tokens", "[lexer]") {
  Context ctx;
  auto toks = lexText(ctx, "f(x]\ny)\n");
  CHECK(kinds(toks) == std::vector<K>{K::Identifier, K::LParen, K::Identifier, K::Error, K::Newline,
                                      K::Identifier, K::Error, K::Newline, K::EndOfFile});
  CHECK(ctx.diags.errorCount() == 2);
}

TEST_CASE("an unclosed bracket ends the token stream at the bracket", "[lexer]") {
  Context ctx;
  auto toks = lexText(ctx, "def f():\n    y = g(x,\n    return y\n");
  CHECK(kinds(toks) == std::vector<K>{K::KwDef, K::Identifier, K::LParen, K::RParen, K::Colon,
                                      K::Newline, K::Indent, K::Identifier, K::Assign,
                                      K::Identifier, K::Error, K::Newline, K::Dedent,
                                      K::EndOfFile});
  REQUIRE(ctx.diags.errorCount() == 1);
  CHECK(ctx.diags.diagnostics()[0].message == "'(' was never closed");
}
