// Overloads.cpp - see Overloads.h.
#include "runtime/jit/Overloads.h"

#include <fmt/format.h>

#include <array>

#include "runtime/jit/Errors.h"
#include "runtime/jit/TypeKeys.h"

namespace kjit::jit {

void CompileResult::measure() {
  argBytes.clear();
  for (const Type *t : args) argBytes.push_back(memSize(t));
  retBytes = ret ? memSize(ret) : 0;
}

namespace {

// Numba's rating of a candidate: (unsafe, safe, promote) conversions, compared
// in that order; nullopt-like `ok = false` when an argument does not convert.
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

int chooseOverload(const std::vector<const Type *> &actual,
                   const std::vector<const std::vector<const Type *> *> &candidates,
                   const std::string &what) {
  int best = -1;
  Rating bestRating;
  std::vector<int> tied;
  for (size_t i = 0; i < candidates.size(); ++i) {
    Rating r = rate(actual, *candidates[i]);
    if (!r.ok) continue;
    if (best < 0 || r.counts < bestRating.counts) {
      best = int(i);
      bestRating = r;
      tied = {best};
    } else if (r.counts == bestRating.counts) {
      tied.push_back(int(i));
    }
  }
  if (tied.size() > 1) {
    std::string list;
    for (int i : tied) list += "\n    (" + describeTypes(*candidates[size_t(i)]) + ")";
    throw typeError(fmt::format(
        "Ambiguous overloading for {} ({}): the signatures that fit equally well are:{}", what,
        describeTypes(actual), list));
  }
  return best;
}

CompileResult *Specialisations::select(const std::string &key, const Caller &who) {
  if (CompileResult *c = find(key)) return c;
  if (!eager_) return nullptr;
  TypeContext tc;
  std::vector<const Type *> actual = typesOfKey(tc, key);
  std::vector<const std::vector<const Type *> *> candidates;
  for (const auto &c : all_) candidates.push_back(&c->args);
  std::string what = who.describe();
  int best = chooseOverload(actual, candidates, what);
  if (best < 0) {
    std::string have;
    for (const auto &c : all_) have += "\n    " + c->signature;
    throw typeError(fmt::format(
        "No matching definition for argument type(s) {} in {}; the signatures compiled are:{}",
        describeTypes(actual), what, have));
  }
  CompileResult *c = all_[size_t(best)].get();
  aliases_.emplace_back(key, c);
  return c;
}

CompileResult *Specialisations::add(std::unique_ptr<CompileResult> r) {
  all_.push_back(std::move(r));
  return all_.back().get();
}

}  // namespace kjit::jit
