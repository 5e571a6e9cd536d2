// Hopper.cpp - the typing of the asynchronous operations of sm_90 (Hopper):
//
//   cuda.mbarrier.init(bars, i, count)        cuda.fence_mbarrier_init()
//   cuda.mbarrier.arrive(bars, i)             cuda.mbarrier.arrive_expect_tx(bars, i, nbytes)
//   cuda.mbarrier.wait(bars, i, parity)       ok = cuda.mbarrier.try_wait(bars, i, parity)
//   cuda.tma.load(dst, tensor_map, (row, col), bars, i)      # the bulk tensor copy engine
//   cuda.tma.store(tensor_map, (row, col), src); cuda.tma.commit_group(); cuda.tma.wait_group(0)
//   cuda.fence_proxy_async()
//   acc = cuda.wgmma.zeros(n)                 # the 64 x n float32 accumulator, n/2 values a thread
//   p16 = cuda.wgmma.convert(acc, float16)     # its values as float16 (wgmma's a in registers)
//   cuda.wgmma.fence()
//   acc = cuda.wgmma.mma_async(acc, a, b, k)  # acc += a[:, 16k:16k+16] @ b[:, 16k:16k+16].T
//       a: a shared tile, or registers (a float32 accumulator tuple, 8 values per k);
//       b: a shared tile (n, 64), or transposed (n/64, kt, 64): acc += a[:, 16k:] @ B[16k:, :]
//   cuda.wgmma.commit_group(); acc = cuda.wgmma.wait_group(0, acc)
//   cuda.wgmma.store(out, (row, col), acc)
//   cuda.setmaxnreg_inc(232); cuda.setmaxnreg_dec(40)
//   cuda.named_barrier_sync(id, count); cuda.named_barrier_arrive(id, count)
//
// mbarriers are the 8-byte words of a shared uint64 array. Tensor maps are
// made on the host (cuda.make_tensor_map) and arrive as 1-d uint64 arrays.
// wgmma's operands are shared tiles in the layout TMA writes with a 128-byte
// swizzle: rows of 64 16-bit values. wgmma and setmaxnreg exist on sm_90
// (9.0) only, as sm_90a's architecture-specific instructions: typing one
// marks the kernel (Context::archSpecific), and the PTX then targets sm_90a.
#include <fmt/format.h>

#include "compiler/Context.h"
#include "compiler/builtins/BuiltinCall.h"

namespace kjit {

using namespace ir;

namespace {

class HopperTyper : public BuiltinCall {
 public:
  explicit HopperTyper(BuiltinCall &c) : BuiltinCall(c) {}

  Expr *type() {
    if (ts.context().amdgpu)
      return unsupported(
          fmt::format("cuda.{}() is an NVIDIA GPU's instruction; AMD GPUs are not supported", f));
    if (f == "mbarrier.init") return barrierOp(IntrinsicId::MbarrierInit, 3, "count");
    if (f == "mbarrier.arrive") return barrierOp(IntrinsicId::MbarrierArrive, 2, nullptr);
    if (f == "mbarrier.arrive_expect_tx")
      return barrierOp(IntrinsicId::MbarrierExpectTx, 3, "nbytes");
    if (f == "mbarrier.try_wait") return barrierOp(IntrinsicId::MbarrierTryWait, 3, "parity");
    if (f == "mbarrier.wait") return barrierOp(IntrinsicId::MbarrierWait, 3, "parity");
    if (f == "fence_mbarrier_init") return bare(IntrinsicId::FenceMbarrierInit, 90);
    if (f == "fence_proxy_async") return bare(IntrinsicId::FenceProxyAsync, 90);
    if (f == "tma.load") return tmaLoad();
    if (f == "tma.store") return tmaStore();
    if (f == "tma.commit_group") return bare(IntrinsicId::TmaCommit, 90);
    if (f == "tma.wait_group") return waitGroup(IntrinsicId::TmaWait, false);
    if (f == "wgmma.fence") return bare(IntrinsicId::WgmmaFence, 90, true);
    if (f == "wgmma.commit_group") return bare(IntrinsicId::WgmmaCommit, 90, true);
    if (f == "wgmma.wait_group") return waitGroup(IntrinsicId::WgmmaWait, true);
    if (f == "wgmma.zeros") return zeros();
    if (f == "wgmma.convert") return convert();
    if (f == "wgmma.mma_async") return mmaAsync();
    if (f == "wgmma.store") return store();
    if (f == "setmaxnreg_inc" || f == "setmaxnreg_dec") return setmaxnreg(f == "setmaxnreg_inc");
    if (f == "named_barrier_sync" || f == "named_barrier_arrive")
      return namedBarrier(f == "named_barrier_sync");
    return unsupported(fmt::format("cuda.{}() is not supported in kernels yet", f));
  }

