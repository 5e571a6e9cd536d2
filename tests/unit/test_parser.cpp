#include <catch2/catch.hpp>

#include "helpers.h"

using namespace kjit;
using kjit::test::diagsOf;
using kjit::test::exprOf;

TEST_CASE("arithmetic precedence and associativity", "[parser]") {
  CHECK(exprOf("a + b * c") == "(+ a (* b c))");
  CHECK(exprOf("a - b - c") == "(- (- a b) c)");
  CHECK(exprOf("2 ** 3 ** 2") == "(** 2 (** 3 2))");
  CHECK(exprOf("-x ** 2") == "(u- (** x 2))");
  CHECK(exprOf("2 ** -1") == "(** 2 (u- 1))");
  CHECK(exprOf("a // b % c * d") == "(* (% (// a b) c) d)");
  CHECK(exprOf("a | b ^ c & d << e + f") == "(| a (^ b (& c (<< d (+ e f)))))");
  CHECK(exprOf("~a + -b") == "(+ (~ a) (u- b))");
  CHECK(exprOf("(a + b) * c") == "(* (+ a b) c)");
}

TEST_CASE("boolean operators, not, comparisons", "[parser]") {
  CHECK(exprOf("a or b and c") == "(or a (and b c))");
  CHECK(exprOf("a and b and c") == "(and a b c)");
  CHECK(exprOf("not a == b") == "(not (== a b))");
  CHECK(exprOf("a < b <= c") == "(cmp a < b <= c)");
  CHECK(exprOf("a is not None") == "(is not a None)");
  CHECK(exprOf("a not in b") == "(not in a b)");
  CHECK(exprOf("a + 1 < b * 2") == "(< (+ a 1) (* b 2))");
}

TEST_CASE("conditional expressions and lambdas", "[parser]") {
  CHECK(exprOf("a if c else b") == "(if c a b)");
  CHECK(exprOf("a if c else b if d else e") == "(if c a (if d b e))");
  // In a function's body a lambda is a def hoisted before its statement.
  CHECK(exprOf("lambda x, y: x + y") == "$lambda1");
  CHECK_THAT(kjit::test::stmtsOf("return lambda x, y: x + y"),
             Catch::Contains("return <2:25> (+ x y)") && Catch::Contains("def $lambda1(x, y)"));
  CHECK(exprOf("lambda: 0") == "$lambda1");
}

TEST_CASE("calls, attributes, subscripts, slices, tuples", "[parser]") {
  CHECK(exprOf("cuda.grid(1)") == "(call (. cuda grid) 1)");
  CHECK(exprOf("f(a, b=2)") == "(call f a (kw b 2))");
  CHECK(exprOf("a[i, j]") == "(index a (tuple i j))");
  CHECK(exprOf("a[1:n:2]") == "(index a (slice 1 n 2))");
  CHECK(exprOf("a[:, ::1]") == "(index a (tuple (slice _ _ _) (slice _ _ 1)))");
  CHECK(exprOf("a[::]") == "(index a (slice _ _ _))");
  CHECK(exprOf("x.shape[0]") == "(index (. x shape) 0)");
  CHECK(exprOf("a, b") == "(tuple a b)");
  CHECK(exprOf("(a,)") == "(tuple a)");
  CHECK(exprOf("()") == "(tuple)");
  CHECK(exprOf("[1, 2]") == "(list 1 2)");
}

TEST_CASE("literals", "[parser]") {
  CHECK(exprOf("None") == "None");
  CHECK(exprOf("True") == "True");
  CHECK(exprOf("1.5") == "(float 1.5)");
  CHECK(exprOf("3j") == "(imag 3)");
  CHECK(exprOf("'a' \"b\"") == "\"ab\"");
  CHECK(exprOf("...") == "...");
  CHECK(exprOf("99999999999999999999") == "(int-too-large 99999999999999999999)");
}

