// Cuda.cpp - typing of the CUDA kernel language (numba.cuda's API):
// thread indexing, grid(), barriers and fences, shared/local/const arrays,
// atomics, warp operations and bit operations. The result types are
// Numba's (numba/cuda/cudadecl.py): indices and grid() are int32, votes
// bool, ballot int32, activemask uint32, atomics return the old value.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "compiler/Signature.h"
#include "compiler/builtins/BuiltinCall.h"

namespace kjit {

using namespace ir;

namespace {

class CudaTyper : public BuiltinCall {
 public:
  explicit CudaTyper(BuiltinCall &c) : BuiltinCall(c) {}
  const Type *i32() { return tc.intTy(32, true); }
  const Type *u32() { return tc.intTy(32, false); }
  unsigned warpSize() { return ts.context().warpSize; }
  // A lane mask: one bit a lane (int32 as Numba's on 32 lanes, uint64 on a
  // 64-lane wavefront), and what a mask argument becomes.
  const Type *maskTy(bool isSigned = true) {
    return warpSize() == 64 ? tc.intTy(64, false) : isSigned ? i32() : u32();
  }
  // On 64 lanes the all-lanes mask of 32-lane code (0xffffffff) names half
  // the wavefront: a located error rather than a wrong answer.
  Expr *maskArg(Expr *m, const std::string &f) {
    if (warpSize() == 64 && constInt(m) && uint64_t(*constInt(m)) == 0xffffffffu) {
      ts.error(DiagCategory::Typing, m->loc,
               fmt::format("cuda.{}(): the mask 0xffffffff names 32 lanes, but this GPU's "
                           "wavefront has 64; use cuda.activemask(), or 0xffffffffffffffff "
                           "for all 64 lanes",
                           f));
      return nullptr;
    }
    return ts.convert(m, maskTy());
  }

  bool arity(const std::string &f, size_t lo, size_t hi) {
    if (site.args.size() >= lo && site.args.size() <= hi) return true;
    fail(fmt::format("cuda.{}() takes {} argument{} ({} given)", f,
                     lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi),
                     hi == 1 ? "" : "s", site.args.size()));
    return false;
  }
  // Positional argument i, or the keyword `name`.
  Expr *arg(size_t i, const std::string &name) {
    if (i < site.args.size()) return site.args[i];
    return keyword(name);
  }

  Expr *axes(IntrinsicId id, const std::string &f) {
    if (!arity(f, 1, 1)) return none();
    std::optional<int64_t> n = constInt(site.args[0]);
    if (!n)  // Numba's words name its exception class
      return ts.error(DiagCategory::Typing, site.args[0]->loc,
                      fmt::format("cuda.{}() takes a constant 1, 2 or 3, not a value known only "
                                  "when the kernel runs (RequireLiteralValue)",
                                  f));
    if (*n < 1 || *n > 3)
      return ts.error(DiagCategory::Typing, site.args[0]->loc,
                      fmt::format("cuda.{}() takes a constant 1, 2 or 3", f));
    // int64, as numba-cuda types them: a grid may hold 2^31 threads or more.
    const Type *i64 = tc.int64();
    if (*n == 1) return ts.intrinsic(id, {ts.constInt(0, loc)}, i64, loc);
    std::vector<Expr *> elems;
    for (int64_t k = 0; k < *n; ++k)
      elems.push_back(ts.intrinsic(id, {ts.constInt(k, loc)}, i64, loc));
    return ir.tupleMake(std::move(elems), loc);
  }

  // An argument's type as Numba spells it in its "No implementation of
  // function" errors: constants as literals, dtypes as classes.
  static std::string numbaSpelling(const Expr *e) {
    if (auto *c = dyn_cast<Const>(e); c && c->type && c->type->isInt())
      return fmt::format("Literal[int]({})", c->i);
    if (auto *tm = dyn_cast<TupleMake>(e)) {
      std::vector<std::string> parts;
      for (const Expr *x : tm->elems) parts.push_back(numbaSpelling(x));
      bool uniform =
          std::all_of(parts.begin(), parts.end(), [&](auto &p) { return p == parts[0]; });
      if (uniform && !parts.empty())
        return fmt::format("UniTuple({} x {})", parts[0], parts.size());
      return fmt::format("Tuple({})", fmt::join(parts, ", "));
    }
    if (!e->type) return "?";
    if (e->type->kind() == TypeKind::Dtype)
      return fmt::format("class({})", e->type->dtype()->str());
    return e->type->str();
  }

