// Unit tests of the type system (compiler/Types.h, compiler/Signature.h):
// interning, Numba's printed names, NumPy promotion, Numba's arithmetic
// result types and unification, and signature strings.
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "compiler/Signature.h"
#include "compiler/Types.h"

using namespace kjit;

namespace {

// The scalar named `n`; fails the test when there is none.
const Type *T(TypeContext &tc, const char *n) {
  const Type *t = tc.scalarByName(n);
  INFO("scalar type name: " << n);
  REQUIRE(t != nullptr);
  return t;
}

std::string nameOf(const Type *t) { return t ? t->str() : std::string("<null>"); }

struct Row {
  const char *a, *b, *result;
};

}  // namespace

// ---- interning ---------------------------------------------------------------

TEST_CASE("types are interned: equal types are one object", "[types]") {
  TypeContext tc;
  CHECK(tc.intTy(64, true) == tc.int64());
  CHECK(tc.intTy(32) == tc.intTy(32, true));
  CHECK(tc.floatTy(64) == tc.float64());
  CHECK(tc.complexTy(64) == tc.complexTy(64));
  CHECK(tc.boolean() == tc.scalarByName("bool_"));

  const Type *f64 = tc.float64();
  CHECK(tc.array(f64, 2, Layout::C) == tc.array(tc.floatTy(64), 2, Layout::C));
  CHECK(tc.array(f64, 2, Layout::C) != tc.array(f64, 2, Layout::F));
  CHECK(tc.array(f64, 2, Layout::C) != tc.array(f64, 1, Layout::C));
  CHECK(tc.array(f64, 2, Layout::C) != tc.array(f64, 2, Layout::C, /*readonly=*/true));
  CHECK(tc.tuple({tc.int64(), f64}) == tc.tuple({tc.int64(), tc.float64()}));
  CHECK(tc.tuple({tc.int64(), tc.int64()}) != tc.tuple({tc.int64(), tc.int64(), tc.int64()}));
  CHECK(tc.range() == tc.range());
  CHECK(tc.module("math") == tc.module("math"));
  CHECK(tc.function("math.sqrt") != tc.function("math.sin"));
  CHECK(tc.dtypeOf(f64) == tc.dtypeOf(tc.float64()));
}

TEST_CASE("two TypeContexts share nothing", "[types]") {
  TypeContext a, b;
  CHECK(a.int64() != b.int64());
  CHECK(a.int64()->str() == b.int64()->str());
}

TEST_CASE("NumPy and Numba scalar aliases name the same types", "[types]") {
  TypeContext tc;
  CHECK(T(tc, "intp") == tc.int64());
  CHECK(T(tc, "int_") == tc.int64());
  CHECK(T(tc, "i8") == tc.int64());
  CHECK(T(tc, "intc") == tc.intTy(32));
  CHECK(T(tc, "uintp") == tc.intTy(64, false));
  CHECK(T(tc, "u1") == tc.intTy(8, false));
  CHECK(T(tc, "float_") == tc.float64());
  CHECK(T(tc, "double") == tc.float64());
  CHECK(T(tc, "single") == tc.floatTy(32));
  CHECK(T(tc, "f4") == tc.floatTy(32));
  CHECK(T(tc, "c8") == tc.complexTy(64));
  CHECK(T(tc, "complex_") == tc.complexTy(128));
  CHECK(T(tc, "boolean") == tc.boolean());
  CHECK(T(tc, "b1") == tc.boolean());
  CHECK(tc.scalarByName("float65") == nullptr);
  CHECK(tc.scalarByName("Int64") == nullptr);
  CHECK(tc.scalarByName("") == nullptr);
}

// ---- names -------------------------------------------------------------------