 private:
  // sm_`need` or newer; `exact`: sm_90a's instructions, which no other GPU
  // runs (not forward compatible). The CPU device (targetCc 0) runs all.
  bool available(int need, bool exact = false) {
    int cc = ts.context().targetCc;
    if (cc == 0 || (exact ? cc == need : cc >= need)) {
      if (exact && cc != 0) ts.context().archSpecific = true;
      return true;
    }
    ts.error(DiagCategory::Typing, loc,
             exact
                 ? fmt::format("cuda.{}() needs an sm_{} GPU (its sm_{}a instructions run on no "
                               "other); this kernel is compiled for sm_{}",
                               f, need, need, cc)
                 : fmt::format("cuda.{}() needs sm_{} or newer; this kernel is compiled for sm_{}",
                               f, need, cc));
    return false;
  }
  Expr *arg(size_t k, const char *kw) {
    if (k < site.args.size()) return site.args[k];
    return kw ? keyword(kw) : nullptr;
  }
  Expr *located(Expr *at, std::string msg) {
    return ts.error(DiagCategory::Typing, at ? at->loc : loc, fmt::format("cuda.{}(): {}", f, msg));
  }
  std::string typeText(Expr *e) { return e && e->type ? e->type->str() : "nothing"; }

  // bars: a 1-d uint64 array (the mbarrier words); i: an integer.
  bool barrier(Expr *bars, Expr *i, std::vector<Expr *> &out) {
    const Type *t = bars ? bars->type : nullptr;
    if (!t || !t->isArray() || t->ndim() != 1 || !t->dtype()->isInt() || t->dtype()->bits() != 64) {
      located(bars,
              fmt::format("the mbarriers are a 1-d shared uint64 array, not {}", typeText(bars)));
      return false;
    }
    if (!i || !i->type || !i->type->isInt()) {
      located(i, fmt::format("the mbarrier's index is an integer, not {}", typeText(i)));
      return false;
    }
    out.push_back(bars);
    out.push_back(ts.convert(i, tc.int64()));
    return true;
  }

  Expr *barrierOp(IntrinsicId id, size_t n, const char *third) {
    if (!arity("cuda." + f, n, n)) return none();
    std::vector<Expr *> args;
    if (!barrier(site.args[0], site.args[1], args)) return none();
    if (third) {
      Expr *x = site.args[2];
      if (!x->type || !(x->type->isInt() || x->type->isBool()))
        return located(x, fmt::format("{} is an integer, not {}", third, typeText(x)));
      if (std::optional<int64_t> v = constInt(x)) {
        bool parity = id == IntrinsicId::MbarrierWait || id == IntrinsicId::MbarrierTryWait;
        int64_t hi = parity ? 1 : (1 << 20) - 1;
        if (*v < (parity || id == IntrinsicId::MbarrierExpectTx ? 0 : 1) || *v > hi)
          return located(x, fmt::format("{} is {}; it must be {}", third, *v,
                                        parity ? "0 or 1"
                                        : id == IntrinsicId::MbarrierInit
                                            ? "from 1 to 2**20 - 1 (the arrivals of a phase)"
                                            : "from 0 to 2**20 - 1 (bytes)"));
      }
      args.push_back(ts.convert(x, tc.int64()));
    }
    bool sm90 = id == IntrinsicId::MbarrierExpectTx || id == IntrinsicId::MbarrierTryWait ||
                id == IntrinsicId::MbarrierWait;
    if (!available(sm90 ? 90 : 80)) return none();
    const Type *rt = id == IntrinsicId::MbarrierTryWait ? tc.boolean() : tc.none();
    return ts.intrinsic(id, std::move(args), rt, loc);
  }

