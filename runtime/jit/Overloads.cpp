// Overloads.cpp - see Overloads.h.
#include "runtime/jit/Overloads.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "runtime/jit/Errors.h"
#include "runtime/jit/TypeKeys.h"

namespace kjit::jit {

void CompileResult::measure() {
  argBytes.clear();
  for (const Type *t : args) argBytes.push_back(memSize(t));
  retBytes = ret ? memSize(ret) : 0;
}

int chooseOverload(const std::vector<const Type *> &actual,
                   const std::vector<const std::vector<const Type *> *> &candidates,
                   const Caller &who) {
  std::vector<int> tied = bestOverloads(actual, candidates);
  if (tied.size() > 1) {
    std::string list;
    for (int i : tied)
      list += "\n(" + numbaReprs(*candidates[size_t(i)]) + ")" + (who.kernel ? " -> none" : "");
    throw typeError(fmt::format(
        "Ambiguous overloading for {} ({}):{}\n(the signatures of {} that fit "
        "({}) equally well)",
        who.pythonic(), numbaReprs(actual), list, who.describe(), describeTypes(actual)));
  }
  return tied.empty() ? -1 : tied[0];
}

CompileResult *Specialisations::select(const Session &session, const std::string &key,
                                       const Caller &who) {
  if (CompileResult *c = find(key)) return c;
  if (!eager_) return nullptr;
  TypeContext tc;
  std::vector<const Type *> actual = typesOfKey(session, tc, key);
  std::vector<const std::vector<const Type *> *> candidates;
  for (const auto &c : all_) candidates.push_back(&c->args);
  int best = chooseOverload(actual, candidates, who);
  if (best < 0) {
    std::string have;
    for (const auto &c : all_) have += "\n    " + c->signature;
    throw typeError(fmt::format(
        "No matching definition for argument type(s) {} in {}; the signatures compiled are:{}",
        describeTypes(actual), who.describe(), have));
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
