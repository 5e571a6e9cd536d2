// MmaSync.cpp - the typing of the register-level tensor-core operations of
// sm_80 (Ampere) and newer:
//
//   d = cuda.mma_sync("m16n8k16", a, b, c)   # PTX mma.sync.aligned.m16n8k16.row.col
//   r = cuda.ldmatrix(smem, (row, col), 4, trans=False)
//   cuda.cp_async(dst, (i, j), src, (k, l), 16); cuda.cp_async_commit(); cuda.cp_async_wait(0)
//
// mma_sync's fragments are tuples in PTX's layouts (docs/cuda.md): a 8 and b
// 4 float16 or bfloat16 values, c and d 4 float32; ldmatrix gives 2 * num
// 16-bit values a lane. cp_async copies 4, 8 or 16 bytes from global to
// shared memory without the registers, completed by cp_async_wait.
#include <fmt/format.h>

#include "compiler/builtins/BuiltinCall.h"

namespace kjit {

using namespace ir;

namespace {

class MmaTyper : public BuiltinCall {
 public:
  explicit MmaTyper(BuiltinCall &c) : BuiltinCall(c) {}

  Expr *type() {
    if (f == "mfma") return mfma();
    if (ts.context().amdgpu)
      return unsupported(
          fmt::format("cuda.{}() is an NVIDIA GPU's instruction; AMD GPUs are not supported", f));
    if (f == "mma_sync") return mma();
    if (f == "ldmatrix") return ldmatrix();
    if (f == "cp_async") return cpAsync();
    if (f == "cp_async_commit") {
      if (!arity("cuda.cp_async_commit", 0, 0) || !available(80, loc)) return none();
      return ts.intrinsic(IntrinsicId::CpAsyncCommit, {}, tc.none(), loc);
    }
    if (f == "cp_async_wait") {
      if (!arity("cuda.cp_async_wait", 1, 1) || !available(80, loc)) return none();
      std::optional<int64_t> n = constInt(site.args[0]);
      if (!n || *n < 0 || *n > 7)
        return ts.error(DiagCategory::Typing, site.args[0]->loc,
                        "cuda.cp_async_wait(n): n is a constant from 0 to 7 (the copy groups "
                        "that may still be in flight)");
      return ts.intrinsic(IntrinsicId::CpAsyncWait, {ts.constInt(*n, loc)}, tc.none(), loc);
    }
    return unsupported(fmt::format("cuda.{}() is not supported in kernels yet", f));
  }

 private:
  // The CPU device (targetCc 0) runs everything.
  bool available(int need, SourceLoc at) {
    int cc = ts.context().targetCc;
    if (cc == 0 || cc >= need) return true;
    ts.error(DiagCategory::Typing, at,
             fmt::format("cuda.{}() needs sm_{} or newer; this kernel is compiled for sm_{}", f,
                         need, cc));
    return false;
  }
  bool is16BitFloat(const Type *t) { return t && (t->isHalf() || t->isBFloat16()); }

  // A tuple of n elements of one of `ok`'s types, or a located error.
  Expr *fragment(Expr *e, unsigned n, const char *what, const Type *elem) {
    const Type *t = e->type;
    bool ok = t && t->isTuple() && t->elements().size() == n;
    for (unsigned k = 0; ok && k < n; ++k) ok = t->elements()[k]->isNumber();
    if (!ok)
      return ts.error(DiagCategory::Typing, e->loc,
                      fmt::format("cuda.{}(): {} is a tuple of {} values, not {}", f, what, n,
                                  t ? t->str() : "nothing"));
    std::vector<Expr *> elems;
    for (unsigned k = 0; k < n; ++k) {
      Expr *x = ir.tupleGet(e, k, e->loc);
      if (elem->bits() == 16 && x->type != elem)
        return ts.error(DiagCategory::Typing, e->loc,
                        fmt::format("cuda.{}(): {} holds {} values, not {} (element {})", f, what,
                                    elem->str(), x->type->str(), k));
      elems.push_back(ts.convert(x, elem));
    }
    TupleMake *tm = ir.tupleMake(std::move(elems), e->loc);
    return tm;
  }