TEST_CASE("statements print with their locations", "[parser]") {
  Context ctx;
  ast::Module m = ctx.parse("k.py",
                            "@cuda.jit\n"
                            "def k(x, n=4):\n"
                            "    \"\"\"doc\"\"\"\n"
                            "    for i in range(n):\n"
                            "        if i > 2:\n"
                            "            break\n"
                            "        elif i:\n"
                            "            continue\n"
                            "        else:\n"
                            "            x[i] += 1\n"
                            "    a = b = 0\n"
                            "    c: int = 1\n"
                            "    assert a == 0, 'msg'\n"
                            "    raise ValueError('bad')\n",
                            10);
  REQUIRE_FALSE(ctx.diags.hasErrors());
  CHECK(ast::printModule(m) ==
        "def k(x, n=4) <11:1>\n"
        "  decorator (. cuda jit)\n"
        "  docstring \"doc\"\n"
        "  for <13:5> i in (call range n)\n"
        "    if <14:9> (> i 2)\n"
        "      break <15:13>\n"
        "    elif <16:9> i\n"
        "      continue <17:13>\n"
        "    else\n"
        "      augassign <19:13> (index x i) += 1\n"
        "  assign <20:5> a = b = 0\n"
        "  annassign <21:5> c: int = 1\n"
        "  assert <22:5> (== a 0), \"msg\"\n"
        "  raise <23:5> (call ValueError \"bad\")\n");
}

TEST_CASE("module mode skips code the kernels never see", "[parser]") {
  Context ctx;
  ast::Module m = ctx.parse("m.py",
                            "import numpy as np\n"
                            "from kjit import cuda\n"
                            "class A:\n    x = [i for i in range(3)]\n"
                            "if __name__ == '__main__':\n    with open('f') as f:\n        pass\n"
                            "def g(x):\n    return x\n");
  CHECK_FALSE(ctx.diags.hasErrors());
  REQUIRE(m.functions.size() == 1);
  CHECK(m.functions[0]->name == "g");
  CHECK(m.body.size() == 3);
}

TEST_CASE("onlyFunction ignores errors in other functions", "[parser]") {
  Context ctx;
  ParseOptions opts;
  opts.onlyFunction = "good";
  ast::Module m = ctx.parse(
      "m.py", "def bad():\n    return [x for x in y]\ndef good():\n    return 1\n", 1, opts);
  CHECK_FALSE(ctx.diags.hasErrors());
  REQUIRE(m.functions.size() == 1);
  CHECK(m.functions[0]->name == "good");
}

TEST_CASE("several errors are reported in one parse", "[parser]") {
  std::string d = diagsOf(
      "def f(x):\n"
      "    y = {**x}\n"
      "    try:\n        pass\n    finally:\n        pass\n"
      "    global z\n"
      "    return y\n");
  CHECK_THAT(d,
             Catch::Contains("t.py:2:9: error: '**' unpacking in a dict display is not supported"));
  CHECK_THAT(d, Catch::Contains("t.py:5:5: error: 'finally' is not supported in kernels"));
  CHECK_THAT(d, Catch::Contains("t.py:7:5: error: 'global' declarations are not supported"));
}

TEST_CASE("parameter rules", "[parser]") {
  CHECK_THAT(diagsOf("def f(a=1, b):\n    pass\n"),
             Catch::Contains("parameter without a default follows parameter with a default"));
  CHECK_THAT(diagsOf("def f(a, a):\n    pass\n"),
             Catch::Contains("duplicate argument 'a' in function definition"));
  CHECK(diagsOf("def f(a, *args):\n    return g(a, *args)\n").empty());
  CHECK(exprOf("f(a, *t)") == "(call f a *t)");
  CHECK_THAT(diagsOf("def f(*args, b):\n    pass\n"),
             Catch::Contains("parameters after *args are not supported"));
}

TEST_CASE("deep nesting is an error, not a stack overflow", "[parser]") {
  std::string deep =
      "def f():\n    return " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\n";
  CHECK_THAT(diagsOf(deep), Catch::Contains("too many nested parentheses"));
  std::string minus = "def f():\n    return " + std::string(5000, '-') + "1\n";
  CHECK_THAT(diagsOf(minus), Catch::Contains("too many nested"));
}

TEST_CASE("break outside a loop", "[parser]") {
  CHECK_THAT(diagsOf("def f():\n    break\n"),
             Catch::Contains("t.py:2:5: error: 'break' outside loop"));
  // A nested def resets the loop depth.
  CHECK_THAT(diagsOf("def f():\n    while 1:\n        def g():\n            continue\n"),
             Catch::Contains("'continue' outside loop"));
}