TEST_CASE("types print with Numba's names", "[types]") {
  TypeContext tc;
  const Type *f64 = tc.float64(), *f32 = tc.floatTy(32), *i64 = tc.int64();
  CHECK(tc.voidTy()->str() == "void");
  CHECK(tc.none()->str() == "none");
  CHECK(tc.boolean()->str() == "bool");
  CHECK(tc.intTy(8)->str() == "int8");
  CHECK(tc.intTy(16, false)->str() == "uint16");
  CHECK(i64->str() == "int64");
  CHECK(tc.intTy(64, false)->str() == "uint64");
  CHECK(f32->str() == "float32");
  CHECK(tc.floatTy(16)->str() == "float16");
  CHECK(tc.complexTy(64)->str() == "complex64");
  CHECK(tc.complexTy(128)->str() == "complex128");
  CHECK(tc.array(f64, 2, Layout::C)->str() == "array(float64, 2d, C)");
  CHECK(tc.array(f32, 1, Layout::A)->str() == "array(float32, 1d, A)");
  CHECK(tc.array(tc.intTy(8, false), 3, Layout::F)->str() == "array(uint8, 3d, F)");
  CHECK(tc.array(f64, 1, Layout::C, true)->str() == "readonly array(float64, 1d, C)");
  CHECK(tc.tuple({i64, i64})->str() == "UniTuple(int64 x 2)");
  CHECK(tc.tuple({i64})->str() == "UniTuple(int64 x 1)");
  CHECK(tc.tuple({i64, f32})->str() == "Tuple(int64, float32)");
  CHECK(tc.tuple({})->str() == "Tuple()");
  CHECK(tc.tuple({tc.tuple({i64, i64}), f64})->str() == "Tuple(UniTuple(int64 x 2), float64)");
  CHECK(tc.tuple({tc.array(f64, 1, Layout::C), i64})->str() ==
        "Tuple(array(float64, 1d, C), int64)");
}

TEST_CASE("type predicates and parts", "[types]") {
  TypeContext tc;
  const Type *c64 = tc.complexTy(64);
  CHECK(c64->isComplex());
  CHECK(c64->isNumber());
  CHECK(c64->bits() == 64);
  CHECK(c64->complexPart() == tc.floatTy(32));
  CHECK(tc.complexTy(128)->complexPart() == tc.float64());
  CHECK(tc.boolean()->isNumber());
  CHECK(tc.boolean()->bits() == 8);
  CHECK_FALSE(tc.intTy(32, false)->isSigned());
  const Type *a = tc.array(tc.intTy(16), 3, Layout::F, true);
  CHECK(a->isArray());
  CHECK_FALSE(a->isNumber());
  CHECK(a->dtype() == tc.intTy(16));
  CHECK(a->ndim() == 3);
  CHECK(a->layout() == Layout::F);
  CHECK(a->readonly());
  const Type *t = tc.tuple({tc.int64(), tc.boolean()});
  REQUIRE(t->elements().size() == 2);
  CHECK(t->elements()[1] == tc.boolean());
  CHECK(t->isRuntime());
  CHECK(tc.range()->isRuntime());
  CHECK_FALSE(tc.module("math")->isRuntime());
  CHECK_FALSE(tc.dtypeOf(tc.float64())->isRuntime());
  CHECK(tc.dtypeOf(tc.floatTy(32))->dtype() == tc.floatTy(32));
}

// ---- promotion -----------------------------------------------------------------

TEST_CASE("arithmeticResult follows Numba 0.56's operator typing", "[types][promotion]") {
  TypeContext tc;
  // Verified against Numba 0.56 (typeof(a op b) for scalars of these types).
  const Row table[] = {
      {"int8", "int8", "int64"},         {"uint8", "uint8", "uint64"},
      {"uint8", "int8", "int64"},        {"int64", "uint64", "int64"},
      {"int32", "float32", "float64"},   {"int16", "float32", "float32"},
      {"uint8", "float32", "float32"},   {"bool", "bool", "int64"},
      {"float32", "float32", "float32"}, {"float32", "float64", "float64"},
  };
  for (const Row &r : table) {
    INFO(r.a << " op " << r.b);
    CHECK(nameOf(arithmeticResult(tc, T(tc, r.a), T(tc, r.b))) == r.result);
    // The operation is commutative in its result type.
    CHECK(nameOf(arithmeticResult(tc, T(tc, r.b), T(tc, r.a))) == r.result);
  }
}

