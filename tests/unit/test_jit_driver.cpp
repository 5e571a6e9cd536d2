// The JIT driver's rules (runtime/jit), one at a time, without Python: type
// keys, Numba's conversions and overload choice, the cache key, launch
// configurations. tests/python/devices/test_driver_rules.py runs the same rules on
// every device through the bindings.
#include <catch2/catch.hpp>

#include "compiler/Session.h"
#include "runtime/jit/CacheKey.h"
#include "runtime/jit/Errors.h"
#include "runtime/jit/LaunchConfig.h"
#include "runtime/jit/Overloads.h"
#include "runtime/jit/TypeKeys.h"

using namespace kjit;
using namespace kjit::jit;

namespace {

std::string launchError(const LaunchConfig &c, const DeviceLimits &d, const KernelLimits &k = {}) {
  try {
    checkLaunch(c, d, k, "k");
  } catch (const JitError &e) {
    CHECK(e.kind == JitError::Kind::LaunchConfig);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("argument type keys round-trip through types", "[jit][keys]") {
  Session session;
  TypeContext tc;
  for (std::string key : {"d8b$Dn", "Sf", "Af2Cw", "Ad1Ar", "Af0Cw", "(8d(Sh))", "Sf(Af1Cw8)",
                          "Ay2Cw", "Aq1Cr", "Ar1Aw", "Sy"}) {  // (bfloat16, the 8-bit floats)
    std::vector<const Type *> ts = typesOfKey(session, tc, key);
    CHECK(keyOfTypes(ts) == key);
  }
  CHECK(describeKey(session, "SfAd2Fr") == "float32, readonly array(float64, 2d, F)");
  for (std::string bad :
       {"x", "A", "Af", "Az1Cw", "(8", "S", "Af:Cw", "Af/Cw", "R8a{", "AR4u{1:z@0:int32}"}) {
    CHECK_THROWS_AS(typesOfKey(session, tc, bad), JitError);
  }
}

TEST_CASE("records and arrays of records have keys of their whole layout", "[jit][keys][records]") {
  Session session;
  TypeContext tc;
  const std::string rec = "R4u{1:x@0:float16;1:y@2:float16}",
                    aligned = "R4a{1:x@0:float16;1:y@2:float16}";
  for (std::string key : {rec, "A" + rec + "1Cw", "8(" + rec + "d)A" + aligned + "2Ar"}) {
    std::vector<const Type *> ts = typesOfKey(session, tc, key);
    CHECK(keyOfTypes(ts) == key);
  }
  std::vector<const Type *> a = typesOfKey(session, tc, rec + aligned);
  CHECK(a[0] != a[1]);
  CHECK(conversion(a[0], a[0]) == Conversion::Exact);
  CHECK(conversion(a[0], a[1]) == Conversion::None);  // no width subtyping
  CHECK(conversion(tc.array(a[0], 1, Layout::C), tc.array(a[0], 1, Layout::A)) == Conversion::Safe);
  CHECK(conversion(tc.array(a[0], 1, Layout::C), tc.array(a[1], 1, Layout::A)) == Conversion::None);
  TypeContext other;
  CHECK(sameTypeIn(other, a[1])->str() == a[1]->str());
  CHECK(memSize(a[0]) == 8);
}

TEST_CASE("conversions follow Numba's casting rules", "[jit][overloads]") {
  TypeContext tc;
  const Type *i8 = tc.intTy(8), *i32 = tc.intTy(32), *i64 = tc.int64(), *u32 = tc.intTy(32, false);
  const Type *u64 = tc.intTy(64, false), *f32 = tc.floatTy(32), *f64 = tc.float64();
  const Type *c64 = tc.complexTy(64), *c128 = tc.complexTy(128), *b = tc.boolean();
  CHECK(conversion(i64, i64) == Conversion::Exact);
  CHECK(conversion(i8, i64) == Conversion::Promote);
  CHECK(conversion(f32, f64) == Conversion::Promote);
  CHECK(conversion(i32, f64) == Conversion::Safe);
  CHECK(conversion(u32, i64) == Conversion::Safe);
  CHECK(conversion(b, i32) == Conversion::Safe);
  CHECK(conversion(f64, c128) == Conversion::Safe);
  CHECK(conversion(f32, c128) == Conversion::Safe);  // through complex64 or float64
  CHECK(conversion(i64, f64) == Conversion::Unsafe);
  CHECK(conversion(u64, i64) == Conversion::Unsafe);
  CHECK(conversion(f64, i32) == Conversion::Unsafe);
  CHECK(conversion(i64, f32) == Conversion::Unsafe);
  CHECK(conversion(c64, f64) == Conversion::None);
  CHECK(conversion(c128, c64) == Conversion::Unsafe);
  const Type *aC = tc.array(f32, 1, Layout::C), *aA = tc.array(f32, 1, Layout::A);
  const Type *aCr = tc.array(f32, 1, Layout::C, true), *aF = tc.array(f32, 1, Layout::F);
  CHECK(conversion(aC, aA) == Conversion::Safe);
  CHECK(conversion(aA, aC) == Conversion::None);
  CHECK(conversion(aC, aCr) == Conversion::Safe);
  CHECK(conversion(aCr, aC) == Conversion::None);  // readonly never becomes writable
  CHECK(conversion(aC, aF) == Conversion::None);
  CHECK(conversion(tc.array(f64, 1, Layout::C), aA) == Conversion::None);
  CHECK(conversion(tc.tuple({i32, f32}), tc.tuple({i64, f64})) == Conversion::Promote);
}

TEST_CASE("overloads: exact first, then fewest unsafe, safe and promoting conversions",
          "[jit][overloads]") {
  TypeContext tc;
  const Type *i32 = tc.intTy(32), *i64 = tc.int64(), *f32 = tc.floatTy(32), *f64 = tc.float64();
  std::vector<const Type *> sigF32 = {f32}, sigF64 = {f64}, sigI32 = {i32};
  std::vector<const std::vector<const Type *> *> both = {&sigF32, &sigF64};
  const std::string name = "f";
  Caller f{name, false};
  CHECK(chooseOverload({f64}, both, f) == 1);  // exact
  CHECK(chooseOverload({f32}, both, f) == 0);  // exact beats a promotion
  CHECK(chooseOverload({i32}, both, f) == 1);  // int32 -> float64 safe, -> float32 unsafe
  // int64 -> float32 and int64 -> int32 are both unsafe: a tie, reported.
  CHECK_THROWS_AS(chooseOverload({i64}, {&sigF32, &sigI32}, f), JitError);
  std::vector<const std::vector<const Type *> *> none = {&sigI32};
  CHECK(chooseOverload({tc.complexTy(128)}, none, f) == -1);
}

TEST_CASE("two signatures that fit equally well are an ambiguity error", "[jit][overloads]") {
  TypeContext tc;
  const Type *i32 = tc.intTy(32), *i64 = tc.int64(), *f64 = tc.float64();
  std::vector<const Type *> a = {tc.array(f64, 1, Layout::C), f64, i32},
                            b = {tc.array(f64, 1, Layout::C), i32, f64};
  const std::string name = "k";
  try {
    chooseOverload({tc.array(f64, 1, Layout::C), i64, i64}, {&a, &b}, Caller{name, true});
    FAIL("no ambiguity error");
  } catch (const JitError &e) {
    CHECK(e.kind == JitError::Kind::Type);
    // Numba's words (its type reprs), then kjit's.
    CHECK(std::string(e.what()) ==
          "Ambiguous overloading for <function k (a kernel)> (Array(float64, 1, 'C', False, "
          "aligned=True), int64, int64):\n"
          "(Array(float64, 1, 'C', False, aligned=True), float64, int32) -> none\n"
          "(Array(float64, 1, 'C', False, aligned=True), int32, float64) -> none\n"
          "(the signatures of kernel 'k' that fit (array(float64, 1d, C), int64, int64) equally "
          "well)");
  }
}

TEST_CASE("a closed set of specialisations refuses what converts to none", "[jit][overloads]") {
  Session session;
  Specialisations s;
  std::string name = "f";
  Caller f{name, false};
  auto r = std::make_unique<CompileResult>();
  r->types = std::make_shared<TypeContext>();
  r->args = {r->types->floatTy(32)};
  r->key = keyOfTypes(r->args);
  r->signature = "(float32) -> float32";
  s.add(std::move(r));
  CHECK(s.select(session, "d", f) == nullptr);  // lazy: compile for float64
  s.setEager();
  CompileResult *c = s.select(session, "d", f);  // eager: float64 converts (unsafely) to float32
  REQUIRE(c != nullptr);
  CHECK(s.select(session, "d", f) == c);  // remembered
  try {
    s.select(session, "D", f);
    FAIL("complex converted to a real");
  } catch (const JitError &e) {
    CHECK(std::string(e.what()) ==
          "No matching definition for argument type(s) complex128 in f(); the signatures "
          "compiled are:\n    (float32) -> float32");
  }
}

TEST_CASE("the cache key changes with every input it names", "[jit][cache]") {
  CacheInputs in;
  in.function = "saxpy";
  in.fingerprint = "def saxpy(a, x): ...";
  in.argumentKey = "SfAf1Cw";
  in.target = "cuda sm_90";
  std::string base = cacheKey(in);
  CHECK(base.rfind("saxpy-", 0) == 0);
  CHECK(base.size() == std::string("saxpy-").size() + 32);
  CHECK(cacheKey(in) == base);  // deterministic
  auto differs = [&](auto change) {
    CacheInputs c = in;
    change(c);
    return cacheKey(c) != base;
  };
  CHECK(differs([](CacheInputs &c) { c.fingerprint += " "; }));
  CHECK(differs([](CacheInputs &c) { c.argumentKey = "SdAf1Cw"; }));
  CHECK(differs([](CacheInputs &c) { c.declaredReturn = "float32"; }));
  CHECK(differs([](CacheInputs &c) { c.target = "cuda sm_80"; }));
  CHECK(differs([](CacheInputs &c) { c.options = "fastmath"; }));
  CacheInputs lambda = in;
  lambda.function = "<lambda>";
  CHECK(cacheKey(lambda).rfind("lambda-", 0) == 0);
}

TEST_CASE("launch configurations: one message per mistake", "[jit][launch]") {
  DeviceLimits gpu = DeviceLimits::gpuLike("the CPU device");
  LaunchConfig c;
  uint32_t dims[3];
  int64_t v[3] = {1, 0, 1};
  try {
    setDims(dims, v, 2, "block", "k");
    FAIL("a zero dimension accepted");
  } catch (const JitError &e) {
    CHECK(std::string(e.what()) == "kernel 'k': the block along y is 0; it must be at least 1");
  }
  CHECK_THROWS_WITH(setDims(dims, v, 4, "grid", "k", "[1, 0, 1, 7]"),
                    "kernel 'k': the grid must be an int or a tuple of 1 to 3 ints, not 4 ints "
                    "(griddim must be a sequence of 1, 2 or 3 integers, got [1, 0, 1, 7])");
  CHECK_THROWS_WITH(checkItemCount(1, "k"), Catch::Contains("not 1 item"));
  CHECK_THROWS_WITH(setSharedBytes(c, -1, "k"),
                    "kernel 'k': the dynamic shared memory size cannot be negative (got -1)");

  c.block[0] = 2048;
  CHECK(launchError(c, gpu) ==
        "kernel 'k' on the CPU device: a block of 2048 threads along x is more than the device's "
        "limit of 1024");
  c.block[0] = 64;
  c.block[1] = 32;
  CHECK(launchError(c, gpu) ==
        "kernel 'k' on the CPU device: 2048 threads per block (64 x 32 x 1) is more than the limit "
        "of 1024 of the "
        "device");
  c.block[1] = 4;
  KernelLimits bounded;
  bounded.maxThreadsPerBlock = 128;
  bounded.why = "its launch_bounds";
  CHECK(launchError(c, gpu, bounded) ==
        "kernel 'k' on the CPU device: 256 threads per block (64 x 4 x 1) is more than the limit "
        "of 128 for this "
        "kernel (its launch_bounds): CUDA_ERROR_INVALID_VALUE");
  c.grid[1] = 70000;
  CHECK(launchError(c, gpu) ==
        "kernel 'k' on the CPU device: a grid of 70000 blocks along y is more than the device's "
        "limit of 65535");
  c.grid[1] = 1;
  c.sharedBytes = 300 * 1024;
  KernelLimits staticShared;
  staticShared.staticSharedBytes = 100;
  CHECK(launchError(c, gpu, staticShared) ==
        "kernel 'k' on the CPU device: 307300 bytes of shared memory per block (100 static + "
        "307200 dynamic) is more "
        "than the device's limit of 232448");
  c.sharedBytes = 64 * 1024;
  CHECK(launchError(c, gpu).empty());
  CHECK(needsSharedOptin(c, gpu, {}));
  c.sharedBytes = 1024;
  CHECK_FALSE(needsSharedOptin(c, gpu, {}));
}
