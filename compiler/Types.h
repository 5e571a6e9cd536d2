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
//   enum member       its value (the class is in the type)
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

class Type {
 public:
  TypeKind kind() const { return kind_; }
  const std::string &str() const { return name_; }

  bool isBool() const { return kind_ == TypeKind::Bool; }
  bool isInt() const { return kind_ == TypeKind::Int; }
  bool isFloat() const { return kind_ == TypeKind::Float; }
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
  const std::vector<std::string> &fieldNames() const { return fields_; }
  const Type *complexPart() const { return elem_; }

  // Module/Function/Dtype/ExceptionClass/StringLit: the name (math, sqrt,
  // float32, ValueError) or the string's value. EnumClass/EnumMember: the
  // class's qualified name.
  const std::string &symbol() const { return symbol_; }

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
  const Type *elem_ = nullptr;
  unsigned ndim_ = 0;
  Layout layout_ = Layout::A;
  bool readonly_ = false;
  std::vector<const Type *> elems_;
  std::vector<std::string> fields_;
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
  const Type *complexTy(unsigned bits);  // 64 or 128
  const Type *array(const Type *dtype, unsigned ndim, Layout layout, bool readonly = false);
  const Type *tuple(std::vector<const Type *> elems);
  const Type *namedTuple(const std::string &cls, std::vector<std::string> fields,
                         std::vector<const Type *> elems);
  const Type *range();
  const Type *module(const std::string &name);
  const Type *function(const std::string &name);
  const Type *dtypeOf(const Type *scalar);
  const Type *stringLit(const std::string &value);
  const Type *exceptionClass(const std::string &name);
  // `cls` is the class's qualified name; values of type `value`.
  const Type *enumMember(const std::string &cls, const Type *value, bool isIntEnum);
  const Type *enumClass(const std::string &cls, bool isIntEnum);

  // The scalar type named by a NumPy/Numba name: int32, float64, bool_,
  // complex128, intp, uint8 ...; nullptr when it names none.
  const Type *scalarByName(const std::string &name);

 private:
  const Type *intern(std::unique_ptr<Type> t);
  std::map<std::string, std::unique_ptr<Type>> types_;  // keyed by printed name
  const Type *void_;
  const Type *none_;
  const Type *bool_;
};

// The type of the value both a and b can be converted to, following Numba's
// unification (int32|int64 -> int64, int64|float32 -> float64, uint64|int64 ->
// float64, bool|int -> int); nullptr when there is none.
const Type *unify(TypeContext &tc, const Type *a, const Type *b);

// The canonical name of a NumPy/Numba scalar type name ("f4" -> "float32",
// "bool_" -> "bool"); empty when it names none. Needs no TypeContext.
std::string canonicalScalarName(const std::string &name);

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

}  // namespace kjit