TEST_CASE("arithmeticResult: more of docs/types.md", "[types][promotion]") {
  TypeContext tc;
  const Row table[] = {
      {"int32", "int32", "int64"},
      {"uint32", "uint16", "uint64"},
      {"uint64", "uint64", "uint64"},
      {"bool", "uint8", "int64"},
      {"bool", "float32", "float32"},
      {"int64", "float32", "float64"},
      {"int8", "float32", "float32"},
      {"uint16", "float32", "float64"},  // (Numba 0.56: uint16 is no safe float32; int16 is)
      {"int64", "float64", "float64"},
      {"float32", "complex64", "complex64"},
      {"float64", "complex64", "complex128"},
      {"int64", "complex128", "complex128"},
  };
  for (const Row &r : table) {
    INFO(r.a << " op " << r.b);
    CHECK(nameOf(arithmeticResult(tc, T(tc, r.a), T(tc, r.b))) == r.result);
    CHECK(nameOf(arithmeticResult(tc, T(tc, r.b), T(tc, r.a))) == r.result);
  }
}

TEST_CASE("promoteNumeric is NumPy's promote_types", "[types][promotion]") {
  TypeContext tc;
  // np.promote_types(a, b) for the pairs of the Numba table: NumPy does not
  // widen small integers, and mixes int64 and uint64 into float64.
  const Row table[] = {
      {"int8", "int8", "int8"},
      {"uint8", "uint8", "uint8"},
      {"uint8", "int8", "int16"},
      {"int64", "uint64", "float64"},
      {"int32", "float32", "float64"},
      {"int16", "float32", "float32"},
      {"uint8", "float32", "float32"},
      {"bool", "bool", "bool"},
      {"float32", "float32", "float32"},
      {"float32", "float64", "float64"},
      {"uint16", "int16", "int32"},
      {"uint32", "int64", "int64"},
      {"bool", "int8", "int8"},
      {"int16", "complex64", "complex64"},
      {"int32", "complex64", "complex128"},
      {"float64", "complex64", "complex128"},
  };
  for (const Row &r : table) {
    INFO("promote_types(" << r.a << ", " << r.b << ")");
    CHECK(nameOf(promoteNumeric(tc, T(tc, r.a), T(tc, r.b))) == r.result);
    CHECK(nameOf(promoteNumeric(tc, T(tc, r.b), T(tc, r.a))) == r.result);
  }
}

TEST_CASE("promotion of non-numbers has no result", "[types][promotion]") {
  TypeContext tc;
  const Type *arr = tc.array(tc.float64(), 1, Layout::C);
  const Type *tup = tc.tuple({tc.int64(), tc.int64()});
  CHECK(promoteNumeric(tc, arr, tc.float64()) == nullptr);
  CHECK(arithmeticResult(tc, tc.int64(), arr) == nullptr);
  CHECK(arithmeticResult(tc, tup, tup) == nullptr);
  CHECK(arithmeticResult(tc, tc.none(), tc.int64()) == nullptr);
}

// ---- unification -------------------------------------------------------------

TEST_CASE("unify follows Numba's unification of numbers", "[types][unify]") {
  TypeContext tc;
  const Row table[] = {
      {"int32", "int64", "int64"},     {"int64", "float64", "float64"},
      {"uint64", "int64", "float64"},  {"int8", "uint8", "int16"},
      {"bool", "int64", "int64"},      {"float32", "int64", "float64"},
      {"bool", "bool", "bool"},        {"bool", "int32", "int32"},
      {"bool", "float32", "float32"},  {"int64", "complex128", "complex128"},
      {"int16", "float32", "float32"}, {"uint32", "int32", "int64"},
      {"bool", "uint8", "uint8"},  // (Numba's unify_pairs; kjit gave uint64)
  };
  for (const Row &r : table) {
    INFO("unify(" << r.a << ", " << r.b << ")");
    CHECK(nameOf(unify(tc, T(tc, r.a), T(tc, r.b))) == r.result);
    CHECK(nameOf(unify(tc, T(tc, r.b), T(tc, r.a))) == r.result);
  }
}

