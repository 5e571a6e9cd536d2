// host_runtime_asan.cpp - the host runtime (runtime/host) under
// AddressSanitizer, UndefinedBehaviorSanitizer and LeakSanitizer.
//
// Built only for this test, with the sanitizers, from the runtime's own
// sources (tests/CMakeLists.txt): every entry point that compiled @jit code
// calls for memory (arrays, lists, the call's arena), exceptions, prange
// loops, random numbers, LAPACK/BLAS and printing is exercised the way
// compiled code uses it, and the process must end with no error and no
// leak. Each check prints what failed; the exit status is the count.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "runtime/host/HostRuntime.h"
#include "runtime/host/ThreadPool.h"

using kjit::KjitCallContext;
using kjit::KjitList;

extern "C" {
void *kjit_rt_alloc(KjitCallContext *ctx, int64_t nbytes);
void kjit_rt_free(KjitCallContext *ctx, void *data);
void *kjit_rt_list_new(KjitCallContext *ctx, int64_t itemBytes, int64_t size);
int32_t kjit_rt_list_reserve(KjitCallContext *ctx, KjitList *l, int64_t need, int64_t itemBytes);
void kjit_rt_raise(KjitCallContext *ctx, const char *excClass, const char *message,
                   const char *file, int32_t line);
void kjit_rt_raise_index(KjitCallContext *ctx, int64_t index, int64_t axis, int64_t size,
                         const char *file, int32_t line);
int32_t kjit_rt_exc_matches(KjitCallContext *ctx, const char *classes);
void kjit_rt_exc_clear(KjitCallContext *ctx);
int64_t kjit_rt_num_chunks(KjitCallContext *ctx);
using ParallelBody = int32_t (*)(void *, int64_t, int64_t, int64_t, KjitCallContext *);
int32_t kjit_rt_parallel_for(KjitCallContext *ctx, ParallelBody body, void *env, int64_t trip,
                             int64_t chunks);
void kjit_rt_random_seed(int64_t seed);
int64_t kjit_rt_random_u32();
double kjit_rt_random_double();
double kjit_rt_random_gauss();
int64_t kjit_rt_lapack(int64_t op, double *a, int64_t n, int32_t *ipiv, double *b, int64_t nrhs,
                       int64_t acols);
int64_t kjit_rt_gemm(double *a, double *b, double *c, int64_t m, int64_t k, int64_t n);
uint16_t kjit_rt_f64_to_f16(double d);
void kjit_rt_print_i64(int64_t v);
void kjit_rt_print_f64(double v);
void kjit_rt_print_str(const char *s);
void kjit_rt_print_codes(const KjitList *l);
void kjit_rt_print_end();
}

