#include "compiler/Types.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "frontend/support/BFloat16.h"
#include "frontend/support/KernelAbi.h"

namespace kjit {

TypeContext::TypeContext() {
  auto mk = [&](TypeKind k, const char *name) {
    auto t = std::make_unique<Type>();
    t->kind_ = k;
    t->name_ = name;
    return intern(std::move(t));
  };
  void_ = mk(TypeKind::Void, "void");
  none_ = mk(TypeKind::None, "none");
  auto b = std::make_unique<Type>();
  b->kind_ = TypeKind::Bool;
  b->bits_ = 8;
  b->name_ = "bool";
  bool_ = intern(std::move(b));
}

const Type *TypeContext::intern(std::unique_ptr<Type> t, const std::string &key) {
  auto it = types_.find(key);
  if (it != types_.end()) return it->second.get();
  const Type *raw = t.get();
  types_.emplace(key, std::move(t));
  return raw;
}

const Type *TypeContext::intTy(unsigned bits, bool isSigned) {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::Int;
  t->bits_ = bits;
  t->signed_ = isSigned;
  t->name_ = fmt::format("{}int{}", isSigned ? "" : "u", bits);
  return intern(std::move(t));
}

const Type *TypeContext::floatTy(unsigned bits) {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::Float;
  t->bits_ = bits;
  t->signed_ = true;
  t->name_ = fmt::format("float{}", bits);
  return intern(std::move(t));
}

const Type *TypeContext::bfloat16() {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::Float;
  t->bits_ = 16;
  t->signed_ = true;
  t->brain_ = true;
  t->name_ = "bfloat16";
  return intern(std::move(t));
}

const Type *TypeContext::float8(bool e5m2) {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::Float;
  t->bits_ = 8;
  t->signed_ = true;
  t->brain_ = e5m2;
  t->name_ = e5m2 ? "float8_e5m2" : "float8_e4m3fn";
  return intern(std::move(t));
}

const Type *TypeContext::complexTy(unsigned bits) {
  const Type *part = floatTy(bits / 2);
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::Complex;
  t->bits_ = bits;
  t->signed_ = true;
  t->elem_ = part;
  t->name_ = fmt::format("complex{}", bits);
  return intern(std::move(t));
}

const Type *TypeContext::array(const Type *dtype, unsigned ndim, Layout layout, bool readonly) {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::Array;
  t->elem_ = dtype;
  t->ndim_ = ndim;
  t->layout_ = layout;
  t->readonly_ = readonly;
  const char *lay = layout == Layout::C ? "C" : layout == Layout::F ? "F" : "A";
  t->name_ =
      fmt::format("{}array({}, {}d, {})", readonly ? "readonly " : "", dtype->str(), ndim, lay);
  return intern(std::move(t));
}

const Type *TypeContext::tuple(std::vector<const Type *> elems) {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::Tuple;
  bool uniform = !elems.empty();
  for (const Type *e : elems) uniform &= e == elems[0];
  if (uniform) {
    t->name_ = fmt::format("UniTuple({} x {})", elems[0]->str(), elems.size());
  } else {
    std::string s = "Tuple(";
    for (size_t i = 0; i < elems.size(); ++i) s += (i ? ", " : "") + elems[i]->str();
    t->name_ = s + ")";
  }
  t->elems_ = std::move(elems);
  return intern(std::move(t));
}

const Type *TypeContext::namedTuple(const std::string &cls, std::vector<std::string> fields,
                                    std::vector<const Type *> elems) {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::Tuple;
  std::string s = "NamedTuple(" + cls;
  for (size_t i = 0; i < elems.size(); ++i) s += ", " + fields[i] + ": " + elems[i]->str();
  t->name_ = s + ")";
  t->symbol_ = cls;
  t->fieldNames_ = std::move(fields);
  t->elems_ = std::move(elems);
  return intern(std::move(t));
}

const Type *TypeContext::list(const Type *elem) {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::List;
  t->elem_ = elem;
  t->name_ = fmt::format("list({})", elem ? elem->str() : std::string("undefined"));
  return intern(std::move(t));
}

const Type *TypeContext::optional(const Type *value) {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::Optional;
  t->elem_ = value;
  t->name_ = fmt::format("OptionalType({})", value->str());
  return intern(std::move(t));
}

const Type *TypeContext::dict(const Type *key, const Type *value) {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::Dict;
  t->elem_ = key;
  t->value_ = value;
  t->name_ = fmt::format("DictType[{},{}]", key ? key->str() : std::string("undefined"),
                         value ? value->str() : std::string("undefined"));
  return intern(std::move(t));
}

const Type *TypeContext::str() {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::List;
  t->str_ = true;
  t->elem_ = intTy(32, false);
  t->name_ = "unicode_type";
  return intern(std::move(t));
}

const Type *TypeContext::jitClass(const std::string &id, const std::string &name,
                                  const Type *fields) {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::List;
  t->class_ = true;
  t->elem_ = fields;
  t->symbol_ = id;
  std::string body;
  for (size_t i = 0; i < fields->elements().size(); ++i)
    body +=
        fmt::format("{}{}:{}", i ? "," : "", fields->fieldNames()[i], fields->elements()[i]->str());
  t->name_ = fmt::format("instance.jitclass.{}<{}>", name, body);
  return intern(std::move(t), "jitclass " + id);
}

const Type *TypeContext::set(const Type *key) {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::Dict;
  t->set_ = true;
  t->elem_ = key;
  t->value_ = boolean();
  t->name_ = fmt::format("set({})", key ? key->str() : std::string("undefined"));
  return intern(std::move(t));
}

const Type *TypeContext::dictParts(const Type *d) {
  return tuple({list(d->keyType()), list(d->valueType()), list(boolean()), list(int64())});
}

const Type *TypeContext::range() {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::Range;
  t->name_ = "range_state64";
  return intern(std::move(t));
}

#define KJIT_NAMED_TYPE(method, KIND, prefix)                \
  const Type *TypeContext::method(const std::string &name) { \
    auto t = std::make_unique<Type>();                       \
    t->kind_ = TypeKind::KIND;                               \
    t->symbol_ = name;                                       \
    t->name_ = std::string(prefix) + "(" + name + ")";       \
    return intern(std::move(t));                             \
  }
KJIT_NAMED_TYPE(module, Module, "Module")
KJIT_NAMED_TYPE(function, Function, "Function")
KJIT_NAMED_TYPE(stringLit, StringLit, "Literal[str]")
KJIT_NAMED_TYPE(exceptionClass, ExceptionClass, "ExceptionClass")
#undef KJIT_NAMED_TYPE

const Type *TypeContext::enumMember(const std::string &cls, const Type *value, bool isIntEnum) {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::EnumMember;
  t->elem_ = value;
  t->signed_ = isIntEnum;
  t->symbol_ = cls;
  t->name_ =
      fmt::format("{}({}, {})", isIntEnum ? "IntEnumMember" : "EnumMember", cls, value->str());
  return intern(std::move(t));
}

const Type *TypeContext::enumClass(const std::string &cls, bool isIntEnum) {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::EnumClass;
  t->signed_ = isIntEnum;
  t->symbol_ = cls;
  t->name_ = fmt::format("{}({})", isIntEnum ? "IntEnumClass" : "EnumClass", cls);
  return intern(std::move(t));
}

const Type *TypeContext::dtypeOf(const Type *scalar) {
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::Dtype;
  t->elem_ = scalar;
  t->symbol_ = scalar->str();
  t->name_ = "dtype(" + scalar->str() + ")";
  return intern(std::move(t));
}

namespace {

struct ScalarSpec {
  const char *name;
  TypeKind kind;
  unsigned bits;
  bool isSigned;
};

// NumPy's and Numba's scalar names (aliases included); bool is separate.
const ScalarSpec *findScalar(const std::string &n) {
  static const ScalarSpec table[] = {
      {"int8", TypeKind::Int, 8, true},
      {"int16", TypeKind::Int, 16, true},
      {"int32", TypeKind::Int, 32, true},
      {"int64", TypeKind::Int, 64, true},
      {"uint8", TypeKind::Int, 8, false},
      {"uint16", TypeKind::Int, 16, false},
      {"uint32", TypeKind::Int, 32, false},
      {"uint64", TypeKind::Int, 64, false},
      {"intp", TypeKind::Int, 64, true},
      {"uintp", TypeKind::Int, 64, false},
      {"intc", TypeKind::Int, 32, true},
      {"uintc", TypeKind::Int, 32, false},
      {"byte", TypeKind::Int, 8, true},
      {"ubyte", TypeKind::Int, 8, false},
      {"short", TypeKind::Int, 16, true},
      {"ushort", TypeKind::Int, 16, false},
      {"int_", TypeKind::Int, 64, true},
      {"uint", TypeKind::Int, 64, false},
      {"longlong", TypeKind::Int, 64, true},
      {"ulonglong", TypeKind::Int, 64, false},
      {"i1", TypeKind::Int, 8, true},
      {"i2", TypeKind::Int, 16, true},
      {"i4", TypeKind::Int, 32, true},
      {"i8", TypeKind::Int, 64, true},
      {"u1", TypeKind::Int, 8, false},
      {"u2", TypeKind::Int, 16, false},
      {"u4", TypeKind::Int, 32, false},
      {"u8", TypeKind::Int, 64, false},
      {"float16", TypeKind::Float, 16, true},
      {"half", TypeKind::Float, 16, true},
      {"f2", TypeKind::Float, 16, true},
      {"float32", TypeKind::Float, 32, true},
      {"single", TypeKind::Float, 32, true},
      {"f4", TypeKind::Float, 32, true},
      {"float64", TypeKind::Float, 64, true},
      {"double", TypeKind::Float, 64, true},
      {"float_", TypeKind::Float, 64, true},
      {"f8", TypeKind::Float, 64, true},
      {"complex64", TypeKind::Complex, 64, true},
      {"csingle", TypeKind::Complex, 64, true},
      {"c8", TypeKind::Complex, 64, true},
      {"complex128", TypeKind::Complex, 128, true},
      {"cdouble", TypeKind::Complex, 128, true},
      {"complex_", TypeKind::Complex, 128, true},
      {"c16", TypeKind::Complex, 128, true},
  };
  for (const ScalarSpec &e : table)
    if (n == e.name) return &e;
  return nullptr;
}

bool isBoolName(const std::string &n) {
  return n == "bool_" || n == "boolean" || n == "bool" || n == "b1";
}

bool isBFloat16Name(const std::string &n) { return n == "bfloat16" || n == "bf16"; }
bool isFloat8Name(const std::string &n) { return n == "float8_e4m3fn" || n == "float8_e5m2"; }

}  // namespace

std::string canonicalScalarName(const std::string &n) {
  if (isBoolName(n)) return "bool";
  if (isBFloat16Name(n)) return "bfloat16";
  if (isFloat8Name(n)) return n;
  const ScalarSpec *e = findScalar(n);
  if (!e) return "";
  if (e->kind == TypeKind::Int) return fmt::format("{}int{}", e->isSigned ? "" : "u", e->bits);
  return fmt::format("{}{}", e->kind == TypeKind::Float ? "float" : "complex", e->bits);
}

const Type *TypeContext::scalarByName(const std::string &n) {
  if (isBoolName(n)) return bool_;
  if (isBFloat16Name(n)) return bfloat16();
  if (isFloat8Name(n)) return float8(n == "float8_e5m2");
  const ScalarSpec *e = findScalar(n);
  if (!e) return nullptr;
  if (e->kind == TypeKind::Int) return intTy(e->bits, e->isSigned);
  if (e->kind == TypeKind::Float) return floatTy(e->bits);
  return complexTy(e->bits);
}

const Type *TypeContext::dtypeByName(const std::string &n) {
  if (!n.empty() && n[0] == 'R') {
    size_t p = 0;
    const Type *t = parseRecordSpec(*this, n, p);
    return t && p == n.size() ? t : nullptr;
  }
  return scalarByName(n);
}

// ---- records -----------------------------------------------------------------------

namespace {

std::string shapeText(const std::vector<int64_t> &shape, const char *sep) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? sep : "") + std::to_string(shape[i]);
  return s;
}

}  // namespace