TEST_CASE("unify of arrays, tuples and mismatches", "[types][unify]") {
  TypeContext tc;
  const Type *f64 = tc.float64(), *i64 = tc.int64();
  const Type *c = tc.array(f64, 2, Layout::C), *f = tc.array(f64, 2, Layout::F);
  CHECK(unify(tc, c, c) == c);
  CHECK(nameOf(unify(tc, c, f)) == "array(float64, 2d, A)");
  CHECK(nameOf(unify(tc, c, tc.array(f64, 2, Layout::C, true))) ==
        "readonly array(float64, 2d, C)");
  CHECK(unify(tc, c, tc.array(f64, 1, Layout::C)) == nullptr);             // rank
  CHECK(unify(tc, c, tc.array(tc.floatTy(32), 2, Layout::C)) == nullptr);  // dtype
  CHECK(unify(tc, c, i64) == nullptr);
  CHECK(unify(tc, i64, c) == nullptr);

  const Type *t1 = tc.tuple({i64, i64}), *t2 = tc.tuple({f64, i64});
  CHECK(nameOf(unify(tc, t1, t2)) == "Tuple(float64, int64)");
  CHECK(unify(tc, t1, tc.tuple({i64, i64, i64})) == nullptr);
  CHECK(unify(tc, t1, tc.tuple({i64, c})) == nullptr);
  CHECK(unify(tc, t1, i64) == nullptr);

  // An unknown side (null) takes the other's type.
  CHECK(unify(tc, nullptr, i64) == i64);
  CHECK(unify(tc, f64, nullptr) == f64);
}

// ---- signatures --------------------------------------------------------------

TEST_CASE("parseSignature reads Numba's signature strings", "[types][signature]") {
  TypeContext tc;
  Signature s;
  std::string err;

  SECTION("float64(float64[:], int64)") {
    REQUIRE(parseSignature(tc, "float64(float64[:], int64)", s, err));
    CHECK(err.empty());
    CHECK(s.ret == tc.float64());
    REQUIRE(s.args.size() == 2);
    CHECK(s.args[0] == tc.array(tc.float64(), 1, Layout::A));
    CHECK(s.args[1] == tc.int64());
  }
  SECTION("void(int32[:, ::1], float32)") {
    REQUIRE(parseSignature(tc, "void(int32[:, ::1], float32)", s, err));
    CHECK(s.ret == tc.voidTy());
    REQUIRE(s.args.size() == 2);
    CHECK(s.args[0]->str() == "array(int32, 2d, C)");
    CHECK(s.args[1] == tc.floatTy(32));
  }
  SECTION("void(float64[], int32[::1]): [] is a 0-d array") {
    REQUIRE(parseSignature(tc, "void(float64[], int32[::1])", s, err));
    REQUIRE(s.args.size() == 2);
    CHECK(s.args[0] == tc.array(tc.float64(), 0, Layout::C));
    CHECK(s.args[0]->str() == "array(float64, 0d, C)");
  }
  SECTION("(int64,): argument types only, with a trailing comma") {
    REQUIRE(parseSignature(tc, "(int64,)", s, err));
    CHECK(s.ret == nullptr);
    REQUIRE(s.args.size() == 1);
    CHECK(s.args[0] == tc.int64());
  }
  SECTION("UniTuple(int64, 2)(float32[::1, :])") {
    REQUIRE(parseSignature(tc, "UniTuple(int64, 2)(float32[::1, :])", s, err));
    CHECK(s.ret == tc.tuple({tc.int64(), tc.int64()}));
    CHECK(nameOf(s.ret) == "UniTuple(int64 x 2)");
    REQUIRE(s.args.size() == 1);
    CHECK(s.args[0]->str() == "array(float32, 2d, F)");
  }
  SECTION("() and spaces") {
    REQUIRE(parseSignature(tc, "  int64 ( )  ", s, err));
    CHECK(s.ret == tc.int64());
    CHECK(s.args.empty());
  }
  SECTION("Tuple(...), np. prefixes, 1d and 3d layouts") {
    REQUIRE(parseSignature(
        tc,
        "Tuple(int64, float32)(np.float32, uint8[::1], float64[:, :, ::1], complex64[::1, :, :])",
        s, err));
    CHECK(nameOf(s.ret) == "Tuple(int64, float32)");
    REQUIRE(s.args.size() == 4);
    CHECK(s.args[0] == tc.floatTy(32));
    CHECK(s.args[1]->str() == "array(uint8, 1d, C)");
    CHECK(s.args[2]->str() == "array(float64, 3d, C)");
    CHECK(s.args[3]->str() == "array(complex64, 3d, F)");
  }
}