  // The shape of shared.array/local.array: constant ints. The message has
  // Numba's words first ("No implementation of function ..."), then kjit's.
  bool constShape(Expr *shape, Expr *dtype, std::vector<Expr *> &dims, const std::string &f) {
    auto bad = [&]() {
      ts.error(
          DiagCategory::Typing, shape->loc,
          fmt::format("No implementation of function Function(<function {}>) found for "
                      "signature:\n \n >>> array(shape={}, dtype={})\n \nthe shape of "
                      "cuda.{}() must be a constant integer or a tuple of constant integers (a "
                      "literal, a global constant, or a variable assigned one once), not {}",
                      f, numbaSpelling(shape), dtype ? numbaSpelling(dtype) : "none", f,
                      shape->type ? shape->type->str() : "this expression"));
      return false;
    };
    if (auto v = constInt(shape)) {
      dims.push_back(ts.constInt(*v, shape->loc));
      return true;
    }
    auto *tm = dyn_cast<TupleMake>(ts.literalLocal(shape));
    if (!tm) return bad();
    for (Expr *e : tm->elems) {
      auto v = constInt(e);
      if (!v) return bad();
      dims.push_back(ts.constInt(*v, e->loc));
    }
    return true;
  }

  const Type *dtypeOf(Expr *d, const std::string &f) {
    if (d && d->type && d->type->kind() == TypeKind::Dtype) return d->type->dtype();
    // A dtype by name, as NumPy takes it: dtype="float32".
    if (d && d->type && d->type->kind() == TypeKind::StringLit) {
      const std::string &n = d->type->symbol();
      if (const Type *t = tc.scalarByName(n)) return t;
      ts.error(DiagCategory::Typing, d->loc,
               fmt::format("Invalid NumPy dtype specified: '{}'; cuda.{}() takes the name of a "
                           "scalar dtype such as \"float32\"",
                           n, f));
      return nullptr;
    }
    ts.error(DiagCategory::Typing, d ? d->loc : loc,
             fmt::format("cuda.{}() needs dtype= a NumPy or kjit scalar type such as float32", f));
    return nullptr;
  }

  Expr *memoryArray(IntrinsicId id, const std::string &f) {
    Expr *shape = arg(0, "shape"), *dtype = arg(1, "dtype");
    if (!shape || !dtype) return fail(fmt::format("cuda.{}() takes shape and dtype", f));
    std::vector<Expr *> dims;
    if (!constShape(shape, dtype, dims, f)) return none();
    const Type *dt = dtypeOf(dtype, f);
    if (!dt) return none();
    for (Expr *d : dims) {
      int64_t v = cast<Const>(d)->i;
      if (v < 0 || (v == 0 && (id == IntrinsicId::LocalArray || dims.size() > 1)))
        return ts.error(
            DiagCategory::Typing, shape->loc,
            id == IntrinsicId::LocalArray ? "the dimensions of cuda.local.array() must be positive"
            : v < 0 ? "the dimensions of cuda.shared.array() must be positive (a shape of "
                      "0 alone is dynamic shared memory, sized by the launch)"
                    : "the shape of a dynamic shared array is the single constant 0");
    }
    bool dynamic =
        id == IntrinsicId::SharedArray && dims.size() == 1 && cast<Const>(dims[0])->i == 0;
    if (dynamic) dims.clear();  // sized at launch
    return ts.intrinsic(id, dims, tc.array(dt, dynamic ? 1 : unsigned(dims.size()), Layout::C),
                        loc);
  }

  // `op` is the operation (and, or, ...); `name` what the user wrote (and_).
  Expr *atomic(const std::string &op, const std::string &name) {
    bool cas = op == "cas" || op == "compare_and_swap";
    size_t want = op == "cas" ? 4 : 3;
    if (!arity("atomic." + name, want, want)) return none();
    Expr *ary = site.args[0];
    if (!ary->type->isArray())
      return fail(fmt::format("cuda.atomic.{}() operates on an array element, not {}", name,
                              ary->type->str()));
    if (op == "compare_and_swap" && ary->type->ndim() != 1)
      return fail(
          fmt::format("cuda.atomic.compare_and_swap() works on element 0 of a 1-d array; this "
                      "array has {} dimensions (use cuda.atomic.cas with an index)",
                      ary->type->ndim()));
    const Type *dt = ary->type->dtype();
    if (ary->type->readonly()) return fail("cuda.atomic on a read-only array");
    bool is32or64 = (dt->isInt() || dt->isFloat()) && (dt->bits() == 32 || dt->bits() == 64);
    bool ok;
    if (op == "add" || op == "sub" || op == "max" || op == "min" || op == "nanmax" ||
        op == "nanmin")
      ok = is32or64;
    else if (op == "inc" || op == "dec")
      ok = dt->isInt() && !dt->isSigned() && is32or64;
    else
      ok = dt->isInt() && is32or64;  // and_, or_, xor, exch, cas
    if (!ok)
      return fail(fmt::format("cuda.atomic.{}() does not support {} arrays; it supports {}", name,
                              dt->str(),
                              op == "inc" || op == "dec" ? "uint32 and uint64"
                              : (op == "add" || op == "sub" || op == "max" || op == "min" ||
                                 op == "nanmax" || op == "nanmin")
                                  ? "int32, uint32, int64, uint64, float32 and float64"
                                  : "int32, uint32, int64 and uint64"));
    std::vector<Expr *> args = {ary};
    // The index: an integer, or a tuple of integers (one per dimension).
    // compare_and_swap works on element 0 of a 1-d array.
    if (op == "compare_and_swap") {
      args.push_back(ts.constInt(0, loc));
    } else {
      Expr *idx = site.args[1];
      std::vector<Expr *> idxs;
      if (idx->type->isTuple()) {
        for (size_t k = 0; k < idx->type->elements().size(); ++k)
          idxs.push_back(ir.tupleGet(idx, unsigned(k), idx->loc));
      } else {
        idxs.push_back(idx);
      }
      if (idxs.size() != ary->type->ndim())
        return ts.error(DiagCategory::Typing, idx->loc,
                        fmt::format("cuda.atomic.{}() on a {}-d array needs {} indices, not {}",
                                    name, ary->type->ndim(), ary->type->ndim(), idxs.size()));
      for (Expr *i : idxs) {
        if (!i->type->isInt())
          return ts.error(DiagCategory::Typing, i->loc, "atomic indices must be integers");
        args.push_back(ts.convert(i, tc.int64()));
      }
    }
    for (size_t k = cas ? (op == "cas" ? 2 : 1) : 2; k < site.args.size(); ++k)
      args.push_back(ts.convert(site.args[k], dt));
    // The intrinsic's name says cas; the others have a sub-operation.
    return ir.intrinsic(cas ? IntrinsicId::AtomicCas : IntrinsicId::Atomic, args, dt, loc,
                        cas ? SubOp::None : subOpNamed(IntrinsicId::Atomic, op));
  }

