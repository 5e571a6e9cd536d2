// Containers.cpp - the families of list, dict, set and str methods, and
// the primitives the builtins library (compiler/lib/builtins/) builds
// Python's list on.
//
// A list method is the library's `_list_<method>` with the list first;
// the library reads and writes elements through five primitives that
// become IR intrinsics (Intrinsics.def: ListNew ... ListResize).
#include <fmt/format.h>

#include "compiler/Session.h"
#include "compiler/builtins/BuiltinCall.h"

namespace kjit {

using namespace ir;

namespace {

struct Method {
  const char *name;
  size_t minArgs, maxArgs;  // besides the list
};
const Method kMethods[] = {
    {"append", 1, 1},      {"extend", 1, 1},  {"insert", 2, 2}, {"pop", 0, 1},
    {"remove", 1, 1},      {"index", 1, 1},   {"count", 1, 1},  {"clear", 0, 0},
    {"copy", 0, 0},        {"reverse", 0, 0}, {"sort", 0, 0},   {"__delitem__", 1, 1},  // del l[i]
    {"__delslice__", 3, 3}};  // del l[a:b]

Expr *failWith(TyperServices &ts, SourceLoc loc, DiagCategory c, std::string msg) {
  return ts.error(c, loc, std::move(msg));
}

// The error of a dict, set or str method call whose method is not there
// (`found` false), that has keywords, or that has too few or too many
// arguments besides the receiver; null when it is well formed.
Expr *methodCallError(TyperServices &ts, const char *kind, const std::string &f,
                      const CallSite &site, bool found, size_t minArgs, size_t maxArgs) {
  SourceLoc loc = site.loc;
  if (!found)
    return failWith(ts, loc, DiagCategory::Unsupported,
                    fmt::format("the {} method {}() is not supported", kind, f));
  if (!site.kwargs.empty())
    return failWith(ts, loc, DiagCategory::Typing,
                    fmt::format("{}.{}() takes no keyword arguments", kind, f));
  size_t n = site.args.size() - 1;
  if (n >= minArgs && n <= maxArgs) return nullptr;
  if (minArgs == maxArgs)
    return failWith(ts, loc, DiagCategory::Typing,
                    fmt::format("{}.{}() takes {} argument{} ({} given)", kind, f, minArgs,
                                minArgs == 1 ? "" : "s", n));
  return failWith(
      ts, loc, DiagCategory::Typing,
      fmt::format("{}.{}() takes {} to {} arguments ({} given)", kind, f, minArgs, maxArgs, n));
}

// String constants among a method's arguments become run-time strs (a
// dict's key, a list's element).
void textArgs(TyperServices &ts, std::vector<Expr *> &args) {
  for (Expr *&x : args)
    if (x->type && x->type->kind() == TypeKind::StringLit && !ts.cudaTarget())
      x = ts.convert(x, ts.context().types.str());
}

}  // namespace

bool isListPrimitive(const std::string &f) {
  return f == "_lget" || f == "_lset" || f == "_lresize" || f == "_lnew" || f == "_lof" ||
         f == "_ldtype" || f == "_dparts" || f == "_dmake" || f == "_smake";
}

// The type of the elements `for x in t` gives, or null: a list's, a 1-d
// array's, a tuple's of one element type, a set's, a dict's keys.
bool storableIn(TypeContext &tc, const Type *slot, const Type *value) {
  if (slot->isNumber() && value->isNumber()) return !(value->isComplex() && !slot->isComplex());
  return unify(tc, slot, value) == slot;
}

const Type *iteratedType(const Type *t) {
  if (t->isList()) return t->dtype();
  if (t->isString()) return t;  // its characters, strs of one
  if (t->isArray() && t->ndim() == 1) return t->dtype();
  if (t->isHomogeneousTuple()) return t->elements()[0];
  if (t->isDict()) return t->keyType();
  return nullptr;
}

Expr *typeStrMethod(TyperServices &ts, const std::string &f, CallSite &site) {
  SourceLoc loc = site.loc;
  TypeContext &tc = ts.context().types;
  // name, arguments (least, most), which of them are strings (bits)
  struct M {
    const char *name;
    size_t minArgs, maxArgs;
    unsigned strArgs;
  };
  static const M kStr[] = {{"upper", 0, 0, 0},      {"lower", 0, 0, 0},      {"strip", 0, 1, 1},
                           {"lstrip", 0, 1, 1},     {"rstrip", 0, 1, 1},     {"split", 0, 2, 1},
                           {"join", 1, 1, 0},       {"startswith", 1, 1, 1}, {"endswith", 1, 1, 1},
                           {"find", 1, 2, 1},       {"rfind", 1, 2, 1},      {"index", 1, 2, 1},
                           {"count", 1, 1, 1},      {"replace", 2, 2, 3},    {"isdigit", 0, 0, 0},
                           {"isalpha", 0, 0, 0},    {"isalnum", 0, 0, 0},    {"isspace", 0, 0, 0},
                           {"isupper", 0, 0, 0},    {"islower", 0, 0, 0},    {"zfill", 1, 1, 0},
                           {"capitalize", 0, 0, 0}, {"swapcase", 0, 0, 0},   {"center", 1, 1, 0},
                           {"ljust", 1, 1, 0},      {"rjust", 1, 1, 0}};
  const M *m = nullptr;
  for (const M &k : kStr)
    if (f == k.name) m = &k;
  if (ts.cudaTarget())
    return failWith(ts, loc, DiagCategory::Unsupported, "strings are not supported in kernels");
  if (Expr *e = methodCallError(ts, "str", f, site, m, m ? m->minArgs : 0, m ? m->maxArgs : 0))
    return e;
  std::vector<Expr *> args = site.args;
  textArgs(ts, args);
  args[0] = ts.convert(args[0], tc.str());
  for (size_t i = 1; i < args.size(); ++i) {
    const Type *t = args[i]->type;
    bool text = t->isText();
    if (m->strArgs & (1u << (i - 1))) {
      if (t->isNone() && (f == "split" || f == "strip" || f == "lstrip" || f == "rstrip"))
        continue;  // the default: whitespace
      if (!text)
        return failWith(ts, args[i]->loc, DiagCategory::Typing,
                        fmt::format("str.{}() takes a str, not {}", f, t->str()));
      args[i] = ts.convert(args[i], tc.str());
    } else if (f == "join") {
      if (!t->isList() || !t->dtype() || !t->dtype()->isString())
        return failWith(ts, args[i]->loc, DiagCategory::Typing,
                        fmt::format("str.join() takes a list of str, not {}", t->str()));
    } else if (!t->isInt() && !t->isBool()) {
      return failWith(ts, args[i]->loc, DiagCategory::Typing,
                      fmt::format("str.{}() takes an integer, not {}", f, t->str()));
    }
  }
  Expr *r =
      ts.callFunction(ts.context().session().libraryFunction("_str_" + f), std::move(args), loc);
  return r ? r : ts.constOf(nullptr, loc);
}

Expr *typeSetMethod(TyperServices &ts, const std::string &f, CallSite &site) {
  SourceLoc loc = site.loc;
  struct M {
    const char *name;
    size_t args;
    bool setArg;  // its argument is a set
  };
  static const M kSet[] = {{"add", 1, false},
                           {"discard", 1, false},
                           {"remove", 1, false},
                           {"pop", 0, false},
                           {"clear", 0, false},
                           {"copy", 0, false},
                           {"update", 1, false},
                           {"union", 1, true},
                           {"intersection", 1, true},
                           {"difference", 1, true},
                           {"symmetric_difference", 1, true},
                           {"intersection_update", 1, true},
                           {"difference_update", 1, true},
                           {"symmetric_difference_update", 1, true},
                           {"issubset", 1, true},
                           {"issuperset", 1, true},
                           {"isdisjoint", 1, true}};
  const M *m = nullptr;
  for (const M &k : kSet)
    if (f == k.name) m = &k;
  if (Expr *e = methodCallError(ts, "set", f, site, m, m ? m->args : 0, m ? m->args : 0)) return e;
  std::vector<Expr *> args = site.args;
  textArgs(ts, args);
  size_t n = args.size() - 1;
  // (A set whose element type is not known yet is typed again once it is.)
  if (hasUndefinedList(args[0]->type)) return ts.constOf(nullptr, loc);
  const Type *st = args[0]->type, *key = st->keyType();
  if (m->setArg) {
    if (hasUndefinedList(args[1]->type)) return ts.constOf(nullptr, loc);
    if (!args[1]->type->isSet())
      return failWith(ts, args[1]->loc, DiagCategory::Typing,
                      fmt::format("set.{}() takes a set in kjit, not {}", f, args[1]->type->str()));
    if (args[1]->type != st)
      return failWith(ts, args[1]->loc, DiagCategory::Typing,
                      fmt::format("set.{}() of {} and {}: the elements' types differ", f, st->str(),
                                  args[1]->type->str()));
  } else if (f == "update") {
    const Type *e = iteratedType(args[1]->type);
    if (!e)
      return failWith(ts, args[1]->loc, DiagCategory::Typing,
                      fmt::format("set.update() takes a list, a set, a 1-d array or a tuple of "
                                  "one element type, not {}",
                                  args[1]->type->str()));
    if (e != key && !(e->isNumber() && key->isNumber()))
      return failWith(
          ts, args[1]->loc, DiagCategory::Typing,
          fmt::format("cannot add the elements of {} to a {}", args[1]->type->str(), st->str()));
  } else if (n == 1) {  // add, discard, remove: the value as the set's element type
    Expr *v = args[1];
    bool numbers = key->isNumber() && v->type->isNumber() && !v->type->isComplex();
    if (v->type != key && !numbers && unify(ts.context().types, key, v->type) != key)
      return failWith(ts, v->loc, DiagCategory::Typing,
                      fmt::format("set.{}() of {} on a {}", f, v->type->str(), st->str()));
    args[1] = ts.convert(v, key);
  }
  Expr *r =
      ts.callFunction(ts.context().session().libraryFunction("_set_" + f), std::move(args), loc);
  return r ? r : ts.constOf(nullptr, loc);
}

Expr *typeDictMethod(TyperServices &ts, const std::string &f, CallSite &site) {
  SourceLoc loc = site.loc;
  struct M {
    const char *name, *lib;
    size_t minArgs, maxArgs;
  };
  static const M kDict[] = {{"get", "_dict_get", 1, 2},
                            {"pop", "_dict_pop", 1, 2},
                            {"setdefault", "_dict_setdefault", 2, 2},
                            {"keys", "_dict_keys", 0, 0},
                            {"values", "_dict_values", 0, 0},
                            {"items", "_dict_items", 0, 0},
                            {"clear", "_dict_clear", 0, 0},
                            {"copy", "_dict_copy", 0, 0},
                            {"update", "_dict_update", 1, 1},
                            {"__delitem__", "_dict_pop", 1, 1}};  // del d[k]
  const M *m = nullptr;
  for (const M &k : kDict)
    if (f == k.name) m = &k;
  if (Expr *e = methodCallError(ts, "dict", f, site, m, m ? m->minArgs : 0, m ? m->maxArgs : 0))
    return e;
  std::vector<Expr *> args = site.args;
  textArgs(ts, args);
  size_t n = args.size() - 1;
  if (hasUndefinedList(args[0]->type)) {
    // `{}` before its first item: d.get(k, default) and d.setdefault(k,
    // default) are of the default's type (which `d[k] = d.get(k, 0) + 1`
    // gives the dict); typed again once the dict has its types.
    if ((f == "get" || f == "setdefault") && n == 2) return args[2];
    return ts.constOf(nullptr, loc);
  }
  std::string lib = m->lib;
  if (f == "pop" && n == 2) lib = "_dict_pop_default";
  Expr *r = ts.callFunction(ts.context().session().libraryFunction(lib), std::move(args), loc);
  return r ? r : ts.constOf(nullptr, loc);
}

Expr *typeListPrimitive(TyperServices &ts, const std::string &f, CallSite &site) {
  if (!isListPrimitive(f)) return nullptr;
  TypeContext &tc = ts.context().types;
  SourceLoc loc = site.loc;
  auto &a = site.args;
  if (f == "_dparts") {  // a dict's four lists
    if (a.size() != 1 || !a[0]->type->isDict())
      return failWith(ts, loc, DiagCategory::Typing, "np._dparts() takes a dict");
    return ts.intrinsic(IntrinsicId::DictParts, {a[0]}, tc.dictParts(a[0]->type), loc);
  }
  if (f == "_dmake" || f == "_smake") {  // a dict (set) of four lists: keys, values, alive, table
    if (a.size() != 4 || !a[0]->type->isList() || !a[1]->type->isList())
      return failWith(ts, loc, DiagCategory::Typing, fmt::format("np.{}() takes four lists", f));
    const Type *d = f == "_smake" ? tc.set(a[0]->type->dtype())
                                  : tc.dict(a[0]->type->dtype(), a[1]->type->dtype());
    return ts.intrinsic(IntrinsicId::DictMake, a, d, loc);
  }
  size_t want = f == "_lset" ? 3 : f == "_ldtype" ? 1 : 2;
  if ((f == "_lnew" || f == "_lof") && a.size() == 2 && site.kwargs.empty() &&
      (f == "_lof" || a[0]->type->kind() != TypeKind::List)) {
    // A list of the value's type.
    if (!a[0]->type->isRuntime() || a[0]->type->isNone())
      return failWith(ts, loc, DiagCategory::Typing,
                      fmt::format("a list cannot hold {}", a[0]->type->str()));
    return ts.intrinsic(IntrinsicId::ListNew, {ts.convert(a[1], tc.int64())}, tc.list(a[0]->type),
                        loc);
  }
  if (a.size() != want || !site.kwargs.empty() || a[0]->type->kind() != TypeKind::List)
    return failWith(ts, loc, DiagCategory::Typing,
                    fmt::format("np.{}() takes a list and {} more arguments", f, want - 1));
  const Type *lt = a[0]->type, *elem = lt->dtype();
  if (f == "_lnew")
    return ts.intrinsic(IntrinsicId::ListNew, {ts.convert(a[1], tc.int64())}, lt, loc);
  if (f == "_lresize")
    return ts.intrinsic(IntrinsicId::ListResize, {a[0], ts.convert(a[1], tc.int64())}, tc.none(),
                        loc);
  if (!elem) return ts.constOf(nullptr, loc);  // (typed again once an append gives the type)
  if (f == "_ldtype") {
    if (!elem->isNumber())
      return failWith(ts, loc, DiagCategory::Unsupported,
                      fmt::format("an array cannot be made of a list of {}", elem->str()));
    return ts.constOf(tc.dtypeOf(elem), loc);
  }
  Expr *index = ts.convert(a[1], tc.int64());
  if (f == "_lget") return ts.intrinsic(IntrinsicId::ListGet, {a[0], index}, elem, loc);
  Expr *v = a[2];
  if (v->type != elem) {
    if (!storableIn(tc, elem, v->type))
      return failWith(ts, v->loc, DiagCategory::Typing,
                      fmt::format("cannot store {} in a {}", v->type->str(), lt->str()));
    v = ts.convert(v, elem);
  }
  return ts.intrinsic(IntrinsicId::ListSet, {a[0], index, v}, tc.none(), loc);
}

Expr *typeListMethod(TyperServices &ts, const std::string &f, CallSite &site) {
  SourceLoc loc = site.loc;
  const Method *m = nullptr;
  for (const Method &k : kMethods)
    if (f == k.name) m = &k;
  if (!m)
    return failWith(ts, loc, DiagCategory::Unsupported,
                    fmt::format("the list method {}() is not supported", f));
  if (ts.cudaTarget())
    return failWith(ts, loc, DiagCategory::Unsupported, "lists are not supported in kernels");
  std::vector<Expr *> args = site.args;
  textArgs(ts, args);
  size_t n = args.size() - 1;
  Expr *key = nullptr;
  if (f == "sort") {
    Expr *reverse = nullptr;
    for (auto &[k, v] : site.kwargs) {
      if (k == "key") {
        if (!v->type->isNone()) key = v;  // key=None: the elements themselves
      } else if (k == "reverse") {
        reverse = ts.truth(v);
      } else {
        return failWith(ts, loc, DiagCategory::Typing,
                        fmt::format("list.sort() got an unexpected keyword argument '{}'", k));
      }
    }
    if (key) args.push_back(key);
    if (reverse) args.push_back(reverse);
  } else if (!site.kwargs.empty()) {
    return failWith(ts, loc, DiagCategory::Typing,
                    fmt::format("list.{}() takes no keyword arguments", f));
  }
  if (n < m->minArgs || n > m->maxArgs)
    return failWith(
        ts, loc, DiagCategory::Typing,
        m->minArgs == m->maxArgs
            ? fmt::format("list.{}() takes {} argument{} ({} given)", f, m->minArgs,
                          m->minArgs == 1 ? "" : "s", n)
            : fmt::format("list.{}() takes at most {} argument ({} given)", f, m->maxArgs, n));
  // (A list whose element type is not known yet is typed again once it is.)
  if (!args[0]->type->dtype()) return ts.constOf(nullptr, loc);
  Expr *r =
      ts.callFunction(ts.context().session().libraryFunction(key ? "_list_sort_key" : "_list_" + f),
                      std::move(args), loc);
  return r ? r : ts.constOf(nullptr, loc);
}

void addListPrimitiveRows(std::vector<BuiltinEntry> &rows) {
  for (const char *n :
       {"_lget", "_lset", "_lresize", "_lnew", "_lof", "_ldtype", "_dparts", "_dmake", "_smake"})
    rows.push_back(row(n, [](BuiltinCall &c) { return typeListPrimitive(c.ts, c.f, c.site); }));
}

// The methods of each container type: the library's `_<type>_<method>`
// with the container first (a method it lacks is reported there).
const BuiltinFamily &containerFamilies(int which) {
  static const BuiltinFamily list{
      "list", {}, [](BuiltinCall &c) { return typeListMethod(c.ts, c.f, c.site); }};
  static const BuiltinFamily dict{
      "dict", {}, [](BuiltinCall &c) { return typeDictMethod(c.ts, c.f, c.site); }};
  static const BuiltinFamily set{
      "set", {}, [](BuiltinCall &c) { return typeSetMethod(c.ts, c.f, c.site); }};
  static const BuiltinFamily str{
      "str", {}, [](BuiltinCall &c) { return typeStrMethod(c.ts, c.f, c.site); }};
  const BuiltinFamily *all[] = {&list, &dict, &set, &str};
  return *all[which];
}

}  // namespace kjit