namespace {

int failures = 0;

void check(bool ok, const char *what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}

// Arrays: the arena keeps every allocation of a call and frees the rest
// when the call ends; small ones come from the heap, large ones (256 KB
// on) are mappings of their own.
void arenaAndArrays() {
  {
    KjitCallContext ctx;
    std::vector<void *> kept;
    for (int64_t n : {0, 1, 63, 64, 4096, 256 << 10, 3 << 20}) {
      auto *p = static_cast<unsigned char *>(kjit_rt_alloc(&ctx, n));
      check(p != nullptr, "kjit_rt_alloc gives memory");
      check(reinterpret_cast<uintptr_t>(p) % 64 == 0, "array memory is 64-byte aligned");
      if (n) std::memset(p, 0xab, size_t(n));  // every byte is ours
      kept.push_back(p);
    }
    kjit_rt_free(&ctx, kept[2]);  // a variable took another array
    kjit_rt_free(&ctx, kept[6]);  // a mapping
    int outside = 0;
    kjit_rt_free(&ctx, &outside);  // not from this call: left alone
    void *returned = kept[4];
    check(ctx.release(returned), "a returned array leaves the arena");
    kjit::kjitFree(returned);  // (its owner frees it)
    check(kjit_rt_alloc(&ctx, -1) == nullptr && ctx.raised && ctx.excClass == "ValueError",
          "a negative size raises ValueError");
  }  // the rest is freed here: LeakSanitizer checks it at exit
}

// Lists: made zeroed, grown by doubling (old elements kept, new ones
// zero), freed with the call.
void lists() {
  KjitCallContext ctx;
  auto *l = static_cast<KjitList *>(kjit_rt_list_new(&ctx, 8, 3));
  check(l && l->size == 3, "a new list has its size");
  for (int64_t i = 0; i < 3; ++i) {
    int64_t v;
    std::memcpy(&v, l->data + 8 * i, 8);
    check(v == 0, "new elements are zero");
  }
  for (int64_t n = 4; n <= 10000; ++n) {
    check(kjit_rt_list_reserve(&ctx, l, n, 8) == 0, "a list grows");
    std::memcpy(l->data + 8 * (n - 1), &n, 8);  // append
    l->size = n;
  }
  int64_t last;
  std::memcpy(&last, l->data + 8 * 9999, 8);
  check(last == 10000, "appended elements are kept while the list grows");
  check(kjit_rt_list_new(&ctx, 8, -1) == nullptr && ctx.raised, "a negative list size raises");
  // Lists made outside a call (arguments): freed by their owner.
  KjitList *arg = kjit::newList(5, 5, 4);
  check(arg && kjit::reserveList(arg, 100, 4), "an argument list grows");
  kjit::freeList(arg);
  for (int i = 0; i < 100; ++i) kjit_rt_list_new(&ctx, 16, i);  // freed with the call
}

// Exceptions: the first one wins; except clauses match classes and their
// bases; clearing lets the next one through.
void exceptions() {
  KjitCallContext ctx;
  kjit_rt_raise_index(&ctx, 7, 0, 3, "k.py", 4);
  check(ctx.raised && ctx.excClass == "IndexError", "an index error is IndexError");
  kjit_rt_raise(&ctx, "ValueError", "second", "k.py", 5);
  check(ctx.excClass == "IndexError", "the first exception wins");
  check(kjit_rt_exc_matches(&ctx, "LookupError") == 1, "IndexError is a LookupError");
  check(kjit_rt_exc_matches(&ctx, "Exception") == 1, "everything is an Exception");
  check(kjit_rt_exc_matches(&ctx, "ValueError|KeyError") == 0, "IndexError is not a ValueError");
  kjit_rt_exc_clear(&ctx);
  check(!ctx.raised, "a caught exception is cleared");
  kjit_rt_raise(&ctx, "ZeroDivisionError", "division by zero", "k.py", 6);
  check(kjit_rt_exc_matches(&ctx, "ArithmeticError") == 1, "ZeroDivisionError is arithmetic");
}

// prange: chunks cover [0, trip) once each, on the pool's threads; a body
// that raises stops the loop with its exception.
struct LoopEnv {
  std::vector<int64_t> *hits;
  int64_t raiseAt;
};

int32_t body(void *env, int64_t, int64_t lo, int64_t hi, KjitCallContext *ctx) {
  auto *e = static_cast<LoopEnv *>(env);
  for (int64_t i = lo; i < hi; ++i) {
    if (i == e->raiseAt) {
      kjit_rt_raise(ctx, "ValueError", "stop", "k.py", 9);
      return 1;
    }
    (*e->hits)[size_t(i)] += 1;
  }
  return 0;
}

void parallelLoops() {
  kjit::ThreadPool pool(3);
  for (int64_t trip : {0, 1, 7, 1000, 100003}) {
    KjitCallContext ctx;
    ctx.pool = &pool;
    std::vector<int64_t> hits(size_t(trip), 0);
    LoopEnv env{&hits, -1};
    int32_t status = kjit_rt_parallel_for(&ctx, body, &env, trip, kjit_rt_num_chunks(&ctx));
    bool once = status == 0;
    for (int64_t h : hits) once = once && h == 1;
    check(once, "prange visits each iteration once");
  }
  KjitCallContext ctx;
  ctx.pool = &pool;
  std::vector<int64_t> hits(1000, 0);
  LoopEnv env{&hits, 500};
  check(kjit_rt_parallel_for(&ctx, body, &env, 1000, 4) != 0 && ctx.excClass == "ValueError",
        "a raising body stops the loop");
}

void randomNumbers() {
  kjit_rt_random_seed(42);
  double a = kjit_rt_random_double();
  kjit_rt_random_seed(42);
  check(kjit_rt_random_double() == a, "a seed repeats the stream");
  double sum = 0;
  for (int i = 0; i < 10000; ++i) {
    double g = kjit_rt_random_gauss();
    check(std::isfinite(g), "normal values are finite");
    sum += g;
    int64_t u = kjit_rt_random_u32();
    check(u >= 0 && u <= 0xffffffffLL, "random 32-bit words");
  }
  check(std::fabs(sum / 10000) < 0.1, "normal values average about 0");
}

// LAPACK (the system's, loaded at first use) with the buffers the library
// code (compiler/lib/numpy/linalg.kjit) passes: C-order matrices read as their
// transposes.
void lapackOps() {
  double a[9] = {4, 1, 2, 1, 5, 3, 2, 3, 6};  // symmetric positive definite
  double lu[9];
  int32_t piv[3];
  std::memcpy(lu, a, sizeof(a));
  int64_t info = kjit_rt_lapack(0, lu, 3, piv, lu, 0, 3);
  if (info == -9999) {
    std::printf("no system LAPACK: its checks are skipped\n");
    return;
  }
  check(info == 0, "getrf");
  double b[3] = {1, 2, 3};
  check(kjit_rt_lapack(1, lu, 3, piv, b, 1, 3) == 0, "getrs");
  for (int i = 0; i < 3; ++i) {
    double r = a[3 * i] * b[0] + a[3 * i + 1] * b[1] + a[3 * i + 2] * b[2];
    check(std::fabs(r - (i + 1)) < 1e-12, "solve: a x = b");
  }
  check(kjit_rt_lapack(2, lu, 3, piv, lu, 0, 3) == 0, "getri");
  double c[9];
  std::memcpy(c, a, sizeof(a));
  check(kjit_rt_lapack(3, c, 3, piv, c, 0, 3) == 0, "potrf");
  double z[9], w[3];
  std::memcpy(z, a, sizeof(a));
  check(kjit_rt_lapack(4, z, 3, piv, w, 1, 3) == 0 && w[0] <= w[1] && w[1] <= w[2], "syevd");
  // A 4 x 3 matrix (its transpose, C order, is LAPACK's 3 x 4... read as
  // the column-major 4 x 3): SVD, QR, least squares.
  double m43[12] = {1, 5, 9, 2, 6, 10, 3, 7, 11, 4, 8, 13};  // columns of the 4 x 3
  int m = 4, n = 3, k = 3;
  std::vector<double> at(m43, m43 + 12), out(size_t(k + m * m + n * n));
  check(kjit_rt_lapack(5, at.data(), n, piv, out.data(), 1, m) == 0 && out[0] >= out[1] &&
            out[1] >= out[2],
        "gesdd: singular values, descending");
  at.assign(m43, m43 + 12);
  out.assign(size_t(m * k + k * n), 0);
  check(kjit_rt_lapack(6, at.data(), n, piv, out.data(), 1, m) == 0, "geqrf + orgqr");
  double g[9] = {2, 0, 0, 1, 3, 0, 0, 1, 4};
  std::vector<double> eig(2 * 3 + 9);
  check(kjit_rt_lapack(7, g, 3, piv, eig.data(), 1, 3) == 0, "geev");
  // gelsd: nrhs rows of max(m, n) + k + 1; rcond in, the rank out.
  int nrhs = 2, big = 4, row = big + k + 1;
  at.assign(m43, m43 + 12);
  std::vector<double> work(size_t(nrhs * row), 0.0);
  for (int j = 0; j < nrhs; ++j)
    for (int i = 0; i < m; ++i) work[size_t(j * row + i)] = i + j;
  work[size_t(big + k)] = -1.0;
  check(kjit_rt_lapack(8, at.data(), n, piv, work.data(), nrhs, m) == 0, "gelsd");
  check(work[size_t(big + k)] == 3.0, "gelsd: the rank of a full-rank 4 x 3 matrix is 3");
  double x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {1, 0, 0, 1, 1, 1}, prod[4];
  int64_t g2 = kjit_rt_gemm(x, y, prod, 2, 3, 2);  // (2 x 3) @ (3 x 2)
  check(g2 != 0 || (prod[0] == 4 && prod[1] == 5 && prod[2] == 10 && prod[3] == 11), "dgemm");
}

void printing() {
  kjit_rt_print_i64(-5);
  kjit_rt_print_str(" ");
  kjit_rt_print_f64(0.1);
  kjit_rt_print_str(" ");
  KjitList *s = kjit::newList(3, 3, 4);
  uint32_t cps[3] = {0x6b, 0xe9, 0x1f600};  // k, e-acute, an emoji
  std::memcpy(s->data, cps, sizeof(cps));
  kjit_rt_print_codes(s);
  kjit::freeList(s);
  kjit_rt_print_end();
  check(kjit_rt_f64_to_f16(1.0) == 0x3c00 && kjit_rt_f64_to_f16(65520.0) == 0x7c00,
        "float16 conversion rounds as NumPy");
}

}  // namespace

int main() {
  arenaAndArrays();
  lists();
  exceptions();
  parallelLoops();
  randomNumbers();
  lapackOps();
  printing();
  std::printf("host runtime under the sanitizers: %d failure(s)\n", failures);
  return failures;
}
