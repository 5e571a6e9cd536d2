// TypeLists.cpp - typing Python's lists: displays, subscripts, the element
// type of `[]` (refined by what is appended to it, as Numba refines an
// empty list), and the operators. What lists do at run time is the
// builtins library's (compiler/lib/builtins/lists.kjit) over the primitives of
// builtins/Containers.cpp.
#include "compiler/Session.h"
#include "compiler/TyperImpl.h"

namespace kjit::typing {

Expr *FunctionTyper::listLib(const char *name, std::vector<Expr *> args, SourceLoc loc) {
  for (Expr *&x : args) x = runtimeString(x);  // (a dict's key, a list's element)
  Expr *r = callFunction(ctx_.session().libraryFunction(name), std::move(args), loc);
  return r ? r : unknown(loc);
}

// [a, b, c]: the elements unified (numbers promote, as Numba's list
// displays); [] is list(undefined) until an append gives it a type.
Expr *FunctionTyper::listLiteral(const ast::ListExpr *l) {
  if (cudaTarget() && l->comprehension)
    return unsupported(
        l->loc, fmt::format("{} is not supported in kernels; write a loop", l->comprehension));
  if (cudaTarget())
    return unsupported(l->loc,
                       "lists are not supported in kernels; use a tuple, or an array from "
                       "cuda.local.array");
  if (l->elts.empty())
    return ir_.intrinsic(IntrinsicId::ListNew, {constInt(0, l->loc)}, tc_.list(nullptr), l->loc);
  std::vector<Expr *> elems;
  const Type *t = nullptr;
  bool ok = true;
  for (const ast::Expr *x : l->elts) {
    Expr *v = runtimeString(expr(x));
    if (!known(v)) {
      ok = false;
      continue;
    }
    if (!v->type->isRuntime() || v->type->isNone())
      return typingError(x->loc, fmt::format("a list cannot hold {}", v->type->str()));
    const Type *u = t ? unify(tc_, t, v->type) : v->type;
    if (!u || !u->isRuntime())
      return typingError(x->loc, fmt::format("cannot unify {} and {} in a list display", t->str(),
                                             v->type->str()));
    t = u;
    elems.push_back(v);
  }
  if (!ok) return unknown(l->loc);
  for (Expr *&v : elems) v = castTo(v, t);
  return listLib("_list_from_tuple", {ir_.tupleMake(std::move(elems), l->loc)}, l->loc);
}

// The bounds of seq[a:b:c] appended to args: int64s, or None for a
// missing part; false after an error.
bool FunctionTyper::sliceParts(const ast::SliceExpr *sl, std::vector<Expr *> &args, SourceLoc loc) {
  for (const ast::Expr *part : {sl->lower, sl->upper, sl->step}) {
    Expr *v = part ? expr(part) : constOf(tc_.none(), loc);
    if (!known(v)) return false;
    if (!v->type->isNone() && !v->type->isInt() && !v->type->isBool()) {
      typingError(part->loc,
                  fmt::format("slice indices must be integers or None, not {}", v->type->str()));
      return false;
    }
    args.push_back(v->type->isNone() ? v : castTo(v, tc_.int64()));
  }
  return true;
}

// seq[a:b:c] of a list or a str: a new one of the elements (_list_slice).
Expr *FunctionTyper::sliceOf(Expr *seq, const ast::SliceExpr *sl, SourceLoc loc) {
  std::vector<Expr *> args{seq};
  if (!sliceParts(sl, args, loc)) return unknown(loc);
  return listLib("_list_slice", std::move(args), loc);
}

// l[a:b:c] = items: Python's rules (a plain slice takes any number of
// items; an extended one exactly as many as it has elements).
Expr *FunctionTyper::assignSliceOf(Expr *list, const ast::SliceExpr *sl, Expr *items,
                                   SourceLoc loc) {
  const Type *elem = iteratedType(items->type);
  if (!elem)
    return typingError(loc, fmt::format("can only assign an iterable to a list's slice, not {}",
                                        items->type->str()));
  if (!storableIn(tc_, list->type->dtype(), elem))
    return typingError(
        loc, fmt::format("cannot store {} items in a slice of {}", elem->str(), list->type->str()));
  std::vector<Expr *> args{list};
  if (!sliceParts(sl, args, loc)) return unknown(loc);
  args.push_back(items);
  return listLib("_list_setslice", std::move(args), loc);
}

// l[i] and l[a:b:c].
Expr *FunctionTyper::listSubscript(Expr *l, const std::vector<const ast::Expr *> &idx,
                                   SourceLoc loc) {
  if (idx.size() != 1)
    return typingError(loc, "list indices must be integers or slices, not tuple");
  if (auto *sl = ast::dyn_cast<ast::SliceExpr>(idx[0])) return sliceOf(l, sl, loc);
  Expr *i = expr(idx[0]);
  if (!known(i)) return i;
  if (!i->type->isInt() && !i->type->isBool())
    return typingError(idx[0]->loc, fmt::format("list indices must be integers or slices, not {}",
                                                i->type->str()));
  return listLib("_list_getitem", {l, castTo(i, tc_.int64())}, loc);
}

// `receiver.method(args...)` on a variable whose list has no element type
// yet: the appended value gives it one (the passes repeat with it).
void FunctionTyper::refineList(const ast::Expr *receiver, const std::string &method,
                               const std::vector<Expr *> &args) {
  auto *n = ast::dyn_cast<ast::NameExpr>(receiver);
  if (!n || args.empty() || !known(args[0]) || !args[0]->type->isList()) return;
  VarInfo &info = vars_[localName(n->name)];
  if (!info.type || !info.type->isList() || info.type->dtype()) return;
  const Type *elem = nullptr;
  if (method == "append" && args.size() == 2 && known(args[1])) elem = args[1]->type;
  if (method == "insert" && args.size() == 3 && known(args[2])) elem = args[2]->type;
  if (method == "extend" && args.size() == 2 && known(args[1])) {
    const Type *s = args[1]->type;
    if (s->isList() || (s->isArray() && s->ndim() == 1)) elem = s->dtype();
    if (s->isHomogeneousTuple()) elem = s->elements()[0];
  }
  if (elem && elem->kind() == TypeKind::StringLit) elem = tc_.str();
  if (!elem || !elem->isRuntime() || elem->isNone()) return;
  if (elem->isList() && !elem->dtype()) return;
  info.type = tc_.list(elem);
  changed_ = true;
}

Expr *FunctionTyper::emptyDict(const Type *t, SourceLoc loc) {
  // A dict's table: [count, inserted, 8 slots]; a set's keys: 16 slots, its
  // table [used, fill, finger, 16 slots] (compiler/lib/builtins/dicts.kjit, sets.kjit).
  const Type *parts = tc_.dictParts(t);
  const int64_t sizes[2][4] = {{0, 0, 0, 10}, {16, 0, 0, 19}};
  std::vector<Expr *> lists;
  for (size_t i = 0; i < 4; ++i)
    lists.push_back(ir_.intrinsic(IntrinsicId::ListNew, {constInt(sizes[t->isSet()][i], loc)},
                                  parts->elements()[i], loc));
  return ir_.cast(t, ir_.tupleMake(std::move(lists), loc), loc);
}

// {k: v, ...}: keys and values unified each (numbers promote); {} has
// undefined types until an item is stored.
Expr *FunctionTyper::dictLiteral(const ast::DictExpr *d) {
  if (cudaTarget()) return unsupported(d->loc, "dicts are not supported in kernels");
  if (d->keys.empty()) return emptyDict(tc_.dict(nullptr, nullptr), d->loc);
  std::vector<Expr *> ks, vs;
  const Type *kt = nullptr, *vt = nullptr;
  for (size_t i = 0; i < d->keys.size(); ++i) {
    Expr *k = runtimeString(expr(d->keys[i])), *v = runtimeString(expr(d->values[i]));
    if (!known(k) || !known(v)) return unknown(d->loc);
    for (auto [x, t, what] : {std::tuple{k, &kt, "key"}, std::tuple{v, &vt, "value"}}) {
      if (!x->type->isRuntime() || x->type->isNone())
        return typingError(x->loc, fmt::format("a dict {} cannot be {}", what, x->type->str()));
      const Type *u = *t ? unify(tc_, *t, x->type) : x->type;
      if (!u || !u->isRuntime())
        return typingError(x->loc, fmt::format("cannot unify {} and {} in a dict display",
                                               (*t)->str(), x->type->str()));
      *t = u;
    }
    ks.push_back(k);
    vs.push_back(v);
  }
  for (Expr *&k : ks) k = castTo(k, kt);
  for (Expr *&v : vs) v = castTo(v, vt);
  return listLib("_dict_from_tuples",
                 {ir_.tupleMake(std::move(ks), d->loc), ir_.tupleMake(std::move(vs), d->loc)},
                 d->loc);
}

void FunctionTyper::refineDict(const ast::Expr *receiver, const Type *key, const Type *value) {
  auto *n = ast::dyn_cast<ast::NameExpr>(receiver);
  if (!n || !key || !value) return;
  if (key->kind() == TypeKind::StringLit) key = tc_.str();
  if (value->kind() == TypeKind::StringLit) value = tc_.str();
  VarInfo &info = vars_[localName(n->name)];
  if (!info.type || !info.type->isDict() || (info.type->keyType() && info.type->valueType()))
    return;
  for (const Type *t : {key, value})
    if (!t->isRuntime() || t->isNone() || hasUndefinedList(t)) return;
  const Type *u = unify(tc_, info.type, tc_.dict(key, value));
  if (!u || u == info.type) return;
  info.type = u;
  changed_ = true;
}

namespace {

// The type a `types.X` argument names (List.empty_list(types.int64)).
const Type *namedType(const Expr *e) {
  if (e->type->kind() == TypeKind::Dtype) return e->type->dtype();
  return nullptr;
}

}  // namespace

Expr *FunctionTyper::typedContainer(const ast::CallExpr *c, const std::string &fn) {
  if (cudaTarget())
    return unsupported(c->loc,
                       fmt::format("{}() allocates memory, which kernels cannot do", fn.substr(5)));
  std::vector<Expr *> args;
  std::map<std::string, Expr *> kw;
  for (const ast::Expr *x : c->args) {
    Expr *v = expr(x);
    if (!known(v)) return v;
    args.push_back(v);
  }
  for (const ast::Keyword &k : c->keywords) {
    Expr *v = expr(k.value);
    if (!known(v)) return v;
    kw[k.name] = v;
  }
  auto typeArg = [&](size_t i, const char *name) -> const Type * {
    Expr *e = i < args.size() ? args[i] : kw.count(name) ? kw[name] : nullptr;
    return e ? namedType(e) : nullptr;
  };
  if (fn == "kjit.typed.List") {  // List(): [] typed by its appends; List(seq): list(seq)
    if (!kw.empty() || args.size() > 1)
      return typingError(c->loc, "List() takes at most one argument, an iterable");
    if (args.empty())
      return ir_.intrinsic(IntrinsicId::ListNew, {constInt(0, c->loc)}, tc_.list(nullptr), c->loc);
    return listLib("_builtin_list", {args[0]}, c->loc);
  }
  if (fn == "kjit.typed.List.empty_list") {
    const Type *t = typeArg(0, "item_type");
    if (!t)
      return typingError(c->loc,
                         "List.empty_list() takes the item type: a type of kjit.types "
                         "(types.int64, types.unicode_type ...)");
    return ir_.intrinsic(IntrinsicId::ListNew, {constInt(0, c->loc)}, tc_.list(t), c->loc);
  }
  if (fn == "kjit.typed.Dict") {
    if (!args.empty() || !kw.empty())
      return typingError(c->loc,
                         "Dict() takes no arguments; Dict.empty(key_type, value_type) "
                         "makes an empty dict of those types");
    return emptyDict(tc_.dict(nullptr, nullptr), c->loc);
  }
  if (fn == "kjit.typed.Dict.empty") {
    const Type *k = typeArg(0, "key_type"), *v = typeArg(1, "value_type");
    if (!k || !v)
      return typingError(c->loc,
                         "Dict.empty() takes key_type and value_type: types of "
                         "kjit.types (types.int64, types.unicode_type ...)");
    return emptyDict(tc_.dict(k, v), c->loc);
  }
  return unsupported(c->loc, fmt::format("{}() is not supported", fn.substr(5)));
}

void FunctionTyper::undefinedContainer(const Expr *e) {
  const Type *t = e->type;
  const char *what = t->isSet() ? "set" : t->isDict() ? "dict" : "list";
  const char *how = t->isSet() ? "start it with a value ({x}), or add one to a variable first"
                    : t->isDict()
                        ? "start it with an item ({key: value}), or use "
                          "Dict.empty(key_type, value_type)"
                        : "start it with a value ([x]), or use List.empty_list(item_type)";
  typingError(e->loc, fmt::format("cannot infer the types of this empty {}: nothing is stored in "
                                  "it; {}",
                                  what, how));
}

// After the final pass: a list whose elements never got a type.
void FunctionTyper::checkUndefinedLists() {
  for (auto &[name, info] : vars_) {
    if (!info.type || info.conflictReported || name.empty() || name[0] == '$') continue;
    if (info.type->isSet() && !info.type->keyType()) {
      typingError(info.firstLoc,
                  fmt::format("cannot infer the type of the set '{}': nothing is added to it "
                              "here; add a value to it (s.add(x)), or start it with one ({{x}})",
                              name));
      continue;
    }
    if (info.type->isDict() && (!info.type->keyType() || !info.type->valueType())) {
      typingError(info.firstLoc,
                  fmt::format("cannot infer the types of the dict '{}': no item is stored in it "
                              "here; store one (d[key] = value), or start it with one",
                              name));
      continue;
    }
    if (!info.type->isList() || info.type->dtype()) continue;
    typingError(info.firstLoc,
                fmt::format("cannot infer the type of the list '{}': nothing is appended to it "
                            "here; append a value to it, or start it with one ([x])",
                            name));
  }
}

}  // namespace kjit::typing