  // cuda.ldcs(a, i) and the other loads with a cache policy; cuda.stcs(a, i,
  // v) and the other stores. The index: an integer (1-d) or a tuple of
  // integers, one per dimension. Numba's checks and words.
  Expr *cacheHint(IntrinsicId id, const std::string &f) {
    bool store = id == IntrinsicId::CacheStore;
    if (!arity(f, store ? 3 : 2, store ? 3 : 2)) return none();
    Expr *ary = site.args[0], *idx = site.args[1];
    if (!ary->type->isArray())
      return fail(fmt::format("{} operates on an array element, not {}", f, ary->type->str()));
    const Type *dt = ary->type->dtype();
    if (!(dt->isInt() || dt->isFloat()) || dt->isBool())
      return fail(fmt::format("{} requires array of integer or float type, not {}", f, dt->str()));
    unsigned nd = ary->type->ndim();
    std::vector<Expr *> args = {ary};
    if (idx->type->isTuple()) {
      size_t n = idx->type->elements().size();
      if (n != nd)
        return ts.error(DiagCategory::Typing, idx->loc,
                        fmt::format("{}: Expected {} indices, got {}", f, nd, n));
      for (size_t k = 0; k < n; ++k) args.push_back(ir.tupleGet(idx, unsigned(k), idx->loc));
    } else {
      if (nd != 1)
        return ts.error(DiagCategory::Typing, idx->loc,
                        fmt::format("{}: Expected {} indices, got a scalar", f, nd));
      args.push_back(idx);
    }
    for (size_t k = 1; k < args.size(); ++k) {
      if (!args[k]->type->isInt() || args[k]->type->isBool())
        return ts.error(DiagCategory::Typing, args[k]->loc,
                        fmt::format("{}: {} is not a valid index", f, args[k]->type->str()));
      args[k] = ts.convert(args[k], tc.int64());
    }
    if (store) {
      if (ary->type->readonly()) return fail(fmt::format("{} stores into a read-only array", f));
      args.push_back(ts.convert(site.args[2], dt));
    }
    return ir.intrinsic(id, args, store ? tc.none() : dt, loc, subOpNamed(id, f.substr(2)));
  }

  Expr *shfl(SubOp mode, const std::string &f) {
    if (!arity(f, 3, 3)) return none();
    Expr *v = site.args[1];
    const Type *t = v->type;
    bool ok = (t->isInt() || t->isFloat()) && (t->bits() == 32 || t->bits() == 64);
    if (!ok)
      return fail(fmt::format("cuda.{}() shuffles int32, int64, float32 or float64 values, not {}",
                              f, t->str()));
    Expr *mask = maskArg(site.args[0], f);
    if (!mask) return none();
    return ir.intrinsic(IntrinsicId::ShflSync, {mask, v, ts.convert(site.args[2], i32())}, t, loc,
                        mode);
  }

  Expr *vote(SubOp mode, const std::string &f) {
    if (!arity(f, 2, 2)) return none();
    // Numba's checks and words: an integer mask, an integer or bool predicate.
    if (!site.args[0]->type->isInt() || site.args[0]->type->isBool())
      return ts.error(DiagCategory::Typing, site.args[0]->loc,
                      fmt::format("cuda.{}(): Mask type must be an integer, not {}", f,
                                  site.args[0]->type->str()));
    if (!site.args[1]->type->isInt() && !site.args[1]->type->isBool())
      return ts.error(DiagCategory::Typing, site.args[1]->loc,
                      fmt::format("cuda.{}(): Predicate must be an integer or boolean, not {}", f,
                                  site.args[1]->type->str()));
    Expr *pred = ts.truth(site.args[1]);
    Expr *mask = maskArg(site.args[0], f);
    if (!mask) return none();
    return ir.intrinsic(IntrinsicId::VoteSync, {mask, pred},
                        mode == SubOp::VoteBallot ? maskTy() : tc.boolean(), loc, mode);
  }

