// Wmma.cpp - the typing of cuda.wmma: warp-wide 16x16x16 matrix products on
// tensor cores (compiler/Wmma.h says what a fragment is).
//
//   a = cuda.wmma.load_matrix_sync("a", (16, 16, 16), ary, (r, c), "row")
//   b = cuda.wmma.load_matrix_sync("b", (16, 16, 16), bry, (r, c), "col")
//   acc = cuda.wmma.fill_fragment((16, 16, 16), float32, 0.0)
//   acc = cuda.wmma.mma_sync(a, b, acc)
//   cuda.wmma.store_matrix_sync(out, (r, c), acc, "row")
//
// A matrix is the 16x16 block of a 2-d C-contiguous array at (r, c): "row"
// reads it as it lies, "col" as its transpose (the matrix stored column by
// column, as CUDA's col_major). a and b are float16 or bfloat16 (sm_80),
// accumulators float32. All 32 lanes of the warp make each call.
#include "compiler/Wmma.h"

#include <fmt/format.h>

#include "compiler/builtins/BuiltinCall.h"

namespace kjit {

using namespace ir;

namespace {

class WmmaTyper : public BuiltinCall {
 public:
  explicit WmmaTyper(BuiltinCall &c) : BuiltinCall(c) {}

  Expr *type(const std::string &op) {
    if (ts.context().amdgpu)
      return unsupported(fmt::format(
          "cuda.wmma.{}() needs an NVIDIA GPU's tensor cores; AMD GPUs are not supported", op));
    if (op == "load_matrix_sync") return load();
    if (op == "fill_fragment") return fill();
    if (op == "mma_sync") return mma();
    if (op == "store_matrix_sync") return store();
    return unsupported(fmt::format(
        "cuda.wmma.{}() is not supported (kjit has load_matrix_sync, fill_fragment, mma_sync, "
        "store_matrix_sync)",
        op));
  }

 private:
  std::string fname(const char *op) const { return std::string("cuda.wmma.") + op; }
  // A type as messages give it: a fragment by its class's name.
  static std::string spelling(const Type *t) {
    if (!t) return "nothing";
    return wmma::fragmentOf(t) ? t->symbol() : t->str();
  }

