// Types.h - the types of the kernel language.
//
// Types are interned by a TypeContext and compared by pointer. Their printed
// names are Numba's (int64, float32, array(float64, 2d, C), UniTuple(int64 x
// 2), Tuple(int64, float32), none), so messages read the same as Numba's.
//
// Values of these types at run time (the ABI between compiled code, the
// dispatcher and the runtime):
//   bool              i8 in memory, i1 in registers
//   intN / uintN      iN (signedness is in the type, not in LLVM)
//   float16/32/64     half / float / double
//   complexN          { float, float } or { double, double }
//   array             ArrayDesc: { i8* data; i64 shape[ndim]; i64 strides[ndim] }
//                     (strides in bytes, like NumPy) plus the owner pointer
//                     that keeps allocated memory alive (see runtime/)
//   tuple             an LLVM struct of the element values
//   str               a pointer to a KjitList of its code points (uint32);
//                     never written once made (literals are constants)
//   list              a pointer to a KjitList (frontend/support/KernelAbi.h):
//                     { i64 size; i64 capacity; i8* data }, elements packed
//                     as in memory; a reference, as a Python list is
//   record            a pointer to the record's bytes (NumPy's layout: the
//                     fields at the offsets the dtype gives), as in Numba: a
//                     record read from an array is a reference into it
//   enum member       its value (the class is in the type)
//   OptionalType(T)   { T value; i1 valid } ({ T, i8 } in memory): None when
//                     not valid
//   dict              { list keys; list values; list alive; list table }: the
//                     builtins library's hash table (compiler/lib/builtins/dicts.kjit)
//   set               the same four lists (a Dict-kind type that isSet(); the
//                     library keeps Numba's set table in its keys and table)
//   none              no value
// Compile-time-only types (modules, functions, dtypes, string literals,
// exception classes) have no run-time value.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kjit {

enum class TypeKind : uint8_t {
  Void,  // the return type of a function that returns nothing
  None,  // the value None
  Bool,
  Int,
  Float,
  Complex,
  Array,
  Tuple,
  List,        // a Python list: a reference to a growable buffer of elements
  Optional,    // a value or None (Numba's OptionalType): { value, valid }
  Dict,        // a Python dict: four lists (keys, values, alive, table)
  Record,      // a NumPy structured dtype's element (Numba's Record)
  EnumMember,  // a member of an enum.Enum (IntEnum) class: its value, typed by the class
  Range,       // range(...) objects, consumed by for loops
  Module,      // math, numpy, kjit.cuda ...: compile-time only
  Function,    // a builtin or a global function value: compile-time only
  Dtype,       // np.float32 used as a value (dtype=): compile-time only
  StringLit,   // a string constant (print, raise messages)
  ExceptionClass,
  EnumClass,  // an enum.Enum class used as a value (Color.red, Color['red']): compile-time only
};

enum class Layout : uint8_t { C, F, A };

class Type;

// A field of a record: a scalar, a nested record, or a nested array of
// either (`shape` not empty: C order, as NumPy's subarray dtypes).
struct RecordField {
  std::string name;
  const Type *dtype = nullptr;
  std::vector<int64_t> shape;
  int64_t offset = 0;
};

class Type {
 public:
  TypeKind kind() const { return kind_; }
  const std::string &str() const { return name_; }

