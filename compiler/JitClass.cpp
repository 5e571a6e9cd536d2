// JitClass.cpp - the types of @jitclass classes (JitClass.h).
#include "compiler/JitClass.h"

#include <fmt/format.h>

#include "compiler/Session.h"
#include "compiler/Signature.h"
#include "compiler/Types.h"

namespace kjit {

namespace {

const Type *classType(const Session &session, TypeContext &tc, const std::string &id,
                      std::string &error, int depth) {
  std::shared_ptr<const JitClassInfo> info = session.findJitClass(id);
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
                        ? classType(session, tc, text.substr(9), error, depth + 1)
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

const Type *jitClassType(const Session &session, TypeContext &tc, const std::string &id,
                         std::string &error) {
  return classType(session, tc, id, error, 0);
}

}  // namespace kjit