  Expr *bare(IntrinsicId id, int sm, bool exact = false) {
    if (!arity("cuda." + f, 0, 0) || !available(sm, exact)) return none();
    return ts.intrinsic(id, {}, tc.none(), loc);
  }

  // tma.wait_group(n) and wgmma.wait_group(n[, acc]): n from 0 to 7.
  Expr *waitGroup(IntrinsicId id, bool wgmma) {
    if (!arity("cuda." + f, 1, wgmma ? 2 : 1)) return none();
    std::optional<int64_t> n = constInt(site.args[0]);
    if (!n || *n < 0 || *n > 7)
      return located(site.args[0],
                     "n is a constant from 0 to 7 (the groups that may still be in flight)");
    if (!available(90, wgmma)) return none();
    std::vector<Expr *> args = {ts.constInt(*n, loc)};
    const Type *rt = tc.none();
    if (site.args.size() == 2) {
      Expr *acc = accumulator(site.args[1]);
      if (!acc) return none();
      args.push_back(acc);
      rt = acc->type;
    }
    return ts.intrinsic(id, std::move(args), rt, loc);
  }

  // A tuple of n/2 float32 values, n a multiple of 8 from 8 to 256.
  Expr *accumulator(Expr *e) {
    const Type *t = e ? e->type : nullptr;
    bool ok = t && t->isTuple() && !t->elements().empty() && t->elements().size() % 4 == 0 &&
              t->elements().size() <= 128;
    for (size_t k = 0; ok && k < t->elements().size(); ++k) ok = t->elements()[k] == tc.floatTy(32);
    if (!ok) {
      located(e, fmt::format("the accumulator is a tuple of n/2 float32 values (n a multiple of 8 "
                             "up to 256, as cuda.wgmma.zeros(n) makes), not {}",
                             typeText(e)));
      return nullptr;
    }
    return e;
  }

  Expr *zeros() {
    if (!arity("cuda.wgmma.zeros", 1, 1)) return none();
    std::optional<int64_t> n = constInt(site.args[0]);
    if (!n || *n < 8 || *n > 256 || *n % 8 != 0)
      return located(site.args[0],
                     "n (the accumulator's columns) is a constant multiple of 8 from 8 to 256");
    return ts.intrinsic(IntrinsicId::WgmmaZeros, {},
                        tc.tuple(std::vector<const Type *>(size_t(*n / 2), tc.floatTy(32))), loc);
  }

  // cuda.wgmma.convert(acc, dtype): the accumulator's values as float16 or
  // bfloat16 (round to nearest even): wgmma's a in registers, converted
  // before the wgmma.fence that precedes the products that read it.
  Expr *convert() {
    if (!arity("cuda.wgmma.convert", 2, 2)) return none();
    Expr *acc = accumulator(site.args[0]);
    if (!acc) return none();
    Expr *d = site.args[1];
    const Type *dt = d->type && d->type->kind() == TypeKind::Dtype ? d->type->dtype() : nullptr;
    if (!dt || !(dt->isHalf() || dt->isBFloat16()))
      return located(d, fmt::format("the type is float16 or bfloat16, not {}", typeText(d)));
    std::vector<Expr *> elems;
    for (size_t k = 0; k < acc->type->elements().size(); ++k)
      elems.push_back(ts.convert(ir.tupleGet(acc, unsigned(k), loc), dt));
    Expr *converted = ir.tupleMake(std::move(elems), loc);
    // (The GPU converts pairs into the packed registers wgmma reads; other
    // devices use the element-by-element conversion.)
    return ts.intrinsic(IntrinsicId::WgmmaConvert, {acc, converted}, converted->type, loc);
  }