  Expr *mma() {
    if (!arity("cuda.mma_sync", 4, 4)) return none();
    Expr *shape = site.args[0];
    if (!shape->type || shape->type->kind() != TypeKind::StringLit ||
        shape->type->symbol() != "m16n8k16")
      return ts.error(DiagCategory::Typing, shape->loc,
                      "cuda.mma_sync(): the shape is the constant \"m16n8k16\" (kjit's mma_sync "
                      "has that shape only)");
    const Type *at = site.args[1]->type;
    const Type *elem = at && at->isTuple() && !at->elements().empty() ? at->elements()[0] : nullptr;
    if (!is16BitFloat(elem))
      return ts.error(DiagCategory::Typing, site.args[1]->loc,
                      fmt::format("cuda.mma_sync(): a is a tuple of 8 float16 or bfloat16 "
                                  "values, not {}",
                                  at ? at->str() : "nothing"));
    if (!available(80, loc)) return none();
    Expr *a = fragment(site.args[1], 8, "a", elem);
    if (!a->type) return a;
    Expr *b = fragment(site.args[2], 4, "b", elem);
    if (!b->type) return b;
    Expr *c = fragment(site.args[3], 4, "c", tc.floatTy(32));
    if (!c->type) return c;
    return ts.intrinsic(IntrinsicId::MmaSync, {a, b, c},
                        tc.tuple(std::vector<const Type *>(4, tc.floatTy(32))), loc);
  }

  // d = cuda.mfma("16x16x16", a, b, c): AMD CDNA's v_mfma_f32_16x16x16
  // (f16; bf16_1k from gfx90a), the wavefront's 64 lanes together. Lane l
  // holds A[l % 16][4 (l / 16) + j], B[4 (l / 16) + j][l % 16] and
  // C[4 (l / 16) + j][l % 16], j = 0..3 (docs/amdgpu.md).
  Expr *mfma() {
    if (!arity("cuda.mfma", 4, 4)) return none();
    const Context &cx = ts.context();
    auto refuse = [&](const std::string &where) {
      return unsupported(
          fmt::format("cuda.mfma() is AMD CDNA's matrix instruction (gfx908, "
                      "gfx90a, gfx940-942); {}",
                      where));
    };
    if (!cx.amdgpu) return refuse("this kernel is compiled for an NVIDIA GPU or the CPU device");
    const std::string &arch = cx.amdgpuArch;
    bool cdna = arch == "gfx908" || arch == "gfx90a" || arch.rfind("gfx94", 0) == 0;
    if (!arch.empty() && !cdna) return refuse(fmt::format("{} has none", arch));
    Expr *shape = site.args[0];
    if (!shape->type || shape->type->kind() != TypeKind::StringLit ||
        shape->type->symbol() != "16x16x16")
      return ts.error(DiagCategory::Typing, shape->loc,
                      "cuda.mfma(): the shape is the constant \"16x16x16\" (kjit's mfma has that "
                      "shape only)");
    const Type *at = site.args[1]->type;
    const Type *elem = at && at->isTuple() && !at->elements().empty() ? at->elements()[0] : nullptr;
    if (!is16BitFloat(elem))
      return ts.error(
          DiagCategory::Typing, site.args[1]->loc,
          fmt::format("cuda.mfma(): a is a tuple of 4 float16 or bfloat16 values, not {}",
                      at ? at->str() : "nothing"));
    if (elem->isBFloat16() && arch == "gfx908")
      return refuse("gfx908 has it for float16 only (bfloat16 from gfx90a)");
    Expr *a = fragment(site.args[1], 4, "a", elem);
    if (!a->type) return a;
    Expr *b = fragment(site.args[2], 4, "b", elem);
    if (!b->type) return b;
    Expr *c = fragment(site.args[3], 4, "c", tc.floatTy(32));
    if (!c->type) return c;
    return ts.intrinsic(IntrinsicId::Mfma, {a, b, c},
                        tc.tuple(std::vector<const Type *>(4, tc.floatTy(32))), loc);
  }

  // (i, j ...): one integer per dimension of `ary` (an int for a 1-d array).
  bool indices(Expr *ary, Expr *idx, std::vector<Expr *> &out) {
    unsigned nd = ary->type->ndim();
    const Type *t = idx ? idx->type : nullptr;
    if (t && t->isInt() && nd == 1) {
      out.push_back(ts.convert(idx, tc.int64()));
      return true;
    }
    bool ok = t && t->isTuple() && t->elements().size() == nd;
    for (unsigned k = 0; ok && k < nd; ++k) ok = t->elements()[k]->isInt();
    if (!ok) {
      ts.error(DiagCategory::Typing, idx ? idx->loc : loc,
               fmt::format("cuda.{}(): the place in a {}-d array is a tuple of {} integers, not {}",
                           f, nd, nd, t ? t->str() : "nothing"));
      return false;
    }
    for (unsigned k = 0; k < nd; ++k)
      out.push_back(ts.convert(ir.tupleGet(idx, k, idx->loc), tc.int64()));
    return true;
  }