TEST_CASE("parseSignature reports errors with the position", "[types][signature]") {
  TypeContext tc;
  Signature s;
  std::string err;

  SECTION("unknown return type name") {
    CHECK_FALSE(parseSignature(tc, "float65(int64)", s, err));
    CHECK(err == "unknown type 'float65' at position 7 of \"float65(int64)\"");
  }
  SECTION("unknown argument type name") {
    CHECK_FALSE(parseSignature(tc, "(int64, flaot32)", s, err));
    CHECK(err == "unknown type 'flaot32' at position 15 of \"(int64, flaot32)\"");
  }
  SECTION("a step other than 1 in an array type") {
    CHECK_FALSE(parseSignature(tc, "(float64[:, ::2])", s, err));
    CHECK(err == "expected '1' after '::' at position 14 of \"(float64[:, ::2])\"");
  }
  SECTION("a contiguous middle axis") {
    CHECK_FALSE(parseSignature(tc, "(float64[:, ::1, :])", s, err));
    CHECK(err ==
          "the contiguous axis must be the first or the last at position 19 of \"(float64[:, ::1, "
          ":])\"");
  }
  SECTION("two contiguous axes") {
    CHECK_FALSE(parseSignature(tc, "(float64[::1, ::1])", s, err));
    CHECK(err == "only one axis can be contiguous at position 17 of \"(float64[::1, ::1])\"");
  }
  SECTION("an index instead of ':' in an array type") {
    CHECK_FALSE(parseSignature(tc, "(float64[3])", s, err));
    CHECK(err == "expected ':' in an array type at position 9 of \"(float64[3])\"");
  }
  SECTION("a void argument") {
    CHECK_FALSE(parseSignature(tc, "(void)", s, err));
    CHECK(err == "an argument cannot be void in signature \"(void)\"");
  }
  SECTION("no argument list") {
    CHECK_FALSE(parseSignature(tc, "float64", s, err));
    CHECK(err == "expected '(' after the return type in signature \"float64\"");
  }
  SECTION("text after the signature") {
    CHECK_FALSE(parseSignature(tc, "(int64) x", s, err));
    CHECK(err == "unexpected text after the signature at position 8 of \"(int64) x\"");
  }
}

TEST_CASE("parseType reads one type", "[types][signature]") {
  TypeContext tc;
  std::string err;
  CHECK(parseType(tc, "float32[:, ::1]", err) == tc.array(tc.floatTy(32), 2, Layout::C));
  CHECK(parseType(tc, "int8[:]", err) == tc.array(tc.intTy(8), 1, Layout::A));
  CHECK(parseType(tc, "int8[::1]", err) == tc.array(tc.intTy(8), 1, Layout::C));
  CHECK(parseType(tc, "np.uint16", err) == tc.intTy(16, false));
  CHECK(parseType(tc, "UniTuple(float64, 3)", err) ==
        tc.tuple({tc.float64(), tc.float64(), tc.float64()}));
  CHECK(err.empty());
  CHECK(parseType(tc, "int64 int64", err) == nullptr);
  CHECK(err == "unexpected text after the type at position 6 of \"int64 int64\"");
  err.clear();
  CHECK(parseType(tc, "strange", err) == nullptr);
  CHECK(err == "unknown type 'strange' at position 7 of \"strange\"");
}