  // a 2-d C-contiguous array of float16 or bfloat16 values (a shared tile).
  bool tile(Expr *e, const char *what, const Type *&elem) {
    const Type *t = e ? e->type : nullptr;
    if (!t || !t->isArray() || t->ndim() != 2 || t->layout() != Layout::C ||
        !(t->dtype()->isHalf() || t->dtype()->isBFloat16() || t->dtype()->isFloat8())) {
      located(e, fmt::format("{} is a 2-d C-contiguous shared array of float16 or bfloat16 (rows "
                             "of 64 values, as a TMA load with a 128-byte swizzle writes them) "
                             "or of float8_e4m3fn/float8_e5m2 (rows of 128), not {}",
                             what, typeText(e)));
      return false;
    }
    return sameType(e, elem);
  }

  // e's element type, recorded in elem, is a's (8-bit a and b may differ:
  // e4m3 times e5m2).
  bool sameType(Expr *e, const Type *&elem) {
    const Type *dt = e->type->dtype();
    if (elem && elem != dt && !(elem->isFloat8() && dt->isFloat8())) {
      located(e, fmt::format("a and b hold one type; a holds {}, b {}", elem->str(), dt->str()));
      return false;
    }
    elem = dt;
    return true;
  }

  // b N-major: a 3-d C-contiguous array (n/64, kt, 64) of float16 or
  // bfloat16, B[r, 64j + c] = b[j, r, c]: tiles TMA writes from an array
  // whose rows are the k index (attention's V).
  bool nMajorTile(Expr *e, const Type *&elem) {
    const Type *t = e->type;
    if (!t->isArray() || t->ndim() != 3 || t->layout() != Layout::C ||
        !(t->dtype()->isHalf() || t->dtype()->isBFloat16())) {
      located(e, fmt::format("b is a 2-d shared tile (n rows of 64 k values) or a 3-d one (n/64 "
                             "blocks of kt rows of 64 n values: b transposed) of float16 or "
                             "bfloat16, not {}",
                             typeText(e)));
      return false;
    }
    return sameType(e, elem);
  }

  // a in registers: a tuple of float32 values in the accumulator's layout
  // (the 64 x m product of an earlier wgmma, attention's P), 8 a thread for
  // each 16 columns, or those values as b's type (cuda.wgmma.convert).
  bool registerA(Expr *e, const Type *&elem) {
    const Type *t = e->type;
    const Type *et = t->elements().empty() ? nullptr : t->elements()[0];
    bool ok = et && t->elements().size() % 8 == 0 && t->elements().size() <= 128 &&
              (et == tc.floatTy(32) || et->isHalf() || et->isBFloat16());
    for (size_t k = 0; ok && k < t->elements().size(); ++k) ok = t->elements()[k] == et;
    if (!ok) {
      located(e, fmt::format("a in registers is an accumulator: a tuple of m/2 float32 values (m a "
                             "multiple of 16 up to 256), or of float16 or bfloat16 values "
                             "(cuda.wgmma.convert), not {}",
                             typeText(e)));
      return false;
    }
    if (et != tc.floatTy(32)) elem = et;
    return true;
  }

