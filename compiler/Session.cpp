// Session.cpp - see Session.h.
#include "compiler/Session.h"

#include "compiler/CmathSource.h"
#include "compiler/JitClass.h"
#include "compiler/NumpyLib.h"
#include "compiler/UfuncSource.h"

namespace kjit {

Session::Session() = default;
Session::~Session() = default;

template <class Make>
std::shared_ptr<FunctionSource> Session::madeOnce(Functions &table, const std::string &key,
                                                  Make make) {
  uint64_t ordinal;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = table.byKey.find(key); it != table.byKey.end()) return it->second;
    ordinal = table.made++;
  }
  // Outside the lock: making it may ask this Session for another function.
  std::shared_ptr<FunctionSource> fn = make(ordinal);
  std::lock_guard<std::mutex> lock(mutex_);
  return table.byKey.emplace(key, std::move(fn)).first->second;
}

std::shared_ptr<FunctionSource> Session::libraryFunction(const std::string &name) {
  return madeOnce(library_, name, [&](uint64_t) { return makeLibraryFunction(*this, name); });
}

std::shared_ptr<FunctionSource> Session::cmathFunction(const std::string &name) {
  return madeOnce(cmath_, name,
                  [&](uint64_t ordinal) { return makeCmathFunction(*this, name, ordinal); });
}

std::shared_ptr<FunctionSource> Session::ufuncLoopFunction(const UfuncLoopSpec &spec) {
  return madeOnce(ufuncLoops_, ufuncLoopKey(spec),
                  [&](uint64_t ordinal) { return makeUfuncLoopFunction(*this, spec, ordinal); });
}

void Session::registerJitClass(std::shared_ptr<const JitClassInfo> info) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string id = info->id;
  jitClasses_[id] = std::move(info);
}

std::shared_ptr<const JitClassInfo> Session::findJitClass(const std::string &id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = jitClasses_.find(id);
  return it == jitClasses_.end() ? nullptr : it->second;
}

}  // namespace kjit