  bool isBool() const { return kind_ == TypeKind::Bool; }
  bool isInt() const { return kind_ == TypeKind::Int; }
  bool isFloat() const { return kind_ == TypeKind::Float; }
  // bfloat16: a 16-bit float with float32's exponent (8 significant bits).
  // Float-kind with bits() 16, told from float16 by this flag alone: code
  // that picks a float by its width must ask it (floatTy(16) is float16).
  bool isBFloat16() const { return kind_ == TypeKind::Float && brain_; }
  // float16 (IEEE half), not bfloat16.
  bool isHalf() const { return kind_ == TypeKind::Float && bits_ == 16 && !brain_; }
  // The 8-bit floats of tensor cores, storage only (conversions, no
  // arithmetic): float8_e4m3fn (4 exponent bits, 3 fraction bits, no
  // infinities, NaN 0x7f, largest 448) and float8_e5m2 (float16's upper
  // byte: infinities, largest 57344). Float-kind with bits() 8.
  bool isFloat8() const { return kind_ == TypeKind::Float && bits_ == 8; }
  bool isE4M3() const { return isFloat8() && !brain_; }
  bool isE5M2() const { return isFloat8() && brain_; }
  bool isComplex() const { return kind_ == TypeKind::Complex; }
  // A non-empty tuple whose elements share one type (indexable at run time).
  bool isHomogeneousTuple() const {
    if (kind_ != TypeKind::Tuple || elems_.empty()) return false;
    for (const Type *e : elems_)
      if (e != elems_[0]) return false;
    return true;
  }
  bool isArray() const { return kind_ == TypeKind::Array; }
  bool isTuple() const { return kind_ == TypeKind::Tuple; }
  bool isNone() const { return kind_ == TypeKind::None; }
  bool isRecord() const { return kind_ == TypeKind::Record; }
  // A list; its dtype() is the element type, null while no element has
  // given it one (`[]` before an append: list(undefined)).
  bool isList() const { return kind_ == TypeKind::List && !str_ && !class_; }
  // An instance of a @jitclass: List-kind, a list of one element, the named
  // tuple of its fields (dtype(); the class's name is its symbol()), so that
  // instances are references, as Numba's are; symbol() is the class's id
  // (compiler/JitClass.h). isList() is false.
  bool isJitClass() const { return kind_ == TypeKind::List && class_; }
  // A str (Numba's unicode_type): List-kind, a list of its code points
  // (dtype() uint32) that nothing writes once made; isList() is false.
  bool isString() const { return kind_ == TypeKind::List && str_; }
  // A str or a string constant.
  bool isText() const { return isString() || kind_ == TypeKind::StringLit; }
  // A value of dtype() or None.
  bool isOptional() const { return kind_ == TypeKind::Optional; }
  // A dict: keyType() and valueType(), null while no item has given them.
  // (Sets are Dict-kind too: the same run-time form; isSet() tells them.)
  bool isDict() const { return kind_ == TypeKind::Dict; }
  // A set: keyType() is the element type (null: `set()` before an add).
  bool isSet() const { return kind_ == TypeKind::Dict && set_; }
  const Type *keyType() const { return elem_; }
  const Type *valueType() const { return value_; }
  // bool, int, float or complex
  bool isNumber() const { return kind_ >= TypeKind::Bool && kind_ <= TypeKind::Complex; }
  // Has a value at run time.
  bool isRuntime() const { return kind_ <= TypeKind::Range; }

  // For Int/Float/Complex: width in bits (complex128 -> 128). Bool: 8.
  unsigned bits() const { return bits_; }
  bool isSigned() const { return signed_; }

  // Array: element type, dimensions, layout, read-only flag.
  const Type *dtype() const { return elem_; }
  unsigned ndim() const { return ndim_; }
  Layout layout() const { return layout_; }
  bool readonly() const { return readonly_; }

  // Tuple: element types. Complex: the float type of each part.
  const std::vector<const Type *> &elements() const { return elems_; }
  // A named tuple (a collections.namedtuple class's instance): a tuple whose
  // class name is symbol() and whose fields have these names; empty for
  // other tuples.
  const std::vector<std::string> &fieldNames() const { return fieldNames_; }
  const Type *complexPart() const { return elem_; }

  // Module/Function/Dtype/ExceptionClass/StringLit: the name (math, sqrt,
  // float32, ValueError) or the string's value. Record: its layout spec
  // (recordSpec below). EnumClass/EnumMember: the class's qualified name.
  const std::string &symbol() const { return symbol_; }

  // Record: the fields in order of offset (then name), the size in bytes
  // (NumPy's itemsize) and whether NumPy aligned it (dtype.isalignedstruct).
  const std::vector<RecordField> &fields() const { return fields_; }
  int64_t recordSize() const { return size_; }
  bool recordAligned() const { return aligned_; }
  // The field named `name`, or null.
  const RecordField *field(const std::string &name) const {
    for (const RecordField &f : fields_)
      if (f.name == name) return &f;
    return nullptr;
  }

