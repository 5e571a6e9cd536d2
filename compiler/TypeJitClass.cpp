// TypeJitClass.cpp - @jitclass instances in the typer.
//
// An instance is a list of one element, the named tuple of its fields
// (TypeContext::jitClass): a field is read from element 0 and written in
// place (ListSetField), so every reference sees the change, as in Numba.
// Methods, property getters and setters, static methods and the constructor
// are ordinary kjit functions (compiler/JitClass.h) called with the
// instance as their first argument.
#include <fmt/format.h>

#include "compiler/JitClass.h"
#include "compiler/TyperImpl.h"

namespace kjit::typing {

using namespace ir;

namespace {
std::string className(const Type *t) { return t->dtype()->symbol(); }

int fieldIndex(const Type *t, const std::string &attr) {
  const std::vector<std::string> &names = t->dtype()->fieldNames();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == attr) return int(i);
  return -1;
}
}  // namespace

Expr *FunctionTyper::jitClassGet(Expr *obj, const std::string &attr, SourceLoc loc) {
  const Type *t = obj->type;
  std::shared_ptr<const JitClassInfo> info = ctx_.session().findJitClass(t->symbol());
  if (!info) return typingError(loc, fmt::format("unknown @jitclass {}", className(t)));
  if (int k = fieldIndex(t, attr); k >= 0) {
    Expr *elem = ir_.intrinsic(IntrinsicId::ListGet, {obj, constInt(0, loc)}, t->dtype(), loc);
    return ir_.tupleGet(elem, unsigned(k), loc);
  }
  if (auto g = info->getters.find(attr); g != info->getters.end()) {
    Expr *r = callFunction(g->second, {obj}, loc);
    return r ? r : unknown(loc);
  }
  if (info->methods.count(attr))
    return constOf(tc_.function(fmt::format("jitmethod:{}:{}", t->symbol(), attr)), loc);
  if (info->statics.count(attr))
    return constOf(tc_.function(fmt::format("jitstatic:{}:{}", t->symbol(), attr)), loc);
  return typingError(loc, fmt::format("Unknown attribute '{}' of type {}", attr, t->str()));
}

Expr *FunctionTyper::jitClassAttribute(const std::string &id, const std::string &attr,
                                       SourceLoc loc) {
  std::shared_ptr<const JitClassInfo> info = ctx_.session().findJitClass(id);
  if (!info) return typingError(loc, fmt::format("unknown @jitclass '{}'", id));
  if (info->statics.count(attr))
    return constOf(tc_.function(fmt::format("jitstatic:{}:{}", id, attr)), loc);
  if (info->methods.count(attr))
    // Class.method(obj, ...): the function itself, the instance passed.
    return constOf(prog_.jitFunctionType(info->methods.at(attr)), loc);
  return typingError(
      loc, fmt::format("@jitclass {} has no static method '{}' (fields and properties are read "
                       "from an instance)",
                       info->name, attr));
}

Expr *FunctionTyper::jitClassSet(Expr *obj, const std::string &attr, Expr *value, SourceLoc loc) {
  const Type *t = obj->type;
  std::shared_ptr<const JitClassInfo> info = ctx_.session().findJitClass(t->symbol());
  if (!info) return typingError(loc, fmt::format("unknown @jitclass {}", className(t)));
  if (int k = fieldIndex(t, attr); k >= 0) {
    const Type *ft = t->dtype()->elements()[size_t(k)];
    Expr *v = value;
    if (v->type != ft) {
      if (!storableIn(tc_, ft, v->type)) {
        typingError(loc, fmt::format("cannot store {} in field '{}' ({}) of @jitclass {}",
                                     v->type->str(), attr, ft->str(), info->name));
        return nullptr;
      }
      v = castTo(v, ft);
      if (!known(v)) return nullptr;
    }
    return ir_.intrinsic(IntrinsicId::ListSetField, {obj, constInt(k, loc), v}, tc_.none(), loc);
  }
  if (auto s = info->setters.find(attr); s != info->setters.end())
    return callFunction(s->second, {obj, value}, loc);
  if (info->getters.count(attr))
    typingError(loc, fmt::format("property '{}' of @jitclass {} has no setter", attr, info->name));
  else
    typingError(loc, fmt::format("@jitclass {} has no field '{}' (its fields are those of its "
                                 "spec: {})",
                                 info->name, attr, fmt::join(info->fieldNames, ", ")));
  return nullptr;
}

std::shared_ptr<FunctionSource> FunctionTyper::jitClassFunction(const std::string &symbol,
                                                                SourceLoc loc) {
  if (cudaTarget()) {
    unsupported(loc, "@jitclass instances are not supported in kernels");
    return nullptr;
  }
  size_t colon = symbol.find(':');
  std::string kind = symbol.substr(0, colon), rest = symbol.substr(colon + 1);
  std::string id = rest, attr;
  if (kind != "jitclass") {
    size_t last = rest.rfind(':');
    id = rest.substr(0, last);
    attr = rest.substr(last + 1);
  }
  std::shared_ptr<const JitClassInfo> info = ctx_.session().findJitClass(id);
  if (!info) {
    typingError(loc, fmt::format("unknown @jitclass '{}'", id));
    return nullptr;
  }
  if (kind == "jitclass") return info->ctor;
  const auto &table = kind == "jitmethod" ? info->methods : info->statics;
  auto it = table.find(attr);
  return it == table.end() ? nullptr : it->second;
}

}  // namespace kjit::typing