std::string shapeTupleText(const std::vector<int64_t> &shape) {
  return "(" + shapeText(shape, ", ") + (shape.size() == 1 ? ",)" : ")");
}

std::string fieldTypeName(const RecordField &f) {
  if (f.shape.empty()) return f.dtype->str();
  return fmt::format("nestedarray({}, {})", f.dtype->str(), shapeTupleText(f.shape));
}

const Type *TypeContext::record(std::vector<RecordField> fields, int64_t size, bool aligned) {
  std::stable_sort(fields.begin(), fields.end(), [](const RecordField &a, const RecordField &b) {
    return a.offset != b.offset ? a.offset < b.offset : a.name < b.name;
  });
  std::string spec = fmt::format("R{}{}{{", size, aligned ? 'a' : 'u');
  std::string name = "Record(";
  for (size_t i = 0; i < fields.size(); ++i) {
    const RecordField &f = fields[i];
    spec += fmt::format("{}{}:{}@{}:", i ? ";" : "", f.name.size(), f.name, f.offset);
    if (!f.shape.empty()) spec += "[" + shapeText(f.shape, ",") + "]";
    spec += f.dtype->isRecord() ? recordSpec(f.dtype) : f.dtype->str();
    name +=
        fmt::format("{}{}[type={};offset={}]", i ? "," : "", f.name, fieldTypeName(f), f.offset);
  }
  spec += "}";
  name += fmt::format(";{};{})", size, aligned ? "True" : "False");
  auto t = std::make_unique<Type>();
  t->kind_ = TypeKind::Record;
  t->fields_ = std::move(fields);
  t->size_ = size;
  t->aligned_ = aligned;
  t->symbol_ = spec;
  t->name_ = std::move(name);
  // Keyed by the spec, which no printed name can equal (names have no '{').
  return intern(std::move(t), spec);
}