  // EnumMember: the type of the members' values (dtype()), and whether the
  // class is an IntEnum (its members are integers too). EnumClass: the same
  // for its members.
  bool isEnumMember() const { return kind_ == TypeKind::EnumMember; }
  bool isIntEnum() const { return (isEnumMember() || kind_ == TypeKind::EnumClass) && signed_; }

 private:
  friend class TypeContext;
  TypeKind kind_ = TypeKind::Void;
  unsigned bits_ = 0;
  bool signed_ = false;
  bool brain_ = false;  // bfloat16; for 8-bit floats, float8_e5m2 (else e4m3fn)
  const Type *elem_ = nullptr;
  const Type *value_ = nullptr;  // a dict's value type
  bool set_ = false;             // a set (Dict kind)
  bool str_ = false;             // a str (List kind)
  bool class_ = false;           // a @jitclass instance (List kind)
  unsigned ndim_ = 0;
  Layout layout_ = Layout::A;
  bool readonly_ = false;
  std::vector<const Type *> elems_;
  std::vector<RecordField> fields_;
  int64_t size_ = 0;
  bool aligned_ = false;
  std::vector<std::string> fieldNames_;  // a named tuple's fields
  std::string symbol_;
  std::string name_;
};

// Owns and interns every type of one Context.
class TypeContext {
 public:
  TypeContext();

  const Type *voidTy() const { return void_; }
  const Type *none() const { return none_; }
  const Type *boolean() const { return bool_; }
  const Type *intTy(unsigned bits, bool isSigned = true);
  const Type *int64() { return intTy(64, true); }
  const Type *floatTy(unsigned bits);
  const Type *float64() { return floatTy(64); }
  const Type *bfloat16();
  const Type *float8(bool e5m2);
  // The float of this width, or bfloat16 where `like` is bfloat16 and
  // bits is 16 (a width rule that keeps the kind of 16-bit float).
  const Type *floatLike(const Type *like, unsigned bits) {
    return bits == 16 && like && like->isBFloat16() ? bfloat16() : floatTy(bits);
  }
  const Type *complexTy(unsigned bits);  // 64 or 128
  const Type *array(const Type *dtype, unsigned ndim, Layout layout, bool readonly = false);
  const Type *tuple(std::vector<const Type *> elems);
  const Type *namedTuple(const std::string &cls, std::vector<std::string> fields,
                         std::vector<const Type *> elems);
  const Type *range();
  // list(elem); elem null: list(undefined), the type of `[]` until an
  // append or an assignment gives its elements one.
  const Type *list(const Type *elem);
  // OptionalType(value): `value` or None (a variable assigned both).
  const Type *optional(const Type *value);
  // DictType[key,value]; null types: undefined (`{}` before an item).
  const Type *dict(const Type *key, const Type *value);
  // unicode_type: a str at run time (a List-kind type of uint32 code points).
  const Type *str();
  // The instance type of the @jitclass `id` (named `name`) with these fields.
  const Type *jitClass(const std::string &id, const std::string &name, const Type *fields);
  // set(key): a Dict-kind type whose values are bools; key null: undefined.
  const Type *set(const Type *key);
  // A dict's run-time form: Tuple(list(key), list(value), list(bool), list(int64)).
  const Type *dictParts(const Type *dict);
  const Type *module(const std::string &name);
  const Type *function(const std::string &name);
  const Type *dtypeOf(const Type *scalar);
  const Type *stringLit(const std::string &value);
  const Type *exceptionClass(const std::string &name);
  // The record of these fields (sorted here by offset, then name), `size`
  // bytes, aligned as NumPy's align=True made it or not. Interned by its
  // whole layout: two dtypes that differ in anything get two types.
  const Type *record(std::vector<RecordField> fields, int64_t size, bool aligned);
  // `cls` is the class's qualified name; values of type `value`.
  const Type *enumMember(const std::string &cls, const Type *value, bool isIntEnum);
  const Type *enumClass(const std::string &cls, bool isIntEnum);

