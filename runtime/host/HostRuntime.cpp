#include "runtime/host/HostRuntime.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <vector>

#include "frontend/support/BFloat16.h"
#include "frontend/support/Unicode.h"
#include "runtime/host/ThreadPool.h"

namespace kjit {

StackBounds threadStack() {
  thread_local const StackBounds bounds = [] {
    StackBounds b;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return b;
    void *addr = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr && size) {
      b.low = reinterpret_cast<uintptr_t>(addr);
      b.high = b.low + size;
    }
    pthread_attr_destroy(&attr);
    return b;
  }();
  return bounds;
}

// A quarter of a small stack (a CPU-device fiber's 256 KiB keeps 64 KiB),
// 256 KiB of a larger one: room for the runtime calls that may follow the
// check and for raising.
size_t stackReserve(size_t bytes) { return std::min(bytes / 4, size_t(256 * 1024)); }

void KjitCallContext::useThreadStack() {
  StackBounds b = threadStack();
  if (b.high) setStack(b.low, b.high);
}

void KjitCallContext::setStack(uintptr_t low, uintptr_t high) {
  stackLow = low;
  stackLimit = low + stackReserve(high - low);
  stackSpan = high - stackLimit;
}

KjitCallContext::~KjitCallContext() {
  for (void *p : arena) kjitFree(p);
  for (KjitList *l : lists) freeList(l);
}

KjitList *newList(int64_t size, int64_t capacity, int64_t itemBytes) {
  if (size < 0 || itemBytes <= 0) return nullptr;
  capacity = std::max<int64_t>({capacity, size, 4});
  auto *l = static_cast<KjitList *>(std::calloc(1, sizeof(KjitList)));
  if (!l) return nullptr;
  l->data = static_cast<unsigned char *>(std::calloc(size_t(capacity), size_t(itemBytes)));
  if (!l->data) {
    std::free(l);
    return nullptr;
  }
  l->size = size;
  l->capacity = capacity;
  return l;
}

void freeList(KjitList *l) {
  if (!l) return;
  std::free(l->data);
  std::free(l);
}

bool reserveList(KjitList *l, int64_t need, int64_t itemBytes) {
  if (need <= l->capacity) return true;
  if (need < 0 || itemBytes <= 0 || need > INT64_MAX / 2 / itemBytes) return false;
  int64_t cap = std::max<int64_t>(need, l->capacity * 2);
  void *p = std::realloc(l->data, size_t(cap * itemBytes));
  if (!p) return false;
  l->data = static_cast<unsigned char *>(p);
  std::memset(l->data + l->capacity * itemBytes, 0, size_t((cap - l->capacity) * itemBytes));
  l->capacity = cap;
  return true;
}

bool KjitCallContext::release(void *data) {
  std::lock_guard<std::mutex> lock(arenaMutex);
  auto it = std::find(arena.begin(), arena.end(), data);
  if (it == arena.end()) return false;
  arena.erase(it);
  return true;
}

// Array memory: 64-byte aligned, after a 64-byte header that says how it
// was obtained. From 256 KB on it is a mapping of its own, given back to
// the system when freed: an allocator's heap would keep the holes (aligned
// requests fit badly into the holes freed ones leave, and a loop that
// frees and allocates a temporary each iteration grew by hundreds of MB).
namespace {
constexpr size_t kHeader = 64;
constexpr size_t kMapFrom = 256 * 1024;
struct AllocationHeader {
  void *base;
  size_t mapped;  // the mapping's length, or 0: from aligned_alloc
};

// A few mappings freed lately are kept for the next allocation of their
// size: a function called again and again (an array expression's result, a
// temporary per call) would otherwise fault in every page of a fresh mapping
// each time, which for 80 MB is a tenth of the work. At most kCachedMappings
// of them and kCachedBytes in all; the oldest goes back to the system first.
// (Transparent huge pages on request were tried: with the usual
// defrag=madvise setting a single thread's faults then wait for compaction,
// twice as slow.)
constexpr size_t kCachedMappings = 4;
constexpr size_t kCachedBytes = size_t(512) << 20;
struct CachedMapping {
  void *base;
  size_t mapped;
};
std::mutex mappingMutex;
std::vector<CachedMapping> cachedMappings;  // the newest last
size_t cachedBytes = 0;

void *takeCachedMapping(size_t mapped) {
  std::lock_guard<std::mutex> lock(mappingMutex);
  for (size_t i = cachedMappings.size(); i-- > 0;) {
    if (cachedMappings[i].mapped != mapped) continue;
    void *base = cachedMappings[i].base;
    cachedMappings.erase(cachedMappings.begin() + std::ptrdiff_t(i));
    cachedBytes -= mapped;
    return base;
  }
  return nullptr;
}

void returnMapping(void *base, size_t mapped) {
  std::vector<CachedMapping> evicted;
  {
    std::lock_guard<std::mutex> lock(mappingMutex);
    if (mapped > kCachedBytes) {
      evicted.push_back({base, mapped});
    } else {
      cachedMappings.push_back({base, mapped});
      cachedBytes += mapped;
      while (cachedMappings.size() > kCachedMappings || cachedBytes > kCachedBytes) {
        evicted.push_back(cachedMappings.front());
        cachedBytes -= cachedMappings.front().mapped;
        cachedMappings.erase(cachedMappings.begin());
      }
    }
  }
  for (const CachedMapping &m : evicted) munmap(m.base, m.mapped);
}
}  // namespace