const std::string &recordSpec(const Type *record) { return record->symbol(); }

namespace {

bool readNumber(const std::string &s, size_t &p, int64_t &out) {
  size_t b = p;
  while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) ++p;
  if (b == p || p - b > 18) return false;
  out = std::stoll(s.substr(b, p - b));
  return true;
}

}  // namespace

const Type *parseRecordSpec(TypeContext &tc, const std::string &s, size_t &p) {
  int64_t size = 0;
  if (p >= s.size() || s[p] != 'R') return nullptr;
  ++p;
  if (!readNumber(s, p, size) || p + 1 >= s.size()) return nullptr;
  char flag = s[p++];
  if ((flag != 'a' && flag != 'u') || s[p++] != '{') return nullptr;
  std::vector<RecordField> fields;
  while (p < s.size() && s[p] != '}') {
    if (!fields.empty() && s[p++] != ';') return nullptr;
    RecordField f;
    int64_t len = 0;
    if (!readNumber(s, p, len) || p >= s.size() || s[p++] != ':' || p + size_t(len) > s.size())
      return nullptr;
    f.name = s.substr(p, size_t(len));
    p += size_t(len);
    if (p >= s.size() || s[p++] != '@' || !readNumber(s, p, f.offset) || p >= s.size() ||
        s[p++] != ':')
      return nullptr;
    if (p < s.size() && s[p] == '[') {
      ++p;
      for (;;) {
        int64_t d = 0;
        if (!readNumber(s, p, d) || p >= s.size()) return nullptr;
        f.shape.push_back(d);
        if (s[p] == ']') break;
        if (s[p++] != ',') return nullptr;
      }
      ++p;
    }
    if (p < s.size() && s[p] == 'R') {
      f.dtype = parseRecordSpec(tc, s, p);
    } else {
      size_t b = p;
      while (p < s.size() && (std::isalnum(static_cast<unsigned char>(s[p])) || s[p] == '_')) ++p;
      f.dtype = tc.scalarByName(s.substr(b, p - b));
    }
    if (!f.dtype) return nullptr;
    fields.push_back(std::move(f));
  }
  if (p >= s.size()) return nullptr;
  ++p;  // '}'
  return tc.record(std::move(fields), size, flag == 'a');
}