  // The scalar type named by a NumPy/Numba name: int32, float64, bool_,
  // complex128, intp, uint8 ...; nullptr when it names none.
  const Type *scalarByName(const std::string &name);
  // A scalar name or a record spec (an array element's type, a dtype=
  // given by name); nullptr when it is neither.
  const Type *dtypeByName(const std::string &name);

 private:
  const Type *intern(std::unique_ptr<Type> t, const std::string &key);
  const Type *intern(std::unique_ptr<Type> t) {
    std::string key = t->name_;
    return intern(std::move(t), key);
  }
  std::map<std::string, std::unique_ptr<Type>> types_;  // keyed by printed name
  const Type *void_;
  const Type *none_;
  const Type *bool_;
};

// The type of the value both a and b can be converted to, following Numba's
// unification (int32|int64 -> int64, int64|float32 -> float64, uint64|int64 ->
// float64, bool|int -> int); nullptr when there is none.
const Type *unify(TypeContext &tc, const Type *a, const Type *b);
// Whether `t` is or holds a list whose element type is not known yet.
bool hasUndefinedList(const Type *t);

// The canonical name of a NumPy/Numba scalar type name ("f4" -> "float32",
// "bool_" -> "bool"); empty when it names none. Needs no TypeContext.
std::string canonicalScalarName(const std::string &name);

// `v` as a value of float type `t` holds it: rounded to float32, float16,
// bfloat16 or an 8-bit float (as a conversion at run time would); float64
// as it is.
double roundToFloatType(const Type *t, double v);

// The result type of NumPy's promotion of two numeric scalar types.
const Type *promoteNumeric(TypeContext &tc, const Type *a, const Type *b);

// The type of `a op b` for arithmetic operators under Numba's rules:
// integers narrower than 64 bits compute in int64/uint64, mixed
// signedness promotes, float32 op int64 is float64, etc.
const Type *arithmeticResult(TypeContext &tc, const Type *a, const Type *b);

// Sizes in memory (the ABI of frontend/support/KernelAbi.h, applied to types):
// an array element's size in bytes (bool: 1), and a run-time value's size
// and alignment in its memory form (arguments, results, tuple fields).
int64_t itemSize(const Type *dtype);
size_t valueSize(const Type *t);
size_t valueAlign(const Type *t);

// ---- records ----------------------------------------------------------------------
// A record's spec: its whole layout in one string, the record's part of an
// argument type key, of a signature and of a global's description
// (runtime/jit/TypeKeys.h):
//   record := 'R' size ('a' aligned | 'u') '{' field (';' field)* '}'
//   field  := len ':' name '@' offset ':' ftype     (len: the name's bytes)
//   ftype  := ['[' dim (',' dim)* ']'] (record | scalar name)
// e.g. R16a{1:a@0:float64;1:b@8:int32;1:c@12:[2,2]uint8}.
const std::string &recordSpec(const Type *record);
// The record (or scalar, with allowScalar) spelled at text[p]; p moves
// past it. Null (p unspecified) when the text is not one.
const Type *parseRecordSpec(TypeContext &tc, const std::string &text, size_t &p);
// A dtype's alignment as NumPy gives it: a scalar's size (complex: a
// part's), a record's largest field alignment when it is aligned, else 1.
int64_t dtypeAlign(const Type *dtype);
// The alignment a load or store of field `f` of `record` can count on,
// given the record's start is aligned for the record: the field's own
// alignment, lowered when the offset or the itemsize does not keep it.
int64_t fieldAccessAlign(const Type *record, const RecordField &f);
// Numba's name of a field's type: float64, nestedarray(float32, (3, 2)),
// Record(...).
std::string fieldTypeName(const RecordField &f);
// A shape as Python writes the tuple: (5,), (3, 2).
std::string shapeTupleText(const std::vector<int64_t> &shape);

}  // namespace kjit