  Expr *at(size_t i, const char *kw) {
    if (i < site.args.size()) return site.args[i];
    return keyword(kw);
  }
  std::optional<std::string> text(Expr *e) {
    if (e && e->type && e->type->kind() == TypeKind::StringLit) return e->type->symbol();
    return std::nullopt;
  }
  bool shape(Expr *e, const char *op) {
    auto *tm = e ? dyn_cast<TupleMake>(ts.literalLocal(e)) : nullptr;
    bool ok = tm && tm->elems.size() == 3;
    std::vector<int64_t> dims;
    for (size_t k = 0; ok && k < 3; ++k) {
      auto *c = dyn_cast<Const>(ts.literalLocal(tm->elems[k]));
      ok = c && c->type && c->type->isInt();
      if (ok) dims.push_back(c->i);
    }
    if (ok && dims == std::vector<int64_t>{16, 16, 16}) return true;
    ts.error(DiagCategory::Typing, e ? e->loc : loc,
             fmt::format("{}(): the shape must be the constant (16, 16, 16) (m, n, k); kjit's "
                         "wmma has that shape only",
                         fname(op)));
    return false;
  }
  // `layout`: "row" or "col" (CUDA's row_major, col_major).
  std::optional<bool> colMajor(Expr *e, const char *op) {
    if (!e) return false;
    std::optional<std::string> s = text(e);
    if (s == "row" || s == "row_major") return false;
    if (s == "col" || s == "col_major") return true;
    ts.error(DiagCategory::Typing, e->loc,
             fmt::format("{}(): the layout is the constant \"row\" or \"col\"", fname(op)));
    return std::nullopt;
  }
  // (r, c): two integers, the block's first row and column.
  bool offsets(Expr *e, const char *op, Expr *&r, Expr *&c) {
    const Type *t = e ? e->type : nullptr;
    if (t && t->isTuple() && t->elements().size() == 2 && t->elements()[0]->isInt() &&
        t->elements()[1]->isInt()) {
      r = ts.convert(ir.tupleGet(e, 0, e->loc), tc.int64());
      c = ts.convert(ir.tupleGet(e, 1, e->loc), tc.int64());
      return true;
    }
    ts.error(DiagCategory::Typing, e ? e->loc : loc,
             fmt::format("{}(): the block's place is a tuple of two integers (row, column), "
                         "not {}",
                         fname(op), t ? t->str() : "nothing"));
    return false;
  }
  bool matrixArray(Expr *a, const Type *want, const char *op) {
    const Type *t = a ? a->type : nullptr;
    if (t && t->isArray() && t->ndim() == 2 && t->layout() == Layout::C &&
        (!want || t->dtype() == want))
      return true;
    std::string what = !t                         ? "nothing"
                       : !t->isArray()            ? t->str()
                       : t->ndim() != 2           ? fmt::format("a {}-d array", t->ndim())
                       : t->layout() != Layout::C ? fmt::format("{} (not C-contiguous)", t->str())
                                                  : t->str();
    ts.error(DiagCategory::Typing, a ? a->loc : loc,
             fmt::format("{}(): the matrix is a 2-d C-contiguous array{}, not {}", fname(op),
                         want ? fmt::format(" of {}", want->str()) : std::string(), what));
    return false;
  }
  // sm_80 for bfloat16; the CPU device (targetCc 0) runs everything.
  bool available(const Type *elem, SourceLoc at, const char *op) {
    int cc = ts.context().targetCc;
    int need = elem->isBFloat16() ? 80 : 70;
    if (cc == 0 || cc >= need) return true;
    ts.error(DiagCategory::Typing, at,
             fmt::format("{}() with {} needs sm_{} or newer; this kernel is compiled for sm_{}",
                         fname(op), elem->str(), need, cc));
    return false;
  }
  const Type *fragmentType(const wmma::Fragment &f) {
    unsigned n = wmma::elementsPerLane(f.use, f.elem);
    std::vector<std::string> names;
    for (unsigned k = 0; k < n; ++k) names.push_back(fmt::format("x{}", k));
    return tc.namedTuple(wmma::className(f), std::move(names),
                         std::vector<const Type *>(n, f.elem));
  }

  Expr *load() {
    const char *op = "load_matrix_sync";
    Expr *kind = at(0, "use"), *shp = at(1, "shape"), *ary = at(2, "array"), *off = at(3, "offset"),
         *lay = at(4, "layout");
    std::optional<std::string> k = text(kind);
    wmma::Fragment f;
    if (k == "a" || k == "matrix_a")
      f.use = wmma::Use::A;
    else if (k == "b" || k == "matrix_b")
      f.use = wmma::Use::B;
    else if (k == "c" || k == "accumulator")
      f.use = wmma::Use::Acc;
    else
      return ts.error(DiagCategory::Typing, kind ? kind->loc : loc,
                      fmt::format("{}(): the first argument is the constant \"a\", \"b\" or "
                                  "\"accumulator\" (the fragment's use)",
                                  fname(op)));
    Expr *r = nullptr, *c = nullptr;
    if (!shape(shp, op) || !matrixArray(ary, nullptr, op) || !offsets(off, op, r, c)) return none();
    std::optional<bool> col = colMajor(lay, op);
    if (!col) return none();
    f.elem = ary->type->dtype();
    f.colMajor = f.use != wmma::Use::Acc && *col;
    bool okType = f.use == wmma::Use::Acc ? f.elem->isFloat() && f.elem->bits() == 32
                                          : f.elem->isHalf() || f.elem->isBFloat16();
    if (!okType)
      return ts.error(
          DiagCategory::Typing, ary->loc,
          fmt::format("{}(): {} fragments are {}, not {}", fname(op),
                      f.use == wmma::Use::Acc ? "accumulator" : "a and b",
                      f.use == wmma::Use::Acc ? "float32" : "float16 or bfloat16", f.elem->str()));
    if (!available(f.elem, ary->loc, op)) return none();
    if (f.use == wmma::Use::Acc && *col)
      return ts.error(
          DiagCategory::Typing, lay->loc,
          fmt::format("{}(): kjit loads accumulators in \"row\" layout only", fname(op)));
    return ts.intrinsic(IntrinsicId::WmmaLoad, {ary, r, c}, fragmentType(f), loc);
  }