int64_t dtypeAlign(const Type *dtype) {
  if (!dtype->isRecord()) return int64_t(valueAlign(dtype));
  if (!dtype->recordAligned()) return 1;
  int64_t a = 1;
  for (const RecordField &f : dtype->fields()) a = std::max(a, dtypeAlign(f.dtype));
  return a;
}

int64_t fieldAccessAlign(const Type *record, const RecordField &f) {
  int64_t natural = dtypeAlign(f.dtype);
  // The largest power of two that divides both the offset and the size
  // (the start of the next element of an array of these records).
  uint64_t both = uint64_t(f.offset) | uint64_t(record->recordSize());
  int64_t kept = both ? int64_t(both & (~both + 1)) : natural;
  return std::max<int64_t>(1, std::min(natural, kept));
}

// ---- promotion ---------------------------------------------------------------

// NumPy's promote_types for bool/int/float/complex scalars.
const Type *promoteNumeric(TypeContext &tc, const Type *a, const Type *b) {
  if (!a->isNumber() || !b->isNumber()) return nullptr;
  if (a == b) return a;
  if (a->isFloat8() || b->isFloat8()) return nullptr;  // storage only: no common type
  if (a->isBool()) return b;
  if (b->isBool()) return a;
  auto rank = [](const Type *t) { return t->isInt() ? 0 : t->isFloat() ? 1 : 2; };
  if (rank(a) < rank(b)) std::swap(a, b);  // a is the "larger kind"
  if (a->isInt()) {                        // both integers
    if (a->isSigned() == b->isSigned()) return a->bits() >= b->bits() ? a : b;
    const Type *s = a->isSigned() ? a : b;
    const Type *u = a->isSigned() ? b : a;
    if (s->bits() > u->bits()) return s;
    if (u->bits() >= 64) return tc.float64();
    return tc.intTy(u->bits() * 2, true);
  }
  // Bits of float precision an integer needs: int8/uint8/int16 fit float32
  // (NumPy: int16 -> float32, int32 -> float64).
  auto floatBitsFor = [](const Type *i) -> unsigned {
    if (i->bits() <= 8) return 16;
    if (i->bits() <= 16) return 32;
    return 64;
  };
  if (a->isFloat()) {
    // float16 and bfloat16 each lack the other's values: float32 holds both
    // (ml_dtypes' promotion).
    if (b->isFloat())
      return a->bits() != b->bits() ? (a->bits() > b->bits() ? a : b) : tc.floatTy(32);
    unsigned need = floatBitsFor(b);
    return tc.floatLike(a, std::max(a->bits(), need));
  }
  // a is complex
  unsigned partBits = a->bits() / 2;
  if (b->isComplex()) return a->bits() >= b->bits() ? a : b;
  if (b->isFloat()) return tc.complexTy(2 * std::max(partBits, b->bits()));
  unsigned need = std::max(32u, floatBitsFor(b));
  return tc.complexTy(2 * std::max(partBits, need));
}