  Expr *mmaAsync() {
    if (!arity("cuda.wgmma.mma_async", 4, 4)) return none();
    Expr *acc = accumulator(site.args[0]);
    if (!acc) return none();
    Expr *a = site.args[1], *b = site.args[2];
    const Type *elem = nullptr;
    bool regA = a->type && a->type->isTuple();
    if (regA ? !registerA(a, elem) : !tile(a, "a", elem)) return none();
    bool nMajor = b->type && b->type->isArray() && b->type->ndim() == 3;
    if (nMajor ? !nMajorTile(b, elem) : !tile(b, "b", elem)) return none();
    if (elem && elem->isFloat8() && (regA || nMajor))
      return located(regA ? a : b,
                     "8-bit products read a and b from K-major shared tiles (the "
                     "hardware transposes and takes registers for 16-bit types only)");
    if (nMajor && acc->type->elements().size() % 32 != 0)
      return located(b, fmt::format("a transposed b (3-d) takes n a multiple of 64; the "
                                    "accumulator has n = {}",
                                    2 * acc->type->elements().size()));
    Expr *k = site.args[3];
    if (!k->type || !k->type->isInt())
      return located(
          k, fmt::format("k (which 16 columns of the 64) is an integer, not {}", typeText(k)));
    if (std::optional<int64_t> v = constInt(k)) {
      // 16-column slices: m/16 in registers, 4 in a 64-wide tile (a, or a
      // K-major b; an N-major b's rows are checked when it runs).
      int64_t regs = regA ? int64_t(a->type->elements().size() / 8) : 0;
      if (regA && (*v < 0 || *v >= regs))
        return located(k,
                       fmt::format("k is {}; the registers of a hold k = 0 to {}", *v, regs - 1));
      if (*v < 0 || ((!regA || !nMajor) && *v > 3))
        return located(k, fmt::format("k is {}; the 64 columns of a tile hold k = 0 to 3", *v));
    }
    if (!available(90, true)) return none();
    return ts.intrinsic(IntrinsicId::WgmmaMma, {acc, a, b, ts.convert(k, tc.int64())}, acc->type,
                        loc);
  }

  // (row, col): two integers.
  bool place(Expr *e, std::vector<Expr *> &out, size_t lo, size_t hi) {
    const Type *t = e ? e->type : nullptr;
    bool ok = t && t->isTuple() && t->elements().size() >= lo && t->elements().size() <= hi;
    for (size_t k = 0; ok && k < t->elements().size(); ++k) ok = t->elements()[k]->isInt();
    if (!ok) {
      located(e, fmt::format("the place is a tuple of {} integers, not {}",
                             lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi),
                             typeText(e)));
      return false;
    }
    for (size_t k = 0; k < t->elements().size(); ++k)
      out.push_back(ts.convert(ir.tupleGet(e, unsigned(k), e->loc), tc.int64()));
    return true;
  }

  Expr *store() {
    if (!arity("cuda.wgmma.store", 3, 3)) return none();
    Expr *out = site.args[0];
    const Type *t = out->type;
    if (!t || !t->isArray() || t->ndim() != 2 || !t->dtype()->isNumber() || t->dtype()->isComplex())
      return located(out, fmt::format("the destination is a 2-d array of real numbers, not {}",
                                      typeText(out)));
    if (t->readonly()) return located(out, "the destination is read-only");
    std::vector<Expr *> args = {out};
    if (!place(site.args[1], args, 2, 2)) return none();
    Expr *acc = accumulator(site.args[2]);
    if (!acc) return none();
    args.push_back(acc);
    return ts.intrinsic(IntrinsicId::WgmmaStore, std::move(args), tc.none(), loc);
  }

  // A tensor map: the 1-d uint64 array cuda.make_tensor_map gives.
  bool tensorMap(Expr *e) {
    const Type *t = e ? e->type : nullptr;
    if (!t || !t->isArray() || t->ndim() != 1 || !t->dtype()->isInt() || t->dtype()->bits() != 64) {
      located(e, fmt::format("the tensor map is what cuda.make_tensor_map() makes on the host, "
                             "not {}",
                             typeText(e)));
      return false;
    }
    return true;
  }

  bool sharedTile(Expr *e, const char *what) {
    const Type *t = e ? e->type : nullptr;
    if (!t || !t->isArray() || t->layout() != Layout::C || t->dtype()->isRecord()) {
      located(e, fmt::format("{} is a C-contiguous shared array, not {}", what, typeText(e)));
      return false;
    }
    return true;
  }

