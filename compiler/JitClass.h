// JitClass.h - @jitclass classes: what the compiler knows of each.
//
// The decorator (kjit/experimental.py) registers a class once (in the
// JIT runtime's Session, Session.h): its fields
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

class Session;
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

// The classes are registered in a Session (Session::registerJitClass).

// The instance type of class `id` of `session`, in `tc`; null with `error`
// set when the class is unknown or a field's type does not parse.
const Type *jitClassType(const Session &session, TypeContext &tc, const std::string &id,
                         std::string &error);

}  // namespace kjit