double roundToFloatType(const Type *t, double v) {
  if (t->isFloat8()) return fp8::toFloat(fp8::fromDouble(v, t->isE5M2()), t->isE5M2());
  if (t->isBFloat16()) return bf16::toFloat(bf16::fromDouble(v));
  if (t->isHalf()) return f16::toDouble(f16::fromDouble(v));
  if (t->bits() == 32) return double(float(v));
  return v;
}

const Type *arithmeticResult(TypeContext &tc, const Type *a, const Type *b) {
  if (!a->isNumber() || !b->isNumber()) return nullptr;
  bool aInt = a->isInt() || a->isBool(), bInt = b->isInt() || b->isBool();
  if (aInt && bInt) {
    bool bothUnsigned = a->isInt() && !a->isSigned() && b->isInt() && !b->isSigned();
    return tc.intTy(64, !bothUnsigned);
  }
  // Numba's scalar rule: uint16 does not convert safely to float32 in its
  // conversion graph (int16 does), so uint16 with float32 is float64.
  // (NumPy's arrays give float32: ArrayExprs follows NumPy.)
  const Type *r = promoteNumeric(tc, a, b);
  auto u16 = [](const Type *t) { return t->isInt() && !t->isSigned() && t->bits() == 16; };
  if ((u16(a) || u16(b)) && r->isFloat() && r->bits() == 32) return tc.float64();
  return r;
}

bool hasUndefinedList(const Type *t) {
  if (!t) return false;
  if (t->isList()) return !t->dtype() || hasUndefinedList(t->dtype());
  if (t->isDict())
    return !t->keyType() || !t->valueType() || hasUndefinedList(t->keyType()) ||
           hasUndefinedList(t->valueType());
  if (t->isTuple())
    for (const Type *e : t->elements())
      if (hasUndefinedList(e)) return true;
  return false;
}