  Expr *bits(IntrinsicId id, const std::string &f) {
    if (!arity(f, 1, 1)) return none();
    const Type *t = site.args[0]->type;
    if (!t->isInt()) return fail(fmt::format("cuda.{}() takes an integer, not {}", f, t->str()));
    if (id == IntrinsicId::Ffs)  // Numba: ffs is uint32 whatever the argument
      return ts.convert(ts.intrinsic(id, {site.args[0]}, t, loc), tc.intTy(32, false));
    if (id == IntrinsicId::Brev) {
      const Type *u = tc.intTy(t->bits() <= 32 ? 32 : 64, false);
      return ts.intrinsic(id, {ts.convert(site.args[0], u)}, u, loc);
    }
    return ts.intrinsic(id, {site.args[0]}, t, loc);
  }

  // cuda.fp16: half-precision arithmetic (Numba 0.56's set); cuda.bf16 the
  // same for bfloat16 (h is the type), with numba-cuda's conversions.
  Expr *fp16(const std::string &op, const Type *h) {
    const char *space = h->isBFloat16() ? "bf16." : "fp16.";
    std::string f = space + op;
    auto arg = [&](size_t i) { return ts.convert(site.args[i], h); };
    for (Expr *x : site.args)
      if (!x->type->isNumber() || x->type->isComplex())
        return fail(fmt::format("cuda.{}() takes {} values, not {}", f, h->str(), x->type->str()));
    if (h->isBFloat16()) {
      if (op == "float32_to_bfloat16" || op == "float64_to_bfloat16" || op == "float_to_bfloat16")
        return arity(f, 1, 1) ? arg(0) : none();
      if (op == "bfloat16_to_float32" || op == "bfloat16_to_float")
        return arity(f, 1, 1) ? ts.convert(arg(0), tc.floatTy(32)) : none();
      if (op == "bfloat16") return arity(f, 1, 1) ? arg(0) : none();
    }
    auto binop = [&](ir::BinOp o) {
      Expr *lhs = arg(0);
      return ir.binary(o, lhs, arg(1), loc);  // half, or bool for comparisons
    };
    static const struct {
      const char *name;
      ir::BinOp op;
    } arith[] = {{"hadd", ir::BinOp::Add},
                 {"hsub", ir::BinOp::Sub},
                 {"hmul", ir::BinOp::Mul},
                 {"hdiv", ir::BinOp::Div}},
      cmps[] = {{"heq", ir::BinOp::Eq}, {"hne", ir::BinOp::Ne}, {"hge", ir::BinOp::Ge},
                {"hgt", ir::BinOp::Gt}, {"hle", ir::BinOp::Le}, {"hlt", ir::BinOp::Lt}};
    for (const auto &e : arith)
      if (op == e.name) return arity(f, 2, 2) ? binop(e.op) : none();
    for (const auto &e : cmps)
      if (op == e.name) return arity(f, 2, 2) ? binop(e.op) : none();
    if (op == "hmax" || op == "hmin")
      return arity(f, 2, 2) ? ts.intrinsic(op == "hmax" ? IntrinsicId::Max : IntrinsicId::Min,
                                           {arg(0), arg(1)}, h, loc)
                            : none();
    if (op == "habs")
      return arity(f, 1, 1) ? ts.intrinsic(IntrinsicId::Fabs, {arg(0)}, h, loc) : none();
    if (op == "hneg") {
      if (!arity(f, 1, 1)) return none();
      return ir.unary(ir::UnOp::Neg, arg(0), loc);
    }
    if (op == "hfma")
      return arity(f, 3, 3) ? ts.intrinsic(IntrinsicId::Fma, {arg(0), arg(1), arg(2)}, h, loc)
                            : none();
    // The functions of one value: computed in float32, rounded to h.
    static const struct {
      const char *name;
      IntrinsicId id;
    } math[] = {{"hsin", IntrinsicId::Sin},     {"hcos", IntrinsicId::Cos},
                {"hlog", IntrinsicId::Log},     {"hlog2", IntrinsicId::Log2},
                {"hlog10", IntrinsicId::Log10}, {"hexp", IntrinsicId::Exp},
                {"hexp2", IntrinsicId::Exp2},   {"hsqrt", IntrinsicId::Sqrt},
                {"hceil", IntrinsicId::Ceil},   {"hfloor", IntrinsicId::Floor},
                {"htrunc", IntrinsicId::Trunc}, {"hrint", IntrinsicId::Rint}};
    const Type *f32 = tc.floatTy(32);
    auto single = [&](Expr *v) { return ts.convert(ts.convert(v, h), f32); };
    for (const auto &e : math)
      if (op == e.name)
        return arity(f, 1, 1) ? ts.convert(ts.intrinsic(e.id, {single(site.args[0])}, f32, loc), h)
                              : none();
    if (op == "hexp10" || op == "hrcp" || op == "hrsqrt") {
      if (!arity(f, 1, 1)) return none();
      Expr *x = single(site.args[0]);
      Expr *one = ts.convert(ts.constFloat(1.0, loc), f32);
      Expr *r;
      if (op == "hexp10")
        r = ts.intrinsic(IntrinsicId::Pow, {ts.convert(ts.constFloat(10.0, loc), f32), x}, f32,
                         loc);
      else if (op == "hrcp")
        r = ir.binary(ir::BinOp::Div, one, x, loc);
      else
        r = ir.binary(ir::BinOp::Div, one, ts.intrinsic(IntrinsicId::Sqrt, {x}, f32, loc), loc);
      return ts.convert(r, h);
    }
    return unsupported(fmt::format("cuda.{}() is not supported yet", f));
  }