  Expr *fill() {
    const char *op = "fill_fragment";
    if (!arity(fname(op), 3, 3) || !shape(site.args[0], op)) return none();
    Expr *d = site.args[1];
    if (!d->type || d->type->kind() != TypeKind::Dtype || d->type->dtype() != tc.floatTy(32))
      return ts.error(DiagCategory::Typing, d->loc,
                      fmt::format("{}(): accumulators are float32 (kjit's wmma)", fname(op)));
    Expr *v = needNumber(site.args[2], fname(op));
    if (!v->type) return none();
    wmma::Fragment f;
    f.elem = tc.floatTy(32);
    std::vector<Expr *> elems(8, ts.convert(v, f.elem));
    TupleMake *t = ir.tupleMake(std::move(elems), loc);
    t->type = fragmentType(f);
    return t;
  }

  Expr *mma() {
    const char *op = "mma_sync";
    if (!arity(fname(op), 3, 3)) return none();
    std::optional<wmma::Fragment> fa = wmma::fragmentOf(site.args[0]->type),
                                  fb = wmma::fragmentOf(site.args[1]->type),
                                  fc = wmma::fragmentOf(site.args[2]->type);
    auto bad = [&](size_t i, const char *want) {
      return ts.error(DiagCategory::Typing, site.args[i]->loc,
                      fmt::format("{}(): argument {} must be {}, not {}", fname(op), i + 1, want,
                                  spelling(site.args[i]->type)));
    };
    if (!fa || fa->use != wmma::Use::A) return bad(0, "a matrix_a fragment");
    if (!fb || fb->use != wmma::Use::B) return bad(1, "a matrix_b fragment");
    if (!fc || fc->use != wmma::Use::Acc) return bad(2, "an accumulator fragment");
    if (fa->elem != fb->elem)
      return ts.error(DiagCategory::Typing, loc,
                      fmt::format("{}(): a and b must have one element type ({} and {} given)",
                                  fname(op), fa->elem->str(), fb->elem->str()));
    if (!available(fa->elem, loc, op)) return none();
    return ts.intrinsic(IntrinsicId::WmmaMma, {site.args[0], site.args[1], site.args[2]},
                        site.args[2]->type, loc);
  }

  Expr *store() {
    const char *op = "store_matrix_sync";
    Expr *ary = at(0, "array"), *off = at(1, "offset"), *frag = at(2, "fragment"),
         *lay = at(3, "layout");
    std::optional<wmma::Fragment> f = frag ? wmma::fragmentOf(frag->type) : std::nullopt;
    if (!f || f->use != wmma::Use::Acc)
      return ts.error(DiagCategory::Typing, frag ? frag->loc : loc,
                      fmt::format("{}(): stores an accumulator fragment, not {}", fname(op),
                                  spelling(frag ? frag->type : nullptr)));
    Expr *r = nullptr, *c = nullptr;
    if (!matrixArray(ary, f->elem, op) || !offsets(off, op, r, c)) return none();
    std::optional<bool> col = colMajor(lay, op);
    if (!col) return none();
    return ts.intrinsic(IntrinsicId::WmmaStore, {ary, r, c, frag, ts.constInt(*col ? 1 : 0, loc)},
                        tc.none(), loc);
  }
};

}  // namespace

Expr *typeWmma(BuiltinCall &call, const std::string &op) { return WmmaTyper(call).type(op); }

}  // namespace kjit
