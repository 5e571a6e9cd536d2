// Conversion.cpp - see Conversion.h.
#include "compiler/Conversion.h"

#include <algorithm>
#include <array>

namespace kjit {

namespace {

// The scalar types of Numba's casting graph, in one order.
enum Node { B, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128, kNodes };

int nodeOf(const Type *t) {
  if (t->isBool()) return B;
  if (t->isInt()) {
    int w = t->bits() == 8 ? 0 : t->bits() == 16 ? 1 : t->bits() == 32 ? 2 : 3;
    return (t->isSigned() ? I8 : U8) + w;
  }
  if (t->isFloat())
    return t->isBFloat16() ? BF16 : t->bits() == 16 ? F16 : t->bits() == 32 ? F32 : F64;
  if (t->isComplex()) return t->bits() == 64 ? C64 : C128;
  return -1;
}

using Table = std::array<std::array<Conversion, kNodes>, kNodes>;

// Numba's rules (numba/core/typeconv/rules.py), closed over paths: a path
// converts as its worst step, and the best path counts.
Table closeRules() {
  Table t;
  for (auto &row : t) row.fill(Conversion::None);
  for (int i = 0; i < kNodes; ++i) t[i][i] = Conversion::Exact;
  auto rule = [&](Node a, Node b, Conversion there, Conversion back) {
    t[a][b] = there;
    t[b][a] = back;
  };
  using C = Conversion;
  rule(B, I8, C::Safe, C::Unsafe);
  rule(B, U8, C::Safe, C::Unsafe);
  rule(I8, I16, C::Promote, C::Unsafe);
  rule(U8, U16, C::Promote, C::Unsafe);
  rule(I16, I32, C::Promote, C::Unsafe);
  rule(U16, U32, C::Promote, C::Unsafe);
  rule(I32, I64, C::Promote, C::Unsafe);
  rule(U32, U64, C::Promote, C::Unsafe);
  rule(U8, I16, C::Safe, C::Unsafe);
  rule(U16, I32, C::Safe, C::Unsafe);
  rule(U32, I64, C::Safe, C::Unsafe);
  rule(I8, F16, C::Safe, C::Unsafe);
  rule(U8, F16, C::Safe, C::Unsafe);
  rule(I16, F32, C::Safe, C::Unsafe);
  rule(I32, F64, C::Safe, C::Unsafe);
  rule(I64, F64, C::Unsafe, C::Unsafe);
  rule(U64, F64, C::Unsafe, C::Unsafe);
  rule(F16, F32, C::Promote, C::Unsafe);
  // bfloat16 (not in Numba's graph): as float16, with float32's range;
  // the two 16-bit floats convert to each other unsafely only.
  rule(I8, BF16, C::Safe, C::Unsafe);
  rule(U8, BF16, C::Safe, C::Unsafe);
  rule(BF16, F32, C::Promote, C::Unsafe);
  rule(F16, BF16, C::Unsafe, C::Unsafe);
  rule(F32, F64, C::Promote, C::Unsafe);
  t[F32][C64] = C::Safe;  // real to complex only
  t[F64][C128] = C::Safe;
  rule(C64, C128, C::Promote, C::Unsafe);
  for (int k = 0; k < kNodes; ++k)
    for (int i = 0; i < kNodes; ++i)
      for (int j = 0; j < kNodes; ++j) {
        Conversion via = std::max(t[i][k], t[k][j]);
        if (via < t[i][j]) t[i][j] = via;
      }
  return t;
}

}  // namespace

namespace {

// Whether two types (of any TypeContexts) are the same: records by their
// whole layout, other types by name.
bool sameType(const Type *a, const Type *b) {
  if (a->isRecord() || b->isRecord())
    return a->isRecord() && b->isRecord() && recordSpec(a) == recordSpec(b);
  return a->str() == b->str();
}

}  // namespace

Conversion conversion(const Type *from, const Type *to) {
  if (from == to || sameType(from, to)) return Conversion::Exact;
  if (from->isRecord() || to->isRecord()) return Conversion::None;
  if (from->isNumber() && to->isNumber()) {
    if (from->isFloat8() || to->isFloat8()) return Conversion::None;  // storage only
    static const Table table = closeRules();                          // constant: computed once
    return table[size_t(nodeOf(from))][size_t(nodeOf(to))];
  }
  if (from->isArray() && to->isArray()) {
    bool ok = sameType(from->dtype(), to->dtype()) && from->ndim() == to->ndim() &&
              (to->layout() == Layout::A || from->layout() == to->layout()) &&
              (to->readonly() || !from->readonly());
    return ok ? Conversion::Safe : Conversion::None;
  }
  if (from->isTuple() && to->isTuple() && from->elements().size() == to->elements().size()) {
    Conversion worst = Conversion::Exact;
    for (size_t i = 0; i < from->elements().size(); ++i)
      worst = std::max(worst, conversion(from->elements()[i], to->elements()[i]));
    return worst;
  }
  return Conversion::None;
}

namespace {

// Numba's rating of a candidate: (unsafe, safe, promote) conversions, compared
// in that order; `ok = false` when an argument does not convert.
struct Rating {
  std::array<int, 3> counts{};  // unsafe, safe, promote
  bool ok = true;
};

Rating rate(const std::vector<const Type *> &actual, const std::vector<const Type *> &want) {
  Rating r;
  if (actual.size() != want.size()) return r.ok = false, r;
  for (size_t i = 0; i < actual.size() && r.ok; ++i) {
    switch (conversion(actual[i], want[i])) {
    case Conversion::Exact: break;
    case Conversion::Promote: ++r.counts[2]; break;
    case Conversion::Safe: ++r.counts[1]; break;
    case Conversion::Unsafe: ++r.counts[0]; break;
    case Conversion::None: r.ok = false; break;
    }
  }
  return r;
}

}  // namespace

std::vector<int> bestOverloads(const std::vector<const Type *> &actual,
                               const std::vector<const std::vector<const Type *> *> &candidates) {
  std::vector<int> best;
  Rating bestRating;
  for (size_t i = 0; i < candidates.size(); ++i) {
    Rating r = rate(actual, *candidates[i]);
    if (!r.ok) continue;
    if (best.empty() || r.counts < bestRating.counts) {
      bestRating = r;
      best = {int(i)};
    } else if (r.counts == bestRating.counts) {
      best.push_back(int(i));
    }
  }
  return best;
}

}  // namespace kjit