void *kjitAllocate(size_t nbytes) {
  size_t n = nbytes + kHeader;
  void *base;
  size_t mapped = 0;
  if (n >= kMapFrom) {
    size_t page = size_t(sysconf(_SC_PAGESIZE));
    mapped = (n + page - 1) / page * page;
    base = takeCachedMapping(mapped);
    if (!base) {
      base = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (base == MAP_FAILED) return nullptr;
    }
  } else {
    base = std::aligned_alloc(64, (n + 63) / 64 * 64);
    if (!base) return nullptr;
  }
  auto *h = static_cast<AllocationHeader *>(base);
  h->base = base;
  h->mapped = mapped;
  return static_cast<unsigned char *>(base) + kHeader;
}

void kjitFree(void *data) {
  if (!data) return;
  auto *h = reinterpret_cast<AllocationHeader *>(static_cast<unsigned char *>(data) - kHeader);
  if (h->mapped)
    returnMapping(h->base, h->mapped);
  else
    std::free(h->base);
}

namespace {

// Python's repr of a float: the shortest string that round-trips, with ".0"
// for integral values ("1.0", "1e+16", "inf", "nan").
std::string floatRepr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

// A print() line is gathered per thread and written whole, so that lines of
// threads printing at once (prange bodies, the CPU device's blocks) never mix.
thread_local std::string pendingLine;

void out(const std::string &s) { pendingLine += s; }

}  // namespace

}  // namespace kjit

