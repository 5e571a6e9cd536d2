// Overloads.h - a function's compiled specialisations and Numba's rule for
// choosing among them.
//
// Without explicit signatures, each new argument type key compiles a
// specialisation of its own (lazy compilation). With signatures (eager
// compilation), the set is closed: a call takes the exact match, else the
// signature its arguments convert to best (fewest unsafe conversions, then
// fewest safe ones, then fewest promotions, as Numba rates them); two
// signatures rated alike are an ambiguity error, none a "No matching
// definition" error. A key once resolved is remembered as an alias.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "runtime/jit/CompileResult.h"
#include "runtime/jit/Errors.h"

namespace kjit {
class Session;
}  // namespace kjit

namespace kjit::jit {

// The index in `candidates` of the best one for `actual`, or -1 when none
// converts; throws JitError (a TypeError) when the best are tied, in
// Numba's words (its type reprs, "-> none" for a kernel's).
int chooseOverload(const std::vector<const Type *> &actual,
                   const std::vector<const std::vector<const Type *> *> &candidates,
                   const Caller &who);

class Specialisations {
 public:
  // The specialisation for `key`: compiled already, or (with signatures) the
  // one the key converts to; null when one is still to be compiled. Throws
  // JitError when signatures were given and none fits (`who` is for messages;
  // a key's @jitclass classes are `session`'s).
  CompileResult *select(const Session &session, const std::string &key, const Caller &who);
  // Inline: the call path of every @jit call and kernel launch.
  CompileResult *find(const std::string &key) const {
    for (const auto &c : all_)
      if (c->key == key) return c.get();
    for (const auto &[k, c] : aliases_)
      if (k == key) return c;
    return nullptr;
  }
  CompileResult *add(std::unique_ptr<CompileResult> r);

  // Compiled from explicit signatures: other types convert or fail.
  bool eager() const { return eager_; }
  void setEager() { eager_ = true; }
  const std::vector<std::unique_ptr<CompileResult>> &all() const { return all_; }
  // Compiles are serialised per function (the host call path may run without
  // the GIL, and two threads may miss on the same key).
  std::mutex &compileMutex() { return mutex_; }

 private:
  std::vector<std::unique_ptr<CompileResult>> all_;
  std::vector<std::pair<std::string, CompileResult *>> aliases_;
  bool eager_ = false;
  std::mutex mutex_;
};

}  // namespace kjit::jit