  Expr *ldmatrix() {
    Expr *ary = site.args.size() > 0 ? site.args[0] : keyword("array");
    Expr *off = site.args.size() > 1 ? site.args[1] : keyword("offset");
    Expr *num = site.args.size() > 2 ? site.args[2] : keyword("num");
    Expr *trans = site.args.size() > 3 ? site.args[3] : keyword("trans");
    const Type *t = ary ? ary->type : nullptr;
    if (!t || !t->isArray() || t->ndim() != 2 || t->layout() != Layout::C ||
        t->dtype()->bits() != 16 || !(t->dtype()->isFloat() || t->dtype()->isInt()))
      return ts.error(DiagCategory::Typing, ary ? ary->loc : loc,
                      fmt::format("cuda.ldmatrix(): the matrix is a 2-d C-contiguous shared array "
                                  "of a 16-bit type (float16, bfloat16, int16, uint16), not {}",
                                  t ? t->str() : "nothing"));
    std::vector<Expr *> idx;
    if (!indices(ary, off, idx)) return none();
    std::optional<int64_t> n = num ? constInt(num) : std::nullopt;
    if (!n || (*n != 1 && *n != 2 && *n != 4))
      return ts.error(DiagCategory::Typing, num ? num->loc : loc,
                      "cuda.ldmatrix(): the number of 8x8 matrices is the constant 1, 2 or 4");
    std::optional<int64_t> tr = trans ? constInt(trans) : std::optional<int64_t>(0);
    if (!tr)
      return ts.error(DiagCategory::Typing, trans->loc,
                      "cuda.ldmatrix(): trans is the constant True or False");
    if (!available(75, loc)) return none();
    return ts.intrinsic(IntrinsicId::Ldmatrix,
                        {ary, idx[0], idx[1], ts.constInt(*n, loc), ts.constInt(*tr ? 1 : 0, loc)},
                        tc.tuple(std::vector<const Type *>(size_t(2 * *n), t->dtype())), loc);
  }

  Expr *cpAsync() {
    if (!arity("cuda.cp_async", 5, 5)) return none();
    Expr *dst = site.args[0], *src = site.args[2], *nb = site.args[4];
    for (Expr *a : {dst, src})
      if (!a->type || !a->type->isArray() || a->type->ndim() == 0)
        return ts.error(DiagCategory::Typing, a->loc,
                        fmt::format("cuda.cp_async(): copies between arrays, not {}",
                                    a->type ? a->type->str() : "nothing"));
    if (dst->type->readonly())
      return ts.error(DiagCategory::Typing, dst->loc,
                      "cuda.cp_async(): the destination is read-only");
    std::optional<int64_t> n = constInt(nb);
    if (!n || (*n != 4 && *n != 8 && *n != 16))
      return ts.error(DiagCategory::Typing, nb->loc,
                      "cuda.cp_async(): the size is the constant 4, 8 or 16 (bytes)");
    for (Expr *a : {dst, src})
      if (*n % itemSize(a->type->dtype()) != 0 ||
          (a->type->layout() != Layout::C && *n != itemSize(a->type->dtype())))
        return ts.error(DiagCategory::Typing, a->loc,
                        fmt::format("cuda.cp_async(): {} bytes are not whole elements of a "
                                    "C-contiguous {}",
                                    *n, a->type->str()));
    std::vector<Expr *> di, si;
    if (!indices(dst, site.args[1], di) || !indices(src, site.args[3], si)) return none();
    if (!available(80, loc)) return none();
    std::vector<Expr *> args = {dst, src, ts.constInt(*n, loc),
                                ts.constInt(int64_t(di.size()), loc)};
    args.insert(args.end(), di.begin(), di.end());
    args.insert(args.end(), si.begin(), si.end());
    return ts.intrinsic(IntrinsicId::CpAsync, std::move(args), tc.none(), loc);
  }
};

}  // namespace

bool isMmaSyncName(const std::string &f) {
  return f == "mma_sync" || f == "mfma" || f == "ldmatrix" || f == "cp_async" ||
         f == "cp_async_commit" || f == "cp_async_wait";
}

Expr *typeMmaSync(BuiltinCall &call) { return MmaTyper(call).type(); }

}  // namespace kjit