extern "C" {

// Returns 64-byte-aligned memory recorded in the call's arena, or null with
// MemoryError/ValueError raised.
void *kjit_rt_alloc(kjit::KjitCallContext *ctx, int64_t nbytes) {
  if (nbytes < 0) {
    ctx->raised = true;
    ctx->excClass = "ValueError";
    ctx->message = "negative dimensions are not allowed";
    return nullptr;
  }
  void *p = kjit::kjitAllocate(size_t(nbytes));
  if (!p) {
    ctx->raised = true;
    ctx->excClass = "MemoryError";
    ctx->message = fmt::format("cannot allocate {} bytes", nbytes);
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(ctx->arenaMutex);
  ctx->arena.push_back(p);
  return p;
}

void kjit_rt_raise(kjit::KjitCallContext *ctx, const char *excClass, const char *message,
                   const char *file, int32_t line);

// A new list of `size` zeroed elements of `itemBytes` each, kept until the
// call ends; null with MemoryError/ValueError raised.
void *kjit_rt_list_new(kjit::KjitCallContext *ctx, int64_t itemBytes, int64_t size) {
  if (size < 0) {
    kjit_rt_raise(ctx, "ValueError", "negative list size", "", 0);
    return nullptr;
  }
  kjit::KjitList *l = kjit::newList(size, size, itemBytes);
  if (!l) {
    kjit_rt_raise(ctx, "MemoryError", "cannot allocate a list", "", 0);
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(ctx->arenaMutex);
  ctx->lists.push_back(l);
  return l;
}

// Room for `need` elements; 1 with MemoryError raised when there is none.
int32_t kjit_rt_list_reserve(kjit::KjitCallContext *ctx, kjit::KjitList *l, int64_t need,
                             int64_t itemBytes) {
  if (kjit::reserveList(l, need, itemBytes)) return 0;
  kjit_rt_raise(ctx, "MemoryError", "cannot grow a list", "", 0);
  return 1;
}

// try/except: whether the recorded exception is one of `classes` ("A|B";
// empty or "Exception": any) or a subclass of one. Builtin classes follow
// Python's hierarchy; other classes match by name.
int32_t kjit_rt_exc_matches(kjit::KjitCallContext *ctx, const char *classes) {
  static const std::pair<const char *, const char *> kParent[] = {
      {"ZeroDivisionError", "ArithmeticError"},
      {"OverflowError", "ArithmeticError"},
      {"FloatingPointError", "ArithmeticError"},
      {"IndexError", "LookupError"},
      {"KeyError", "LookupError"},
      {"NotImplementedError", "RuntimeError"},
      {"RecursionError", "RuntimeError"},
      {"numpy.linalg.LinAlgError", "ValueError"},
  };
  std::string want = classes;
  if (want.empty()) return 1;
  size_t start = 0;
  for (;;) {
    size_t bar = want.find('|', start);
    std::string cls =
        want.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
    if (cls == "Exception" || cls == "BaseException") return 1;
    for (std::string c = ctx->excClass; !c.empty();) {
      if (c == cls) return 1;
      std::string up;
      for (auto &[child, parent] : kParent)
        if (c == child) up = parent;
      c = up;
    }
    if (bar == std::string::npos) return 0;
    start = bar + 1;
  }
}

// The exception was caught: the call goes on as if it had not been raised.
void kjit_rt_exc_clear(kjit::KjitCallContext *ctx) {
  std::lock_guard<std::mutex> lock(ctx->raiseMutex);
  ctx->raised = false;
  ctx->excClass.clear();
  ctx->message.clear();
  ctx->file.clear();
  ctx->line = 0;
}

// Frees an array kjit_rt_alloc returned in this call, when the variable
// that owned it takes another (compiler/Lowering.cpp, ArrayOwnership);
// anything not in the arena is left alone.
void kjit_rt_free(kjit::KjitCallContext *ctx, void *data) {
  if (!data) return;
  {
    std::lock_guard<std::mutex> lock(ctx->arenaMutex);
    auto it = std::find(ctx->arena.rbegin(), ctx->arena.rend(), data);  // the newest first
    if (it == ctx->arena.rend()) return;
    ctx->arena.erase(std::next(it).base());
  }
  kjit::kjitFree(data);
}

void kjit_rt_raise(kjit::KjitCallContext *ctx, const char *excClass, const char *message,
                   const char *file, int32_t line) {
  std::lock_guard<std::mutex> lock(ctx->raiseMutex);
  if (ctx->raised) return;  // the first exception wins (parallel loops)
  ctx->raised = true;
  ctx->excClass = excClass;
  ctx->message = message;
  ctx->file = file;
  ctx->line = line;
}

// The slow path of a recursive function's entry check
// (compiler/LoweringRecursion.cpp): `sp` is below the context's limit or on
// another stack. 0 where the running thread's stack has room; 1 with
// RecursionError raised where it is full.
int32_t kjit_rt_stack_check(kjit::KjitCallContext *ctx, uint64_t sp, const char *function,
                            const char *file, int32_t line) {
  uintptr_t low = ctx->stackLow, limit = ctx->stackLimit, high = limit + ctx->stackSpan;
  if (sp < low || sp >= high) {  // not the context's stack, or not known yet: this thread's
    kjit::StackBounds b = kjit::threadStack();
    if (sp < b.low || sp >= b.high) return 0;  // a stack it does not know
    low = b.low;
    high = b.high;
    limit = low + kjit::stackReserve(high - low);
    // A context one thread runs takes that thread's stack, so that its next
    // checks stay in compiled code.
    if (!ctx->pool && ctx->stackSpan == 0) ctx->setStack(low, high);
  }
  if (sp >= limit) return 0;
  std::string msg =
      fmt::format("maximum recursion depth exceeded in {}(): the thread's stack ({} KiB) is full",
                  function, (high - low) / 1024);
  kjit_rt_raise(ctx, "RecursionError", msg.c_str(), file, line);
  return 1;
}

void kjit_rt_raise_index(kjit::KjitCallContext *ctx, int64_t index, int64_t axis, int64_t size,
                         const char *file, int32_t line) {
  std::lock_guard<std::mutex> lock(ctx->raiseMutex);
  if (ctx->raised) return;
  ctx->raised = true;
  ctx->excClass = "IndexError";
  ctx->message =
      fmt::format("index {} is out of bounds for axis {} with size {}", index, axis, size);
  ctx->file = file;
  ctx->line = line;
}

// The number of chunks a prange loop is split into.
int64_t kjit_rt_num_chunks(kjit::KjitCallContext *ctx) { return ctx->pool ? ctx->pool->size() : 1; }

// Runs body(env, chunk, lo, hi, ctx) for `chunks` contiguous pieces of
// [0, trip) in parallel; 1 when any piece raised.
using ParallelBody = int32_t (*)(void *, int64_t, int64_t, int64_t, kjit::KjitCallContext *);
int32_t kjit_rt_parallel_for(kjit::KjitCallContext *ctx, ParallelBody body, void *env, int64_t trip,
                             int64_t chunks) {
  if (trip <= 0) return 0;
  std::atomic<int32_t> status{0};
  auto piece = [&](unsigned k) {
    int64_t lo = trip * int64_t(k) / chunks, hi = trip * int64_t(k + 1) / chunks;
    if (body(env, int64_t(k), lo, hi, ctx) != 0) status = 1;
  };
  if (ctx->pool && chunks > 1)
    ctx->pool->run(unsigned(chunks), piece);
  else
    for (unsigned k = 0; k < unsigned(chunks); ++k) piece(k);
  return status;
}

void kjit_rt_print_i64(int64_t v) { kjit::out(fmt::format("{}", v)); }
void kjit_rt_print_u64(uint64_t v) { kjit::out(fmt::format("{}", v)); }
void kjit_rt_print_f64(double v) { kjit::out(kjit::floatRepr(v)); }
void kjit_rt_print_bool(int32_t v) { kjit::out(v ? "True" : "False"); }
void kjit_rt_print_complex(double re, double im) {
  std::string ims = kjit::floatRepr(std::fabs(im));
  if (ims.size() > 2 && ims.compare(ims.size() - 2, 2, ".0") == 0) ims.resize(ims.size() - 2);
  std::string res = kjit::floatRepr(re);
  if (res.size() > 2 && res.compare(res.size() - 2, 2, ".0") == 0) res.resize(res.size() - 2);
  if (re == 0 && !std::signbit(re))
    kjit::out(fmt::format("{}{}j", std::signbit(im) ? "-" : "", ims));
  else
    kjit::out(fmt::format("({}{}{}j)", res, std::signbit(im) ? "-" : "+", ims));
}
void kjit_rt_print_str(const char *s) { kjit::out(s); }
// A str: its code points, written as UTF-8.
void kjit_rt_print_codes(const kjit::KjitList *l) {
  std::string s;
  for (int64_t i = 0; i < l->size; ++i) {
    uint32_t c;
    std::memcpy(&c, l->data + size_t(i) * 4, 4);
    kjit::unicode::appendUtf8(s, c);
  }
  kjit::out(s.c_str());
}

// ---- np.random: one Mersenne Twister per thread, as Numba has ----------------
// The stream is NumPy's legacy RandomState's: after np.random.seed(s) in
// jitted code, random() and randn() give what np.random.seed(s) and
// np.random.random()/randn() give in Python; before any seed, each thread
// starts from the system's entropy. The rest of np.random is written in
// the kernel language over these (compiler/lib/numpy/random.kjit).
namespace {
struct RandomState {
  uint32_t mt[624];
  int index = 625;  // > 624: not seeded yet
  bool hasGauss = false;
  double gauss = 0;
};
thread_local RandomState randomState;

void randomSeed(RandomState &st, uint32_t seed) {
  st.mt[0] = seed;
  for (int i = 1; i < 624; ++i)
    st.mt[i] = 1812433253u * (st.mt[i - 1] ^ (st.mt[i - 1] >> 30)) + uint32_t(i);
  st.index = 624;
  st.hasGauss = false;
}

uint32_t randomNext(RandomState &st) {
  if (st.index > 624) {
    std::random_device rd;
    randomSeed(st, rd());
  }
  if (st.index == 624) {  // the next 624 words
    for (int i = 0; i < 624; ++i) {
      uint32_t y = (st.mt[i] & 0x80000000u) | (st.mt[(i + 1) % 624] & 0x7fffffffu);
      st.mt[i] = st.mt[(i + 397) % 624] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfu : 0u);
    }
    st.index = 0;
  }
  uint32_t y = st.mt[st.index++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

double randomDouble(RandomState &st) {
  uint32_t a = randomNext(st) >> 5, b = randomNext(st) >> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}
}  // namespace

void kjit_rt_random_seed(int64_t seed) { randomSeed(randomState, uint32_t(seed)); }
int64_t kjit_rt_random_u32() { return int64_t(randomNext(randomState)); }
double kjit_rt_random_double() { return randomDouble(randomState); }
// The legacy polar method: two values per draw, the second kept for the next call.
double kjit_rt_random_gauss() {
  RandomState &st = randomState;
  if (st.hasGauss) {
    st.hasGauss = false;
    return st.gauss;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * randomDouble(st) - 1.0;
    x2 = 2.0 * randomDouble(st) - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  double f = std::sqrt(-2.0 * std::log(r2) / r2);
  st.gauss = f * x1;
  st.hasGauss = true;
  return f * x2;
}

// ---- np.linalg: the system's LAPACK (liblapack.so.3), loaded at first use ----
// The library code (compiler/lib/numpy/linalg.kjit) passes C-contiguous float64
// copies, which LAPACK (column-major) reads as their transposes, and
// arranges the operations for that. Returns LAPACK's info, or kNoLapack.
namespace {
constexpr int64_t kNoLapack = -9999;
using GetrfFn = void(int *, int *, double *, int *, int *, int *);
using GetrsFn = void(const char *, int *, int *, double *, int *, int *, double *, int *, int *,
                     size_t);
using GetriFn = void(int *, double *, int *, int *, double *, int *, int *);
using PotrfFn = void(const char *, int *, double *, int *, int *, size_t);
using GemmFn = void(const char *, const char *, int *, int *, int *, double *, double *, int *,
                    double *, int *, double *, double *, int *, size_t, size_t);
using SyevdFn = void(const char *, const char *, int *, double *, int *, double *, double *, int *,
                     int *, int *, int *, size_t, size_t);
using GesddFn = void(const char *, int *, int *, double *, int *, double *, double *, int *,
                     double *, int *, double *, int *, int *, int *, size_t);
using GeqrfFn = void(int *, int *, double *, int *, double *, double *, int *, int *);
using OrgqrFn = void(int *, int *, int *, double *, int *, double *, double *, int *, int *);
using GeevFn = void(const char *, const char *, int *, double *, int *, double *, double *,
                    double *, int *, double *, int *, double *, int *, int *, size_t, size_t);
using GelsdFn = void(int *, int *, int *, double *, int *, double *, int *, double *, double *,
                     int *, double *, int *, int *, int *);
struct Lapack {
  GetrfFn *getrf = nullptr;
  GetrsFn *getrs = nullptr;
  GetriFn *getri = nullptr;
  PotrfFn *potrf = nullptr;
  GemmFn *gemm = nullptr;  // BLAS's dgemm (LAPACK's library links BLAS)
  SyevdFn *syevd = nullptr;
  GesddFn *gesdd = nullptr;
  GeqrfFn *geqrf = nullptr;
  OrgqrFn *orgqr = nullptr;
  GeevFn *geev = nullptr;
  GelsdFn *gelsd = nullptr;
  bool ok = false;
};
const Lapack &lapack() {
  static const Lapack l = [] {
    Lapack r;
    void *h = nullptr;
    for (const char *name : {"liblapack.so.3", "liblapack.so", "libopenblas.so.0"})
      if ((h = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    if (!h) return r;
    r.getrf = reinterpret_cast<GetrfFn *>(dlsym(h, "dgetrf_"));
    r.getrs = reinterpret_cast<GetrsFn *>(dlsym(h, "dgetrs_"));
    r.getri = reinterpret_cast<GetriFn *>(dlsym(h, "dgetri_"));
    r.potrf = reinterpret_cast<PotrfFn *>(dlsym(h, "dpotrf_"));
    r.gemm = reinterpret_cast<GemmFn *>(dlsym(h, "dgemm_"));
    r.syevd = reinterpret_cast<SyevdFn *>(dlsym(h, "dsyevd_"));
    r.gesdd = reinterpret_cast<GesddFn *>(dlsym(h, "dgesdd_"));
    r.geqrf = reinterpret_cast<GeqrfFn *>(dlsym(h, "dgeqrf_"));
    r.orgqr = reinterpret_cast<OrgqrFn *>(dlsym(h, "dorgqr_"));
    r.geev = reinterpret_cast<GeevFn *>(dlsym(h, "dgeev_"));
    r.gelsd = reinterpret_cast<GelsdFn *>(dlsym(h, "dgelsd_"));
    if (!r.gemm)
      if (void *blas = dlopen("libblas.so.3", RTLD_NOW | RTLD_LOCAL))
        r.gemm = reinterpret_cast<GemmFn *>(dlsym(blas, "dgemm_"));
    r.ok = r.getrf && r.getrs && r.getri && r.potrf && r.syevd && r.gesdd && r.geqrf && r.orgqr &&
           r.geev && r.gelsd;
    return r;
  }();
  return l;
}

// (kjit_rt_lapack's ops 5 to 8.)
int64_t lapackGeneral(const Lapack &l, int64_t op, double *a, int M, int N, double *b, int R) {
  int info = 0, K = std::min(M, N);
  if (M == 0 || N == 0) return 0;
  int lwork = -1;
  double query = 0;
  switch (op) {
  case 8: {
    // b is nrhs rows of max(m, n) + k + 1: row j is column j of B, and row 0
    // goes on with the singular values and the rank.
    int ldb = std::max(M, N) + K + 1, rank = 0, iquery = 0;
    double *s = b + std::max(M, N), *rankOut = s + K;
    double rcond = *rankOut;
    l.gelsd(&M, &N, &R, a, &M, b, &ldb, s, &rcond, &rank, &query, &lwork, &iquery, &info);
    lwork = std::max(int(query), 1);
    std::vector<double> work(static_cast<size_t>(lwork));
    std::vector<int> iwork(static_cast<size_t>(std::max(iquery, 1)));
    l.gelsd(&M, &N, &R, a, &M, b, &ldb, s, &rcond, &rank, work.data(), &lwork, iwork.data(), &info);
    *rankOut = double(rank);
    return info;
  }
  case 5: {
    double *s = b, *u = b + K, *vt = u + size_t(M) * size_t(M);
    std::vector<int> iwork(8 * size_t(K));
    l.gesdd("A", &M, &N, a, &M, s, u, &M, vt, &N, &query, &lwork, iwork.data(), &info, 1);
    lwork = std::max(int(query), 1);
    std::vector<double> work(static_cast<size_t>(lwork));
    l.gesdd("A", &M, &N, a, &M, s, u, &M, vt, &N, work.data(), &lwork, iwork.data(), &info, 1);
    return info;
  }
  case 6: {
    double *q = b, *r = b + size_t(M) * size_t(K);
    std::vector<double> tau(size_t(K) + 1);
    l.geqrf(&M, &N, a, &M, tau.data(), &query, &lwork, &info);
    lwork = std::max(int(query), N);
    std::vector<double> work(static_cast<size_t>(lwork));
    l.geqrf(&M, &N, a, &M, tau.data(), work.data(), &lwork, &info);
    if (info != 0) return info;
    for (int j = 0; j < N; ++j)  // R: the upper triangle of the first k rows
      for (int i = 0; i < K; ++i)
        r[size_t(j) * size_t(K) + size_t(i)] = i <= j ? a[size_t(j) * size_t(M) + size_t(i)] : 0.0;
    lwork = -1;
    l.orgqr(&M, &K, &K, a, &M, tau.data(), &query, &lwork, &info);
    lwork = std::max(int(query), K);
    work.assign(static_cast<size_t>(lwork), 0.0);
    l.orgqr(&M, &K, &K, a, &M, tau.data(), work.data(), &lwork, &info);
    std::memcpy(q, a, sizeof(double) * size_t(M) * size_t(K));
    return info;
  }
  case 7: {
    double *wr = b, *wi = b + N, *vr = wi + N;
    double dummy = 0;
    int one = 1;
    l.geev("N", "V", &N, a, &N, wr, wi, &dummy, &one, vr, &N, &query, &lwork, &info, 1, 1);
    lwork = std::max(int(query), 4 * N);
    std::vector<double> work(static_cast<size_t>(lwork));
    l.geev("N", "V", &N, a, &N, wr, wi, &dummy, &one, vr, &N, work.data(), &lwork, &info, 1, 1);
    return info;
  }
  default: return -1;
  }
}
}  // namespace

// op 0: LU factors of the n x n `a` (getrf), pivots in `ipiv`; 1: solve with
// them for the nrhs columns of `b` (getrs, transposed); 2: the inverse from
// them, in place (getri); 3: Cholesky factor, in place (potrf, upper); 4:
// the eigenvalues of the symmetric `a` into `b` (ascending) and its
// eigenvectors into `a`'s columns, column-major (syevd, lower triangle).
// The ops on an m x n matrix read `a` (rows x cols, C order) as the
// column-major m x n matrix (m = cols, n = rows: the library passes a's
// transpose) and write their results one after another into `b`:
// 5: SVD (gesdd, all vectors): s (min(m, n)), U (m x m), VT (n x n), each
// column-major; 6: reduced QR (geqrf, orgqr): Q (m x k), then R (k x n),
// column-major, k = min(m, n); 7: eigen-decomposition of a general square
// matrix (geev): real parts (n), imaginary parts (n), right eigenvectors
// (n x n, column-major); 8: least squares (gelsd): `b` has nrhs rows of
// max(m, n) + k + 1; the first max(m, n) of row j are the right-hand side j,
// replaced by its solution; row 0 goes on with the singular values (k) and
// the rank, in one double that holds rcond on entry.
int64_t kjit_rt_lapack(int64_t op, double *a, int64_t n, int32_t *ipiv, double *b, int64_t nrhs,
                       int64_t acols) {
  const Lapack &l = lapack();
  if (!l.ok) return kNoLapack;
  int N = int(n), info = 0;
  if (op >= 5) return lapackGeneral(l, op, a, int(acols), N, b, int(nrhs));
  if (N == 0) return 0;
  switch (op) {
  case 0: l.getrf(&N, &N, a, &N, ipiv, &info); break;
  case 1: {
    int R = int(nrhs);
    if (R > 0) l.getrs("T", &N, &R, a, &N, ipiv, b, &N, &info, 1);
    break;
  }
  case 2: {
    int lwork = -1;
    double query = 0;
    l.getri(&N, a, &N, ipiv, &query, &lwork, &info);
    lwork = std::max(int(query), N);
    std::vector<double> work(static_cast<size_t>(lwork));
    l.getri(&N, a, &N, ipiv, work.data(), &lwork, &info);
    break;
  }
  case 3: l.potrf("U", &N, a, &N, &info, 1); break;
  case 4: {
    int lwork = -1, liwork = -1, iquery = 0;
    double query = 0;
    l.syevd("V", "L", &N, a, &N, b, &query, &lwork, &iquery, &liwork, &info, 1, 1);
    lwork = std::max(int(query), 1);
    liwork = std::max(iquery, 1);
    std::vector<double> work(static_cast<size_t>(lwork));
    std::vector<int> iwork(static_cast<size_t>(liwork));
    l.syevd("V", "L", &N, a, &N, b, work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1);
    break;
  }
  default: return -1;
  }
  return info;
}

// c (m x n) = a (m x k) @ b (k x n), all C-contiguous float64, by BLAS's
// dgemm (column-major: c^T = b^T a^T). Returns 0, or kNoLapack without BLAS.
int64_t kjit_rt_gemm(double *a, double *b, double *c, int64_t m, int64_t k, int64_t n) {
  const Lapack &l = lapack();
  if (!l.gemm) return kNoLapack;
  int M = int(m), K = int(k), N = int(n);
  if (M == 0 || N == 0) return 0;
  double one = 1.0, zero = 0.0;
  int ldb = std::max(N, 1), lda = std::max(K, 1), ldc = std::max(N, 1);
  l.gemm("N", "N", &N, &M, &K, &one, b, &ldb, a, &lda, &zero, c, &ldc, 1, 1);
  return 0;
}

// float64 -> float16 bits, rounded once to nearest even (IEEE 754; NumPy's
// astype gives the same), for the CPU: x86-64 has no such instruction.
uint16_t kjit_rt_f64_to_f16(double d) { return kjit::f16::fromDouble(d); }
// bfloat16 on the CPU. LLVM's x86-64 back end computes bfloat in float32 and
// rounds by calling compiler-rt's __truncsfbf2/__truncdfbf2, which the JIT
// does not have: these are they, under those names (HostJit resolves them
// from runtimeSymbols()). Their bfloat16 result is the low 16 bits of the
// float register, as LLVM reads it.
static float inFloatRegister(uint16_t h) {
  uint32_t b = h;
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}
float kjit_rt_truncsfbf2(float f) { return inFloatRegister(kjit::bf16::fromFloat(f)); }
float kjit_rt_truncdfbf2(double d) { return inFloatRegister(kjit::bf16::fromDouble(d)); }

void kjit_rt_print_end() {
  kjit::pendingLine += '\n';
  std::fwrite(kjit::pendingLine.data(), 1, kjit::pendingLine.size(), stdout);
  std::fflush(stdout);
  kjit::pendingLine.clear();
}

// The CPU device's barriers and warp operations (CpuKernel.cpp).
int32_t kjit_cpu_sync(void *ctx, int32_t kind, int32_t pred, const char *file, int32_t line,
                      int32_t col);
uint64_t kjit_cpu_warp(void *ctx, int32_t op, int32_t mask, uint64_t value, int32_t arg,
                       const char *file, int32_t line, int32_t col);
int32_t kjit_cpu_activemask(void *ctx);
int64_t kjit_cpu_hopper(void *ctx, int32_t op, void *a, void *b, void *c, int64_t x, int64_t y,
                        const char *file, int32_t line, int32_t col);

}  // extern "C"

namespace kjit {

const std::vector<RuntimeSymbol> &runtimeSymbols() {
  static const std::vector<RuntimeSymbol> symbols = {
      {"kjit_rt_alloc", reinterpret_cast<void *>(&kjit_rt_alloc)},
      {"kjit_rt_free", reinterpret_cast<void *>(&kjit_rt_free)},
      {"kjit_rt_list_new", reinterpret_cast<void *>(&kjit_rt_list_new)},
      {"kjit_rt_exc_matches", reinterpret_cast<void *>(&kjit_rt_exc_matches)},
      {"kjit_rt_exc_clear", reinterpret_cast<void *>(&kjit_rt_exc_clear)},
      {"kjit_rt_list_reserve", reinterpret_cast<void *>(&kjit_rt_list_reserve)},
      {"kjit_rt_raise", reinterpret_cast<void *>(&kjit_rt_raise)},
      {"kjit_rt_raise_index", reinterpret_cast<void *>(&kjit_rt_raise_index)},
      {"kjit_rt_num_chunks", reinterpret_cast<void *>(&kjit_rt_num_chunks)},
      {"kjit_rt_parallel_for", reinterpret_cast<void *>(&kjit_rt_parallel_for)},
      {"kjit_rt_stack_check", reinterpret_cast<void *>(&kjit_rt_stack_check)},
      {"kjit_rt_print_i64", reinterpret_cast<void *>(&kjit_rt_print_i64)},
      {"kjit_rt_print_u64", reinterpret_cast<void *>(&kjit_rt_print_u64)},
      {"kjit_rt_print_f64", reinterpret_cast<void *>(&kjit_rt_print_f64)},
      {"kjit_rt_print_bool", reinterpret_cast<void *>(&kjit_rt_print_bool)},
      {"kjit_rt_print_complex", reinterpret_cast<void *>(&kjit_rt_print_complex)},
      {"kjit_rt_print_str", reinterpret_cast<void *>(&kjit_rt_print_str)},
      {"kjit_rt_print_codes", reinterpret_cast<void *>(&kjit_rt_print_codes)},
      {"kjit_rt_f64_to_f16", reinterpret_cast<void *>(&kjit_rt_f64_to_f16)},
      {"__truncsfbf2", reinterpret_cast<void *>(&kjit_rt_truncsfbf2)},
      {"__truncdfbf2", reinterpret_cast<void *>(&kjit_rt_truncdfbf2)},
      {"kjit_rt_lapack", reinterpret_cast<void *>(&kjit_rt_lapack)},
      {"kjit_rt_gemm", reinterpret_cast<void *>(&kjit_rt_gemm)},
      {"kjit_rt_random_seed", reinterpret_cast<void *>(&kjit_rt_random_seed)},
      {"kjit_rt_random_u32", reinterpret_cast<void *>(&kjit_rt_random_u32)},
      {"kjit_rt_random_double", reinterpret_cast<void *>(&kjit_rt_random_double)},
      {"kjit_rt_random_gauss", reinterpret_cast<void *>(&kjit_rt_random_gauss)},
      {"kjit_rt_print_end", reinterpret_cast<void *>(&kjit_rt_print_end)},
      {"kjit_cpu_sync", reinterpret_cast<void *>(&kjit_cpu_sync)},
      {"kjit_cpu_warp", reinterpret_cast<void *>(&kjit_cpu_warp)},
      {"kjit_cpu_activemask", reinterpret_cast<void *>(&kjit_cpu_activemask)},
      {"kjit_cpu_hopper", reinterpret_cast<void *>(&kjit_cpu_hopper)},
  };
  return symbols;
}

}  // namespace kjit
