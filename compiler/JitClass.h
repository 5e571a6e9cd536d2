// JitClass.h - @jitclass classes: what the compiler knows of each.
//
// The decorator (kjit/experimental.py) registers a class once: its fields
// (names and type texts, in the order of the spec) and the functions that
// implement it, each an ordinary kjit function whose first parameter is the
// instance: the constructor (a function the decorator writes: allocate,
// call __init__, return the instance), the methods and the property getters
// and setters; static methods take no instance. An instance is a reference:
// at run time a list of one element, the named tuple of the fields
// (Types.h, TypeContext::jitClass).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/GlobalEnv.h"

namespace kjit {

class Type;
class TypeContext;

struct JitClassInfo {
  std::string id;    // unique: module.qualname#N
  std::string name;  // the class's __name__
  std::vector<std::string> fieldNames;
  std::vector<std::string> fieldTypes;  // parseType's text, or "jitclass:ID"
  std::shared_ptr<FunctionSource> ctor;
  std::map<std::string, std::shared_ptr<FunctionSource>> methods, getters, setters, statics;
};

void registerJitClass(std::shared_ptr<const JitClassInfo> info);
std::shared_ptr<const JitClassInfo> findJitClass(const std::string &id);

// The instance type of class `id`; null with `error` set when the class is
// unknown or a field's type does not parse.
const Type *jitClassType(TypeContext &tc, const std::string &id, std::string &error);

}  // namespace kjit