  // The rows' typings (cudaFamily below).
  Expr *syncthreads();
  Expr *syncthreadsReduce();
  Expr *syncwarp();
  Expr *threadfence();
  Expr *thisGrid();
  Expr *gridSync();
  Expr *constArrayLike();
  Expr *matchAny();
  Expr *matchAll();
  Expr *fma();
  Expr *cbrt();
  Expr *selp();
  // Names made by a pattern: declared device functions, vector types,
  // atomics, fp16.
  Expr *patterned();
  Expr *declared(const std::string &f);
  Expr *vector(const std::string &f);
};

// CUDA's vector types: "float32x4" (int8 ... uint64, float32, float64; 1 to
// 4 elements) or CUDA C's name ("float4", "double2", "short2", "ulonglong3":
// the C types' widths on 64-bit Linux). The canonical name, its base type's
// name and the number of elements; n == 0 when `f` names none.
struct VectorTypeName {
  std::string name, base;
  unsigned n = 0;
};
VectorTypeName vectorTypeName(const std::string &f) {
  VectorTypeName v;
  if (f.size() < 2 || f.back() < '1' || f.back() > '4') return v;
  unsigned n = unsigned(f.back() - '0');
  std::string prefix = f.substr(0, f.size() - 1);
  static const char *const bases[] = {"int8",   "int16",  "int32",  "int64",   "uint8",
                                      "uint16", "uint32", "uint64", "float32", "float64"};
  static const char *const aliases[][2] = {
      {"char", "int8"},      {"short", "int16"},      {"int", "int32"},     {"long", "int64"},
      {"longlong", "int64"}, {"uchar", "uint8"},      {"ushort", "uint16"}, {"uint", "uint32"},
      {"ulong", "uint64"},   {"ulonglong", "uint64"}, {"float", "float32"}, {"double", "float64"}};
  if (prefix.size() > 1 && prefix.back() == 'x') {
    for (const char *b : bases)
      if (prefix.substr(0, prefix.size() - 1) == b) v.base = b;
  } else {
    for (const auto &a : aliases)
      if (prefix == a[0]) v.base = a[1];
  }
  if (v.base.empty()) return v;
  v.name = v.base + "x" + std::to_string(n);
  v.n = n;
  return v;
}

// cuda.float32x4(x, y, z, w): a named tuple of the fields x, y, z, w; each
// argument a number or a vector of the same base type, whose fields it
// spreads (cuda.float32x4(v2, z, w)).
Expr *CudaTyper::vector(const std::string &f) {
  VectorTypeName v = vectorTypeName(f);
  const Type *base = tc.scalarByName(v.base);
  if (!site.kwargs.empty()) return fail(fmt::format("cuda.{}() takes no keyword arguments", f));
  std::vector<Expr *> elems;
  for (Expr *x : site.args) {
    const Type *t = x->type;
    VectorTypeName xv = t->isTuple() ? vectorTypeName(t->symbol()) : VectorTypeName{};
    if (xv.n && xv.name == t->symbol()) {
      if (xv.base != v.base)
        return ts.error(DiagCategory::Typing, x->loc,
                        fmt::format("cuda.{}() takes {} elements or vectors of them, not {}", f,
                                    v.base, t->symbol()));
      for (unsigned i = 0; i < xv.n; ++i) elems.push_back(ir.tupleGet(x, i, x->loc));
      continue;
    }
    if (!t->isNumber())
      return ts.error(DiagCategory::Typing, x->loc,
                      fmt::format("cuda.{}() takes {} elements or vectors of them, not {}", f,
                                  v.base, t->str()));
    elems.push_back(ts.convert(x, base));
  }
  if (elems.size() != v.n)
    return fail(fmt::format("cuda.{}() takes {} element{} ({} given)", f, v.n, v.n == 1 ? "" : "s",
                            elems.size()));
  static const char *const fields[] = {"x", "y", "z", "w"};
  std::vector<std::string> names(fields, fields + v.n);
  std::vector<const Type *> types(v.n, base);
  TupleMake *t = ir.tupleMake(std::move(elems), loc);
  t->type = tc.namedTuple(v.name, std::move(names), std::move(types));
  return t;
}

// A function of cuda.declare_device: the callee's symbol is
// "kjit.cuda.declared:ABI:NAME:SIGNATURE" (python_bindings/kjit/cuda/linking.py).
Expr *CudaTyper::declared(const std::string &f) {
  size_t a = f.find(':'), b = f.find(':', a + 1), c = f.find(':', b + 1);
  if (b == std::string::npos || c == std::string::npos) return fail("bad declared device function");
  std::string abi = f.substr(a + 1, b - a - 1), name = f.substr(b + 1, c - b - 1);
  Signature sig;
  std::string err;
  if (!parseSignature(tc, f.substr(c + 1), sig, err) || !sig.ret)
    return fail(fmt::format("declared device function '{}': bad signature: {}", name, err));
  if (!site.kwargs.empty())
    return fail(fmt::format("declared device function '{}' takes no keyword arguments", name));
  if (site.args.size() != sig.args.size())
    return fail(fmt::format("declared device function '{}' takes {} argument{} ({} given)", name,
                            sig.args.size(), sig.args.size() == 1 ? "" : "s", site.args.size()));
  auto scalar = [](const Type *t) { return t->isInt() || t->isFloat() || t->isBool(); };
  if (!scalar(sig.ret) && !sig.ret->isNone())
    return unsupported(
        fmt::format("declared device function '{}' returns {}; kjit passes numbers only", name,
                    sig.ret->str()));
  std::vector<Expr *> args;
  for (size_t i = 0; i < sig.args.size(); ++i) {
    if (!scalar(sig.args[i]))
      return unsupported(
          fmt::format("declared device function '{}' takes {}; kjit passes numbers "
                      "only",
                      name, sig.args[i]->str()));
    args.push_back(ts.convert(site.args[i], sig.args[i]));
  }
  Intrinsic *in = ts.intrinsic(IntrinsicId::ExternCall, std::move(args), sig.ret, loc);
  in->text = abi + ":" + name;
  return in;
}

Expr *CudaTyper::syncthreads() {
  if (!arity(f, 0, 0)) return none();
  return ts.intrinsic(IntrinsicId::SyncThreads, {}, tc.none(), loc);
}

Expr *CudaTyper::syncthreadsReduce() {
  auto &a = site.args;
  if (!arity(f, 1, 1)) return none();
  IntrinsicId id = f == "syncthreads_count" ? IntrinsicId::SyncThreadsCount
                   : f == "syncthreads_and" ? IntrinsicId::SyncThreadsAnd
                                            : IntrinsicId::SyncThreadsOr;
  return ts.intrinsic(id, {ts.truth(a[0])}, i32(), loc);
}

Expr *CudaTyper::syncwarp() {
  auto &a = site.args;
  if (!arity(f, 0, 1)) return none();
  Expr *mask = a.empty() ? ts.convert(ts.constInt(-1, loc), i32()) : ts.convert(a[0], i32());
  return ts.intrinsic(IntrinsicId::SyncWarp, {mask}, tc.none(), loc);
}

Expr *CudaTyper::threadfence() {
  if (!arity(f, 0, 0)) return none();
  IntrinsicId id = f == "threadfence"         ? IntrinsicId::ThreadFence
                   : f == "threadfence_block" ? IntrinsicId::ThreadFenceBlock
                                              : IntrinsicId::ThreadFenceSystem;
  return ts.intrinsic(id, {}, tc.none(), loc);
}

Expr *CudaTyper::thisGrid() {
  // The grid group: a compile-time value whose sync() is the grid barrier.
  if (!arity(f, 0, 0)) return none();
  return ts.constOf(tc.module("kjit.cuda.cg.grid_group"), loc);
}

Expr *CudaTyper::gridSync() {
  if (!arity("cg.this_grid().sync", 0, 0)) return none();
  if (ts.context().amdgpu)
    return unsupported(
        "grid.sync() (cooperative groups) is not supported on AMD GPUs yet; it runs on NVIDIA "
        "GPUs and on the CPU device");
  return ts.intrinsic(IntrinsicId::GridSync, {}, tc.none(), loc);
}

Expr *CudaTyper::constArrayLike() {
  auto &a = site.args;
  if (!arity(f, 1, 1)) return none();
  if (auto *c = dyn_cast<Const>(a[0]); c && c->bytes) return c;  // a frozen global array
  return fail("cuda.const.array_like() takes a global NumPy array (frozen at compile time)");
}

Expr *CudaTyper::matchAny() {
  auto &a = site.args;
  if (!arity(f, 2, 2)) return none();
  const Type *t = a[1]->type;
  if (!((t->isInt() || t->isFloat()) && (t->bits() == 32 || t->bits() == 64)))
    return fail(fmt::format(
        "cuda.match_any_sync() takes int32, int64, float32 or float64 values, not {}", t->str()));
  Expr *mask = maskArg(a[0], f);
  if (!mask) return none();
  return ts.intrinsic(IntrinsicId::MatchAnySync, {mask, a[1]}, maskTy(), loc);
}

Expr *CudaTyper::matchAll() {
  auto &a = site.args;
  if (!arity(f, 2, 2)) return none();
  const Type *t = a[1]->type;
  if (!((t->isInt() || t->isFloat()) && (t->bits() == 32 || t->bits() == 64)))
    return fail(fmt::format(
        "cuda.match_all_sync() takes int32, int64, float32 or float64 values, not {}", t->str()));
  Expr *mask = maskArg(a[0], f);
  if (!mask) return none();
  return ts.intrinsic(IntrinsicId::MatchAllSync, {mask, a[1]}, tc.tuple({maskTy(), tc.boolean()}),
                      loc);
}

Expr *CudaTyper::fma() {
  auto &a = site.args;
  if (!arity(f, 3, 3)) return none();
  // float32 when every argument is float32 (or a narrower number), else float64.
  const Type *t = tc.floatTy(32);
  for (Expr *x : a)
    if (!x->type->isNumber() || x->type->isComplex() ||
        (x->type->isFloat() && x->type->bits() > 32) || (x->type->isInt() && x->type->bits() > 16))
      t = tc.float64();
  return ts.intrinsic(IntrinsicId::Fma,
                      {ts.convert(a[0], t), ts.convert(a[1], t), ts.convert(a[2], t)}, t, loc);
}

Expr *CudaTyper::cbrt() {
  auto &a = site.args;
  if (!arity(f, 1, 1)) return none();
  const Type *t = a[0]->type->isFloat() && a[0]->type->bits() == 32 ? tc.floatTy(32) : tc.float64();
  return ts.intrinsic(IntrinsicId::Cbrt, {ts.convert(a[0], t)}, t, loc);
}

// cuda.selp(predicate, a, b): a where the predicate holds, else b.
Expr *CudaTyper::selp() {
  auto &a = site.args;
  if (!arity(f, 3, 3)) return none();
  const Type *t = unify(tc, a[1]->type, a[2]->type);
  if (!t || !t->isNumber())
    return fail(fmt::format("cuda.selp() selects between two numbers, not {} and {}",
                            a[1]->type->str(), a[2]->type->str()));
  return ts.select(ts.truth(a[0]), a[1], a[2], loc);
}

Expr *CudaTyper::patterned() {
  if (f.rfind("declared:", 0) == 0) return declared(f);
  if (vectorTypeName(f).n) return vector(f);
  if (f.rfind("atomic.", 0) == 0) {
    std::string atomName = f.substr(7), op = atomName;
    if (op == "and_" || op == "or_") op.pop_back();
    static const char *const ops[] = {"add",
                                      "sub",
                                      "and",
                                      "or",
                                      "xor",
                                      "inc",
                                      "dec",
                                      "exch",
                                      "max",
                                      "min",
                                      "nanmax",
                                      "nanmin",
                                      "compare_and_swap",
                                      "cas"};
    for (const char *o : ops)
      if (op == o) return atomic(op, atomName);
    return unsupported(fmt::format("cuda.{}() is not a CUDA atomic", f));
  }
  if (f.rfind("fp16.", 0) == 0) return fp16(f.substr(5), tc.floatTy(16));
  if (f.rfind("bf16.", 0) == 0) return fp16(f.substr(5), tc.bfloat16());
  if (f.rfind("wmma.", 0) == 0) return typeWmma(*this, f.substr(5));
  if (isMmaSyncName(f)) return typeMmaSync(*this);
  if (isHopperName(f)) return typeHopper(*this);
  return unsupported(fmt::format("cuda.{}() is not supported in kernels yet", f));
}

// A row made from one helper of CudaTyper and a constant (an intrinsic or
// a sub-operation): rowOf<&CudaTyper::bits, IntrinsicId::Popc>.
template <auto Method, auto Arg>
Expr *rowOf(BuiltinCall &c) {
  CudaTyper t(c);
  return (t.*Method)(Arg, c.f);
}
template <IntrinsicId Id>
Expr *laneMaskRow(BuiltinCall &c) {
  CudaTyper t(c);
  return t.arity(c.f, 0, 0) ? t.ts.intrinsic(Id, {}, t.maskTy(false), t.loc) : t.none();
}

}  // namespace