const Type *unify(TypeContext &tc, const Type *a, const Type *b) {
  if (a == b) return a;
  if (!a || !b) return a ? a : b;
  // IntEnum members unify with other integers as their values (Numba's rule).
  if (a->isEnumMember() && a->isIntEnum() && (b->isNumber() || b->isIntEnum()))
    return unify(tc, a->dtype(), b);
  if (b->isEnumMember() && b->isIntEnum() && a->isNumber()) return unify(tc, a, b->dtype());
  if (a->isNumber() && b->isNumber()) {
    if (a->isBool() && b->isBool()) return a;
    // A bool and another number: that number's type (Numba's: a uint8 or
    // a bool is a uint8, not a machine integer).
    if (a->isBool() || b->isBool()) return a->isBool() ? b : a;
    return promoteNumeric(tc, a, b);
  }
  if (a->isTuple() && b->isTuple() && a->elements().size() == b->elements().size()) {
    std::vector<const Type *> elems;
    for (size_t i = 0; i < a->elements().size(); ++i) {
      const Type *u = unify(tc, a->elements()[i], b->elements()[i]);
      if (!u) return nullptr;
      elems.push_back(u);
    }
    return tc.tuple(std::move(elems));
  }
  // None and a value: the value or None (Numba's OptionalType).
  if (a->isOptional() || b->isOptional() || a->isNone() || b->isNone()) {
    const Type *av = a->isOptional() ? a->dtype() : a, *bv = b->isOptional() ? b->dtype() : b;
    if (av->isNone())
      return bv->isRuntime() && !bv->isList() && !bv->isDict() ? tc.optional(bv) : nullptr;
    if (bv->isNone())
      return av->isRuntime() && !av->isList() && !av->isDict() ? tc.optional(av) : nullptr;
    const Type *u = unify(tc, av, bv);
    return u && u->isRuntime() && !u->isNone() ? tc.optional(u) : nullptr;
  }
  if (a->isDict() && b->isDict()) {  // `{}` takes its items' types
    if (a->isSet() != b->isSet()) return nullptr;
    const Type *k = a->keyType() ? a->keyType() : b->keyType();
    const Type *v = a->valueType() ? a->valueType() : b->valueType();
    if ((a->keyType() && b->keyType() && a->keyType() != b->keyType()) ||
        (a->valueType() && b->valueType() && a->valueType() != b->valueType()))
      return nullptr;
    return a->isSet() ? tc.set(k) : tc.dict(k, v);
  }
  // Two different string constants, or one and a str: a str.
  if (a->isText() && b->isText()) return tc.str();
  // Lists are invariant (as Numba's); `[]` takes its elements' type.
  if (a->isList() && b->isList()) {
    if (!a->dtype()) return b;
    if (!b->dtype()) return a;
    return nullptr;
  }
  if (a->isArray() && b->isArray() && a->dtype() == b->dtype() && a->ndim() == b->ndim()) {
    Layout l = a->layout() == b->layout() ? a->layout() : Layout::A;
    return tc.array(a->dtype(), a->ndim(), l, a->readonly() || b->readonly());
  }
  return nullptr;
}

// ---- sizes in memory ------------------------------------------------------------

int64_t itemSize(const Type *dtype) {
  if (dtype->isRecord()) return dtype->recordSize();
  return int64_t(abi::scalarBytes(dtype->bits()));
}

size_t valueAlign(const Type *t) {
  if (t->isEnumMember()) return valueAlign(t->dtype());
  if (t->isOptional()) return valueAlign(t->dtype());
  if (t->isArray()) return abi::kArrayAlign;
  if (t->isRecord() || t->kind() == TypeKind::List || t->isDict()) return abi::kPointerBytes;
  if (t->isTuple()) {
    size_t a = 1;
    for (const Type *e : t->elements()) a = std::max(a, valueAlign(e));
    return a;
  }
  if (t->isNumber()) return abi::scalarAlign(t->bits(), t->isComplex());
  return 1;  // none
}

size_t valueSize(const Type *t) {
  if (t->isEnumMember()) return valueSize(t->dtype());
  if (t->isOptional()) {  // { value, i8 valid }
    size_t a = valueAlign(t->dtype());
    return (valueSize(t->dtype()) + 1 + a - 1) / a * a;
  }
  if (t->isArray()) return abi::arrayDescBytes(t->ndim());
  if (t->isRecord() || t->kind() == TypeKind::List) return abi::kPointerBytes;
  if (t->isDict()) return 4 * abi::kPointerBytes;
  if (t->isTuple()) {
    size_t off = 0, a = valueAlign(t);
    for (const Type *e : t->elements()) {
      size_t ea = valueAlign(e);
      off = (off + ea - 1) / ea * ea + valueSize(e);
    }
    return (off + a - 1) / a * a;
  }
  if (t->isNumber()) return abi::scalarBytes(t->bits());
  return 1;  // none
}

}  // namespace kjit
