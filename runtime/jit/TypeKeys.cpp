// TypeKeys.cpp - see TypeKeys.h.
#include "runtime/jit/TypeKeys.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>

#include "compiler/JitClass.h"
#include "runtime/jit/Errors.h"

namespace kjit::jit {

char dtypeCode(const Type *t) {
  if (t->isBool()) return 'b';
  if (t->isInt()) {
    switch (t->bits()) {
    case 8: return t->isSigned() ? '1' : '!';
    case 16: return t->isSigned() ? '2' : '@';
    case 32: return t->isSigned() ? '4' : '#';
    default: return t->isSigned() ? '8' : '$';
    }
  }
  if (t->isFloat()) {
    if (t->isFloat8()) return t->isE5M2() ? 'r' : 'q';
    return t->isBFloat16() ? 'y' : t->bits() == 16 ? 'h' : t->bits() == 32 ? 'f' : 'd';
  }
  return t->bits() == 64 ? 'F' : 'D';
}

const Type *typeOfCode(TypeContext &tc, char c) {
  switch (c) {
  case 'b': return tc.boolean();
  case '1': return tc.intTy(8, true);
  case '2': return tc.intTy(16, true);
  case '4': return tc.intTy(32, true);
  case '8': return tc.intTy(64, true);
  case '!': return tc.intTy(8, false);
  case '@': return tc.intTy(16, false);
  case '#': return tc.intTy(32, false);
  case '$': return tc.intTy(64, false);
  case 'h': return tc.floatTy(16);
  case 'y': return tc.bfloat16();
  case 'q': return tc.float8(false);
  case 'r': return tc.float8(true);
  case 'f': return tc.floatTy(32);
  case 'd': return tc.floatTy(64);
  case 'F': return tc.complexTy(64);
  case 'D': return tc.complexTy(128);
  default: return nullptr;
  }
}

char codeOfTypeNum(int num) {
  switch (num) {
  case 0: return 'b';
  case 1: return '1';
  case 2: return '!';
  case 3: return '2';
  case 4: return '@';
  case 5: return '4';
  case 6: return '#';
  case 7: return sizeof(long) == 8 ? '8' : '4';
  case 8: return sizeof(long) == 8 ? '$' : '#';
  case 9: return '8';
  case 10: return '$';
  case 11: return 'f';
  case 12: return 'd';
  case 14: return 'F';
  case 15: return 'D';
  case 23: return 'h';
  default: return 0;
  }
}

void appendArrayKey(std::string &key, char code, int ndim, char layout, bool readonly) {
  key += 'A';
  key += code;
  key += char('0' + ndim);
  key += layout;
  key += readonly ? 'r' : 'w';
}

void appendArrayKey(std::string &key, const std::string &dtypeKey, int ndim, char layout,
                    bool readonly) {
  key += 'A';
  key += dtypeKey;
  key += char('0' + ndim);
  key += layout;
  key += readonly ? 'r' : 'w';
}

std::string dtypeKey(const Type *dtype) {
  return dtype->isRecord() ? recordSpec(dtype) : std::string(1, dtypeCode(dtype));
}

const Type *typeOfKey(const Session &session, TypeContext &tc, const std::string &key, size_t &p) {
  if (p >= key.size()) return nullptr;
  char c = key[p++];
  switch (c) {
  case 'd': return tc.float64();
  case 'b': return tc.boolean();
  case '8': return tc.int64();
  case '$': return tc.intTy(64, false);
  case 'D': return tc.complexTy(128);
  case 'n': return tc.none();
  case 'S': return p < key.size() ? typeOfCode(tc, key[p++]) : nullptr;
  case 'R': return parseRecordSpec(tc, key, --p);
  case 'O': {  // a value or None: 'O' and the value's key
    const Type *e = typeOfKey(session, tc, key, p);
    return e && e->isRuntime() && !e->isNone() ? tc.optional(e) : nullptr;
  }
  case 'K': {  // a @jitclass instance: 'K', the class's id as LENGTH:ID
    size_t colon = key.find(':', p);
    if (colon == std::string::npos) return nullptr;
    size_t n = std::stoul(key.substr(p, colon - p));
    if (colon + 1 + n > key.size()) return nullptr;
    std::string id = key.substr(colon + 1, n), error;
    p = colon + 1 + n;
    return jitClassType(session, tc, id, error);
  }
  case 'U': return tc.str();  // a str
  case 'M': {                 // a dict: 'M', its key's key, its value's key
    const Type *k = typeOfKey(session, tc, key, p);
    const Type *v = k ? typeOfKey(session, tc, key, p) : nullptr;
    if (!k || !v || !k->isRuntime() || !v->isRuntime() || k->isNone() || v->isNone())
      return nullptr;
    return tc.dict(k, v);
  }
  case 'L': {  // a list: 'L' and its element's key
    const Type *e = typeOfKey(session, tc, key, p);
    return e && e->isRuntime() && !e->isNone() ? tc.list(e) : nullptr;
  }
  case 'A': {
    const Type *dt = nullptr;
    if (p < key.size() && key[p] == 'R')
      dt = parseRecordSpec(tc, key, p);
    else if (p < key.size())
      dt = typeOfCode(tc, key[p++]);
    if (!dt || p + 3 > key.size()) return nullptr;
    int nd = key[p] - '0';
    char l = key[p + 1];
    p += 3;
    if (nd < 0 || nd > 9) return nullptr;
    return tc.array(dt, unsigned(nd),
                    l == 'C'   ? Layout::C
                    : l == 'F' ? Layout::F
                               : Layout::A,
                    key[p - 1] == 'r');
  }
  case 'E': {
    // An enum member: 'E', 'i' (IntEnum) or 'e', the class's qualified
    // name as LENGTH:NAME, then the key of its value.
    if (p >= key.size()) return nullptr;
    bool isInt = key[p++] == 'i';
    size_t colon = key.find(':', p);
    if (colon == std::string::npos) return nullptr;
    size_t n = std::stoul(key.substr(p, colon - p));
    if (colon + 1 + n > key.size()) return nullptr;
    std::string cls = key.substr(colon + 1, n);
    p = colon + 1 + n;
    const Type *value = typeOfKey(session, tc, key, p);
    return value ? tc.enumMember(cls, value, isInt) : nullptr;
  }
  case 'N': {
    // A named tuple: 'N', the class's name and each field's as LENGTH:NAME
    // after the number of fields and ':', then the tuple's key.
    auto text = [&]() -> std::optional<std::string> {
      size_t colon = key.find(':', p);
      if (colon == std::string::npos) return std::nullopt;
      size_t n = std::stoul(key.substr(p, colon - p));
      if (colon + 1 + n > key.size()) return std::nullopt;
      p = colon + 1 + n;
      return key.substr(colon + 1, n);
    };
    size_t colon = key.find(':', p);
    if (colon == std::string::npos) return nullptr;
    size_t count = std::stoul(key.substr(p, colon - p));
    p = colon + 1;
    auto cls = text();
    if (!cls) return nullptr;
    std::vector<std::string> fields;
    for (size_t i = 0; i < count; ++i) {
      auto f = text();
      if (!f) return nullptr;
      fields.push_back(*f);
    }
    const Type *t = typeOfKey(session, tc, key, p);
    if (!t || !t->isTuple() || t->elements().size() != count) return nullptr;
    return tc.namedTuple(*cls, std::move(fields), t->elements());
  }
  case '(': {
    std::vector<const Type *> elems;
    while (p < key.size() && key[p] != ')') {
      const Type *e = typeOfKey(session, tc, key, p);
      if (!e) return nullptr;
      elems.push_back(e);
    }
    if (p >= key.size()) return nullptr;
    ++p;
    return tc.tuple(elems);
  }
  default: return nullptr;
  }
}

std::vector<const Type *> typesOfKey(const Session &session, TypeContext &tc,
                                     const std::string &key) {
  std::vector<const Type *> types;
  size_t p = 0;
  while (p < key.size()) {
    const Type *t = typeOfKey(session, tc, key, p);
    if (!t) throw valueError("kjit: bad argument type key '" + key + "'");
    types.push_back(t);
  }
  return types;
}

void appendNamedTupleKey(std::string &key, const std::string &cls,
                         const std::vector<std::string> &fields) {
  key += 'N';
  key += std::to_string(fields.size());
  key += ':';
  key += std::to_string(cls.size()) + ":" + cls;
  for (const std::string &f : fields) key += std::to_string(f.size()) + ":" + f;
}

void appendEnumKey(std::string &key, const std::string &cls, bool isIntEnum) {
  key += 'E';
  key += isIntEnum ? 'i' : 'e';
  key += std::to_string(cls.size());
  key += ':';
  key += cls;
}

std::string keyOfType(const Type *t) {
  if (t->isRecord()) return recordSpec(t);
  if (t->isString()) return "U";
  if (t->isJitClass()) return fmt::format("K{}:{}", t->symbol().size(), t->symbol());
  if (t->isList()) return "L" + (t->dtype() ? keyOfType(t->dtype()) : std::string("n"));
  if (t->isOptional()) return "O" + keyOfType(t->dtype());
  if (t->isSet()) return "Z" + (t->keyType() ? keyOfType(t->keyType()) : std::string("n"));
  if (t->isDict())
    return "M" + (t->keyType() ? keyOfType(t->keyType()) : std::string("n")) +
           (t->valueType() ? keyOfType(t->valueType()) : std::string("n"));
  if (t->isEnumMember()) {
    std::string s;
    appendEnumKey(s, t->symbol(), t->isIntEnum());
    return s + keyOfType(t->dtype());
  }
  if (t->isArray()) {
    std::string s;
    appendArrayKey(s, dtypeKey(t->dtype()), int(t->ndim()),
                   t->layout() == Layout::C   ? 'C'
                   : t->layout() == Layout::F ? 'F'
                                              : 'A',
                   t->readonly());
    return s;
  }
  if (t->isTuple()) {
    std::string s;
    if (!t->fieldNames().empty()) appendNamedTupleKey(s, t->symbol(), t->fieldNames());
    s += "(";
    for (const Type *e : t->elements()) s += keyOfType(e);
    return s + ")";
  }
  if (t->isNone()) return "n";
  char c = dtypeCode(t);
  if (c == 'd' || c == 'b' || c == '8' || c == '$' || c == 'D') return std::string(1, c);
  return std::string("S") + c;
}

std::string keyOfTypes(const std::vector<const Type *> &ts) {
  std::string key;
  for (const Type *t : ts) key += keyOfType(t);
  return key;
}

std::string describeTypes(const std::vector<const Type *> &ts) {
  std::string s;
  for (const Type *t : ts) s += (s.empty() ? "" : ", ") + t->str();
  return s;
}

static std::string numbaRepr(const Type *t) {
  if (t->isArray())
    return fmt::format("Array({}, {}, '{}', {}, aligned=True)", numbaRepr(t->dtype()), t->ndim(),
                       "CFA"[int(t->layout())], t -> readonly() ? "True" : "False");
  if (t->isTuple()) {
    const auto &es = t->elements();
    bool uniform =
        !es.empty() && std::all_of(es.begin(), es.end(), [&](auto *e) { return e == es[0]; });
    if (uniform) return fmt::format("UniTuple({}, {})", numbaRepr(es[0]), es.size());
    return "Tuple(" + numbaReprs(es) + ")";
  }
  return t->str();
}

std::string numbaReprs(const std::vector<const Type *> &ts) {
  std::string s;
  for (const Type *t : ts) s += (s.empty() ? "" : ", ") + numbaRepr(t);
  return s;
}

std::string describeKey(const Session &session, const std::string &key) {
  TypeContext tc;
  return describeTypes(typesOfKey(session, tc, key));
}

std::string cannotTakeMessage(const std::string &what, size_t index, const std::string &param,
                              const std::string &typeName) {
  std::string p = param.empty() ? "" : " ('" + param + "')";
  return fmt::format("{}: argument {}{} has a type kernels cannot take: {}", what, index + 1, p,
                     typeName);
}

const Type *sameTypeIn(TypeContext &tc, const Type *t) {
  if (t->isEnumMember())
    return tc.enumMember(t->symbol(), sameTypeIn(tc, t->dtype()), t->isIntEnum());
  if (t->isArray())
    return tc.array(sameTypeIn(tc, t->dtype()), t->ndim(), t->layout(), t->readonly());
  if (t->isString()) return tc.str();
  if (t->isJitClass())  // the class's id and name, its fields' named tuple
    return tc.jitClass(t->symbol(), t->dtype()->symbol(), sameTypeIn(tc, t->dtype()));
  if (t->isList()) return tc.list(t->dtype() ? sameTypeIn(tc, t->dtype()) : nullptr);
  if (t->isOptional()) return tc.optional(sameTypeIn(tc, t->dtype()));
  if (t->isSet()) return tc.set(t->keyType() ? sameTypeIn(tc, t->keyType()) : nullptr);
  if (t->isDict())
    return tc.dict(t->keyType() ? sameTypeIn(tc, t->keyType()) : nullptr,
                   t->valueType() ? sameTypeIn(tc, t->valueType()) : nullptr);
  if (t->isTuple()) {
    std::vector<const Type *> e;
    for (const Type *x : t->elements()) e.push_back(sameTypeIn(tc, x));
    if (!t->fieldNames().empty()) return tc.namedTuple(t->symbol(), t->fieldNames(), e);
    return tc.tuple(e);
  }
  if (t->kind() == TypeKind::Void) return tc.voidTy();
  if (t->isNone()) return tc.none();
  if (t->isRecord()) return tc.dtypeByName(recordSpec(t));
  if (t->isBool()) return tc.boolean();
  return tc.scalarByName(t->str());
}

// ---- memory forms -------------------------------------------------------------
// Natural alignment, bool as one byte; an array is {meminfo, data,
// shape[n], strides[n]}.

size_t memAlign(const Type *t) {
  if (t->isEnumMember() || t->isOptional()) return memAlign(t->dtype());
  if (t->isArray() || t->isRecord() || t->kind() == TypeKind::List || t->isDict()) return 8;
  if (t->isBool() || t->isNone()) return 1;
  if (t->isTuple()) {
    size_t a = 1;
    for (const Type *e : t->elements()) a = std::max(a, memAlign(e));
    return a;
  }
  if (t->isComplex()) return t->bits() / 16;
  return t->bits() / 8;
}

size_t memSize(const Type *t) {
  if (t->isEnumMember()) return memSize(t->dtype());
  if (t->isOptional()) {  // { value, one byte: valid }
    size_t a = memAlign(t->dtype());
    return (memSize(t->dtype()) + 1 + a - 1) / a * a;
  }
  if (t->isArray()) return 16 + 16 * t->ndim();
  if (t->isRecord() || t->kind() == TypeKind::List)
    return 8;                  // a pointer to the record's bytes, the KjitList
  if (t->isDict()) return 32;  // its four lists
  if (t->isBool() || t->isNone()) return 1;
  if (t->isTuple()) {
    size_t off = 0, a = memAlign(t);
    for (const Type *e : t->elements()) {
      size_t ea = memAlign(e);
      off = (off + ea - 1) / ea * ea + memSize(e);
    }
    return (off + a - 1) / a * a;
  }
  return t->bits() / 8;
}

}  // namespace kjit::jit