  Expr *tmaLoad() {
    if (!arity("cuda.tma.load", 5, 5)) return none();
    Expr *dst = site.args[0];
    if (!sharedTile(dst, "the destination") || !tensorMap(site.args[1])) return none();
    if (dst->type->readonly()) return located(dst, "the destination is read-only");
    std::vector<Expr *> args = {dst, site.args[1]};
    if (!barrier(site.args[3], site.args[4], args)) return none();
    if (!place(site.args[2], args, 1, 5)) return none();
    if (!available(90)) return none();
    return ts.intrinsic(IntrinsicId::TmaLoad, std::move(args), tc.none(), loc);
  }

  Expr *tmaStore() {
    if (!arity("cuda.tma.store", 3, 3)) return none();
    if (!tensorMap(site.args[0]) || !sharedTile(site.args[2], "the source")) return none();
    std::vector<Expr *> args = {site.args[0], site.args[2]};
    if (!place(site.args[1], args, 1, 5)) return none();
    if (!available(90)) return none();
    return ts.intrinsic(IntrinsicId::TmaStore, std::move(args), tc.none(), loc);
  }

  // cuda.named_barrier_sync(id, count) / named_barrier_arrive(id, count):
  // hardware barrier id (0-15; syncthreads uses 0) for count threads (a
  // multiple of 32): sync waits until count threads have arrived, arrive
  // does not wait. Producer/consumer hand-offs between warpgroups.
  Expr *namedBarrier(bool sync) {
    if (!arity("cuda." + f, 2, 2)) return none();
    Expr *id = site.args[0], *count = site.args[1];
    for (Expr *e : {id, count})
      if (!e->type || !e->type->isInt())
        return located(
            e, fmt::format("the barrier and the thread count are integers, not {}", typeText(e)));
    if (std::optional<int64_t> v = constInt(id); v && (*v < 0 || *v > 15))
      return located(id, fmt::format("the barrier is {}; a block has barriers 0 to 15", *v));
    if (std::optional<int64_t> v = constInt(count); v && (*v <= 0 || *v % 32 || *v > 1024))
      return located(count, fmt::format("the thread count is {}; it is a multiple of 32 (whole "
                                        "warps) up to 1024",
                                        *v));
    Intrinsic *in = ts.intrinsic(
        IntrinsicId::NamedBarrier,
        {ts.convert(id, tc.int64()), ts.convert(count, tc.int64()), ts.constInt(sync ? 1 : 0, loc)},
        tc.none(), loc);
    in->subOp = subOpNamed(IntrinsicId::NamedBarrier, sync ? "sync" : "arrive");
    return in;
  }

  Expr *setmaxnreg(bool inc) {
    if (!arity("cuda." + f, 1, 1)) return none();
    std::optional<int64_t> n = constInt(site.args[0]);
    if (!n || *n < 24 || *n > 256 || *n % 8 != 0)
      return located(site.args[0], "the register count is a constant multiple of 8 from 24 to 256");
    if (!available(90, true)) return none();
    Intrinsic *in = ts.intrinsic(IntrinsicId::Setmaxnreg,
                                 {ts.constInt(*n, loc), ts.constInt(inc, loc)}, tc.none(), loc);
    in->subOp = subOpNamed(IntrinsicId::Setmaxnreg, inc ? "inc" : "dec");
    return in;
  }
};

}  // namespace

bool isHopperName(const std::string &f) {
  for (const char *p : {"mbarrier.", "tma.", "wgmma."})
    if (f.rfind(p, 0) == 0) return true;
  return f == "fence_mbarrier_init" || f == "fence_proxy_async" || f == "setmaxnreg_inc" ||
         f == "setmaxnreg_dec" || f == "named_barrier_sync" || f == "named_barrier_arrive";
}

Expr *typeHopper(BuiltinCall &call) { return HopperTyper(call).type(); }

}  // namespace kjit