TEST_CASE("records: one type per layout, spelled by a spec that parses back", "[types][records]") {
  TypeContext tc;
  auto field = [](const char *n, const Type *t, int64_t off, std::vector<int64_t> shape = {}) {
    RecordField f;
    f.name = n;
    f.dtype = t;
    f.offset = off;
    f.shape = std::move(shape);
    return f;
  };
  // Given out of order: fields sort by offset.
  const Type *inner =
      tc.record({field("s", tc.float64(), 0), field("n", tc.float64(), 8, {6})}, 56, true);
  const Type *r = tc.record(
      {field("b", tc.intTy(32), 8), field("a", tc.float64(), 0), field("in", inner, 16)}, 72, true);
  CHECK(r->str() ==
        "Record(a[type=float64;offset=0],b[type=int32;offset=8],in[type=Record(s[type=float64;"
        "offset=0],n[type=nestedarray(float64, (6,));offset=8];56;True);offset=16];72;True)");
  CHECK(recordSpec(r) ==
        "R72a{1:a@0:float64;1:b@8:int32;2:in@16:R56a{1:s@0:float64;1:n@8:[6]float64}}");
  size_t p = 0;
  CHECK(parseRecordSpec(tc, recordSpec(r), p) == r);
  CHECK(p == recordSpec(r).size());
  // The same fields, not aligned: another type.
  const Type *packed =
      tc.record({field("a", tc.float64(), 0), field("b", tc.intTy(32), 8), field("in", inner, 16)},
                72, false);
  CHECK(packed != r);
  CHECK(tc.dtypeByName(recordSpec(packed)) == packed);
  // A name with the spec's punctuation in it: its length says where it ends.
  const Type *odd = tc.record({field("a;1:b@0}", tc.boolean(), 0)}, 1, false);
  CHECK(tc.dtypeByName(recordSpec(odd)) == odd);
  CHECK(itemSize(r) == 72);
  CHECK(valueSize(r) == 8);  // a record value is a reference
  CHECK(dtypeAlign(r) == 8);
  CHECK(dtypeAlign(packed) == 1);
  // A float64 at offset 0 of a 12-byte record: elements after the first
  // start 4-aligned, so loads count on 4 bytes.
  const Type *twelve =
      tc.record({field("x", tc.float64(), 0), field("y", tc.intTy(32), 8)}, 12, false);
  CHECK(fieldAccessAlign(twelve, twelve->fields()[0]) == 4);
  CHECK(fieldAccessAlign(r, r->fields()[0]) == 8);
  for (std::string bad :
       {"R", "R8", "R8a", "R8a{", "R8x{}", "R8a{1:a@0:float99}", "R8a{5:a@0:int8}"}) {
    size_t q = 0;
    CHECK(parseRecordSpec(tc, bad, q) == nullptr);
  }
}

TEST_CASE("a signature spells a record by its spec", "[types][signature][records]") {
  TypeContext tc;
  Signature s;
  std::string err;
  REQUIRE(
      parseSignature(tc, "void(R8a{1:x@0:float32;1:y@4:float32}[::1], R4u{1:z@0:int32})", s, err));
  REQUIRE(s.args.size() == 2);
  CHECK(s.args[0]->isArray());
  CHECK(s.args[0]->layout() == Layout::C);
  CHECK(s.args[0]->dtype()->isRecord());
  CHECK(s.args[1]->isRecord());
  CHECK_FALSE(parseSignature(tc, "(R8a{1:x@0:float32)", s, err));
  CHECK(err == "malformed record type at position 1 of \"(R8a{1:x@0:float32)\"");
}
