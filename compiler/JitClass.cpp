// JitClass.cpp - the registry of @jitclass classes (JitClass.h).
#include "compiler/JitClass.h"

#include <fmt/format.h>

#include <mutex>

#include "compiler/Signature.h"
#include "compiler/Types.h"

namespace kjit {

namespace {
std::mutex &registryMutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, std::shared_ptr<const JitClassInfo>> &registry() {
  static std::map<std::string, std::shared_ptr<const JitClassInfo>> r;
  return r;
}

const Type *classType(TypeContext &tc, const std::string &id, std::string &error, int depth) {
  std::shared_ptr<const JitClassInfo> info = findJitClass(id);
  if (!info) {
    error = fmt::format("unknown @jitclass '{}'", id);
    return nullptr;
  }
  if (depth > 16) {
    error =
        fmt::format("@jitclass {} holds itself (a recursive class is not supported)", info->name);
    return nullptr;
  }
  std::vector<const Type *> fields;
  for (size_t i = 0; i < info->fieldTypes.size(); ++i) {
    const std::string &text = info->fieldTypes[i];
    const Type *t = text.rfind("jitclass:", 0) == 0
                        ? classType(tc, text.substr(9), error, depth + 1)
                        : parseType(tc, text, error);
    if (!t || !t->isRuntime() || t->isNone()) {
      if (t) error = fmt::format("type {}", t->str());
      error = fmt::format("field '{}' of @jitclass {}: {}", info->fieldNames[i], info->name, error);
      return nullptr;
    }
    fields.push_back(t);
  }
  return tc.jitClass(id, info->name, tc.namedTuple(info->name, info->fieldNames, fields));
}
}  // namespace

void registerJitClass(std::shared_ptr<const JitClassInfo> info) {
  std::lock_guard<std::mutex> lock(registryMutex());
  registry()[info->id] = std::move(info);
}

std::shared_ptr<const JitClassInfo> findJitClass(const std::string &id) {
  std::lock_guard<std::mutex> lock(registryMutex());
  auto it = registry().find(id);
  return it == registry().end() ? nullptr : it->second;
}

const Type *jitClassType(TypeContext &tc, const std::string &id, std::string &error) {
  return classType(tc, id, error, 0);
}

}  // namespace kjit