Expr *typeCudaAttribute(TyperServices &ts, const std::string &module, const std::string &attr,
                        SourceLoc loc, bool cudaTarget) {
  TypeContext &tc = ts.context().types;
  const Type *i32 = tc.intTy(32, true);
  auto onlyInKernels = [&](const std::string &what) {
    return ts.error(
        DiagCategory::Unsupported, loc,
        fmt::format("cuda.{} is only available in @cuda.jit kernels and device functions", what));
  };
  if (module == "kjit.cuda") {
    if (attr == "laneid")
      return cudaTarget ? ts.intrinsic(IntrinsicId::LaneId, {}, i32, loc) : onlyInKernels(attr);
    if (attr == "warpsize")
      return cudaTarget ? ts.convert(ts.constInt(ts.context().warpSize, loc), i32)
                        : onlyInKernels(attr);
    return nullptr;
  }
  for (const Dim3Namespace &d : dim3Namespaces()) {
    if (module != d.name) continue;
    int axis = attr == "x" ? 0 : attr == "y" ? 1 : attr == "z" ? 2 : -1;
    if (axis < 0)
      return ts.error(
          DiagCategory::Typing, loc,
          fmt::format("{} has no attribute '{}'; use x, y or z", module.substr(5), attr));
    if (!cudaTarget) return onlyInKernels(module.substr(10));
    return ts.intrinsic(d.id, {ts.constInt(axis, loc)}, i32, loc);
  }
  return nullptr;
}

