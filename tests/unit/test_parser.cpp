#include <catch2/catch.hpp>

#include "helpers.h"

using namespace kjit;
using kjit::test::exprOf;
using kjit::test::diagsOf;

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
  CHECK(exprOf("lambda x, y: x + y") == "(lambda (x, y) (+ x y))");
  CHECK(exprOf("lambda: 0") == "(lambda () 0)");
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
  ast::Module m = ctx.parse("m.py", "def bad():\n    return [x for x in y]\ndef good():\n    return 1\n", 1, opts);
  CHECK_FALSE(ctx.diags.hasErrors());
  REQUIRE(m.functions.size() == 1);
  CHECK(m.functions[0]->name == "good");
}

TEST_CASE("several errors are reported in one parse", "[parser]") {
  std::string d = diagsOf("def f(x):\n"
                          "    y = [i for i in x]\n"
                          "    try:\n        pass\n    except E:\n        pass\n"
                          "    global z\n"
                          "    return y\n");
  CHECK_THAT(d, Catch::Contains("t.py:2:9: error: list comprehensions are not supported in kernels"));
  CHECK_THAT(d, Catch::Contains("t.py:3:5: error: try/except is not supported in kernels"));
  CHECK_THAT(d, Catch::Contains("t.py:7:5: error: 'global' declarations are not supported"));
}

TEST_CASE("parameter rules", "[parser]") {
  CHECK_THAT(diagsOf("def f(a=1, b):\n    pass\n"),
             Catch::Contains("parameter without a default follows parameter with a default"));
  CHECK_THAT(diagsOf("def f(a, a):\n    pass\n"),
             Catch::Contains("duplicate argument 'a' in function definition"));
  CHECK_THAT(diagsOf("def f(*args):\n    pass\n"), Catch::Contains("*args parameters are not supported"));
}

TEST_CASE("deep nesting is an error, not a stack overflow", "[parser]") {
  std::string deep = "def f():\n    return " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\n";
  CHECK_THAT(diagsOf(deep), Catch::Contains("too many nested parentheses"));
  std::string minus = "def f():\n    return " + std::string(5000, '-') + "1\n";
  CHECK_THAT(diagsOf(minus), Catch::Contains("too many nested"));
}

TEST_CASE("break outside a loop", "[parser]") {
  CHECK_THAT(diagsOf("def f():\n    break\n"), Catch::Contains("t.py:2:5: error: 'break' outside loop"));
  // A nested def resets the loop depth.
  CHECK_THAT(diagsOf("def f():\n    while 1:\n        def g():\n            continue\n"),
             Catch::Contains("'continue' outside loop"));
}