namespace {

// The diagnostics of a function whose body is `body`, and whether the
// function was kept in the module.
struct Parsed {
  std::string diags;
  bool kept = false;
};
Parsed parseBody(const std::string &body) {
  Context ctx;
  ast::Module m = ctx.parse("t.py", "def f(x):\n" + body);
  Parsed p{ctx.diags.render(), !m.functions.empty()};
  if (p.kept) CHECK_FALSE(ast::printModule(m).empty());  // the printer copes with what is kept
  return p;
}

std::string repeat(const std::string &s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

std::string joined(const std::string &term, const std::string &sep, int n) {
  std::string out = term;
  for (int i = 1; i < n; ++i) out += sep + term;
  return out;
}

}  // namespace

TEST_CASE("the nesting limit is 200, as the message says", "[parser]") {
  const std::string tooDeep = "too many nested parentheses, blocks or operators (the limit is 200)";
  // The function's body is one level, so 199 parentheses fit and 200 do not.
  CHECK(parseBody("    return " + repeat("(", 199) + "x" + repeat(")", 199) + "\n").diags.empty());
  CHECK_THAT(parseBody("    return " + repeat("(", 200) + "x" + repeat(")", 200) + "\n").diags,
             Catch::Contains(tooDeep));
  CHECK(parseBody("    return " + repeat("-", 199) + "x\n").diags.empty());
  CHECK_THAT(parseBody("    return " + repeat("-", 200) + "x\n").diags, Catch::Contains(tooDeep));
}

TEST_CASE("deep nesting of every kind is an error, not a stack overflow", "[parser]") {
  const int n = 20000;
  const std::vector<std::string> bodies = {
      "    return " + repeat("(", n) + "x" + repeat(")", n) + "\n",
      "    return " + repeat("-", n) + "x\n",
      "    return " + repeat("not ", n) + "x\n",
      "    return " + joined("x", " ** ", n) + "\n",
      "    return " + repeat("x if x else ", n) + "x\n",
      "    return " + repeat("lambda: ", n) + "x\n",
      "    return " + repeat("x[", n) + "0" + repeat("]", n) + "\n",
      "    return " + repeat("f(", n) + "0" + repeat(")", n) + "\n",
      "    return " + repeat("[", n) + repeat("]", n) + "\n",
  };
  for (const std::string &body : bodies) {
    Parsed p = parseBody(body);
    CHECK_THAT(p.diags, Catch::Contains("too many nested parentheses, blocks or operators"));
  }
  std::string blocks;
  for (int i = 1; i <= 300; ++i) blocks += std::string(size_t(4 * i), ' ') + "if x:\n";
  blocks += std::string(4 * 301, ' ') + "pass\n";
  CHECK_THAT(parseBody(blocks).diags, Catch::Contains("too many nested parentheses, blocks"));
}

TEST_CASE("long chains are bounded by the depth of the tree", "[parser]") {
  const int n = 20000;
  const std::string tooDeep =
      "too many nested operators in one expression (the limit is 1000); split it with "
      "temporary variables";
  // The last one nests two chains of 600: the inner one is the outer one's
  // first operand, 600 levels down.
  for (const std::string &expr :
       {joined("x", " + ", n), "x" + repeat(".a", n), "f" + repeat("(0)", n),
        "x" + repeat("[0]", n), "(" + joined("x", " - ", 600) + ") * " + joined("x", " * ", 600)}) {
    Parsed p = parseBody("    return " + expr + "\n");
    CHECK_THAT(p.diags, Catch::Contains(tooDeep));
    CHECK_FALSE(p.kept);  // the later passes never see it
  }
  std::string elifs = "    if x:\n        pass\n" + repeat("    elif x:\n        pass\n", n);
  CHECK_THAT(parseBody(elifs).diags,
             Catch::Contains("too many nested blocks and 'elif' clauses (the limit is 1000)"));
  // 1000 operators in a chain are accepted; so are long flat lists.
  CHECK(parseBody("    return " + joined("x", " + ", 1001) + "\n").kept);
  CHECK(parseBody("    return " + joined("x", " and ", n) + "\n").kept);
  CHECK(parseBody("    return " + joined("x", " < ", n) + "\n").kept);
  CHECK(parseBody("    return f(" + joined("x", ", ", n) + ")\n").kept);
}

TEST_CASE("starred expressions are unsupported, not syntax errors", "[parser]") {
  for (const char *body : {"    return [*x]\n", "    return x[*x]\n", "    return {*x}\n",
                           "    for *a, b in x:\n        pass\n", "    a, *b = x\n"}) {
    Context ctx;
    ctx.parse("t.py", std::string("def f(x):\n") + body);
    REQUIRE(ctx.diags.hasErrors());
    const Diagnostic &d = ctx.diags.diagnostics()[0];
    CHECK(d.message == "starred expressions ('*x') are not supported in kernels");
    CHECK(d.category == DiagCategory::Unsupported);
    CHECK_THAT(ctx.diags.render(), !Catch::Contains("expected an expression"));
  }
}

TEST_CASE("yield inside an expression is unsupported, not a syntax error", "[parser]") {
  for (const char *body : {"    x += yield\n", "    return yield x\n", "    y = yield from x\n"}) {
    Context ctx;
    ctx.parse("t.py", std::string("def f(x):\n") + body);
    REQUIRE(ctx.diags.errorCount() == 1);
    const Diagnostic &d = ctx.diags.diagnostics()[0];
    CHECK(d.message == "generators ('yield') are not supported in kernels");
    CHECK(d.category == DiagCategory::Unsupported);
  }
}

TEST_CASE("from-imports need a module and at least one name", "[parser]") {
  CHECK_THAT(diagsOf("from import x\n"), Catch::Contains("t.py:1:6: error: expected a module name "
                                                         "after 'from', found 'import'"));
  CHECK_THAT(diagsOf("from m import ()\n"),
             Catch::Contains("t.py:1:16: error: expected a name to import, found ')'"));
  CHECK_THAT(diagsOf("from m import a,\n"),
             Catch::Contains("expected a name to import, found end of line"));
  CHECK(diagsOf("from m import (a, b,)\nfrom . import c\nfrom ..m import d\n").empty());
}

TEST_CASE("'lambda' used as a name is said to be a keyword", "[parser]") {
  const char *msg = "'lambda' is a keyword and cannot be used as a name";
  CHECK_THAT(diagsOf("def f(x):\n    lambda = 2\n"),
             Catch::Contains("t.py:2:5: error: " + std::string(msg)));
  CHECK_THAT(diagsOf("def f(x):\n    return 2 * lambda\n"), Catch::Contains(msg));
  CHECK_THAT(diagsOf("def f(x):\n    return lambda / 2\n"), Catch::Contains(msg));
  // A lambda with parameters is still a lambda.
  std::string d = diagsOf("def f(x):\n    return lambda *a, **k: 0\n");
  CHECK_THAT(d, Catch::Contains("t.py:2:19: error: *args parameters are not supported"));
  CHECK_THAT(d, !Catch::Contains(msg));
  CHECK_THAT(kjit::test::stmtsOf("return lambda: lambda x: x"),
             Catch::Contains("def $lambda1(x)") && Catch::Contains("def $lambda2()") &&
                 Catch::Contains("return <2:20> $lambda1"));
}

TEST_CASE("a top-level async def is reported when it is wanted", "[parser]") {
  Context ctx;
  ast::Module m = ctx.parse("t.py", "async def k(x):\n    pass\ndef g(x):\n    pass\n");
  CHECK_THAT(ctx.diags.render(), Catch::Contains("t.py:1:1: error: async functions, loops and "
                                                 "'with' are not supported"));
  CHECK(m.functionNames == std::vector<std::string>{"k", "g"});
  Context other;
  ParseOptions opts;
  opts.onlyFunction = "g";
  other.parse("t.py", "async def k(x):\n    pass\ndef g(x):\n    pass\n", 1, opts);
  CHECK_FALSE(other.diags.hasErrors());
}

TEST_CASE("a bytes literal is not a docstring", "[parser]") {
  Context ctx;
  ast::Module m = ctx.parse("t.py", "def f():\n    b'doc'\n    'not a docstring either'\n");
  REQUIRE(m.functions.size() == 1);
  CHECK_FALSE(m.functions[0]->hasDocstring);
  CHECK(m.functions[0]->body.size() == 2);
}