const std::vector<Dim3Namespace> &dim3Namespaces() {
  static const std::vector<Dim3Namespace> dims = {{"kjit.cuda.threadIdx", IntrinsicId::ThreadIdx},
                                                  {"kjit.cuda.blockIdx", IntrinsicId::BlockIdx},
                                                  {"kjit.cuda.blockDim", IntrinsicId::BlockDim},
                                                  {"kjit.cuda.gridDim", IntrinsicId::GridDim}};
  return dims;
}

// The kernel language's rows: cuda.NAME(...) is ("kjit.cuda", NAME).
const BuiltinFamily &cudaFamily() {
  using C = CudaTyper;
  using I = IntrinsicId;
  static const BuiltinFamily family = [] {
    BuiltinFamily fam{"kjit.cuda", {}, via<&C::patterned>};
    fam.missing = "{}() is not supported in kernels yet";
    auto &r = fam.entries;
    r.push_back(row("grid", rowOf<&C::axes, I::GridPos>));
    r.push_back(row("gridsize", rowOf<&C::axes, I::GridSize>));
    r.push_back(row("syncthreads", via<&C::syncthreads>));
    for (const char *n : {"syncthreads_count", "syncthreads_and", "syncthreads_or"})
      r.push_back(row(n, via<&C::syncthreadsReduce>));
    r.push_back(row("syncwarp", via<&C::syncwarp>));
    for (const char *n : {"threadfence", "threadfence_block", "threadfence_system"})
      r.push_back(row(n, via<&C::threadfence>));
    r.push_back(row("cg.this_grid", via<&C::thisGrid>));
    r.push_back(row("cg.grid_group.sync", via<&C::gridSync>));
    for (const char *n : {"ldca", "ldcg", "ldcs", "ldlu", "ldcv"})
      r.push_back(row(n, rowOf<&C::cacheHint, I::CacheLoad>));
    for (const char *n : {"stcg", "stcs", "stwb", "stwt"})
      r.push_back(row(n, rowOf<&C::cacheHint, I::CacheStore>));
    r.push_back(row("shared.array", rowOf<&C::memoryArray, I::SharedArray>));
    r.push_back(row("local.array", rowOf<&C::memoryArray, I::LocalArray>));
    r.push_back(row("const.array_like", via<&C::constArrayLike>));
    r.push_back(row("shfl_sync", rowOf<&C::shfl, SubOp::ShflIdx>));
    r.push_back(row("shfl_up_sync", rowOf<&C::shfl, SubOp::ShflUp>));
    r.push_back(row("shfl_down_sync", rowOf<&C::shfl, SubOp::ShflDown>));
    r.push_back(row("shfl_xor_sync", rowOf<&C::shfl, SubOp::ShflBfly>));
    r.push_back(row("all_sync", rowOf<&C::vote, SubOp::VoteAll>));
    r.push_back(row("any_sync", rowOf<&C::vote, SubOp::VoteAny>));
    r.push_back(row("eq_sync", rowOf<&C::vote, SubOp::VoteUni>));
    r.push_back(row("ballot_sync", rowOf<&C::vote, SubOp::VoteBallot>));
    r.push_back(row("match_any_sync", via<&C::matchAny>));
    r.push_back(row("match_all_sync", via<&C::matchAll>));
    r.push_back(row("activemask", laneMaskRow<I::ActiveMask>));
    r.push_back(row("lanemask_lt", laneMaskRow<I::LaneMaskLt>));
    r.push_back(row("popc", rowOf<&C::bits, I::Popc>));
    r.push_back(row("brev", rowOf<&C::bits, I::Brev>));
    r.push_back(row("clz", rowOf<&C::bits, I::Clz>));
    r.push_back(row("ffs", rowOf<&C::bits, I::Ffs>));
    r.push_back(row("fma", via<&C::fma>));
    r.push_back(row("cbrt", via<&C::cbrt>));
    r.push_back(row("selp", via<&C::selp>));
    return fam;
  }();
  return family;
}

}  // namespace kjit
