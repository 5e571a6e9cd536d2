// TypeKeys.h - argument type keys, the types they stand for, and how one
// argument type converts to a declared one.
//
// A key is what a call's or a launch's arguments look like to the compiler,
// computed per call without allocating: one character per scalar kind
// ('d' float, '8' int, '$' an int only uint64 holds, 'b' bool, 'D' complex,
// 'n' None, 'S' + a dtype code for a NumPy scalar), arrays as 'A' + dtype
// code + rank + layout (C, F, A) + 'r'/'w', tuples bracketed, enum members as appendEnumKey's
// prefix and their value's key. A record (a
// NumPy structured scalar) is its spec, 'R...' (compiler/Types.h,
// recordSpec), and an array of records has the spec in place of the dtype
// code. The bindings compute keys from Python objects; everything else
// about keys is here.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "compiler/Conversion.h"
#include "compiler/Types.h"

namespace kjit {
class Session;
}  // namespace kjit

namespace kjit::jit {

// The dtype code of a scalar type ('f' float32, '4' int32 ...), and back.
char dtypeCode(const Type *t);
const Type *typeOfCode(TypeContext &tc, char c);
// NumPy's type numbers (NPY_BOOL=0 ... NPY_HALF=23) to dtype codes; 0 if none.
char codeOfTypeNum(int num);
void appendArrayKey(std::string &key, char code, int ndim, char layout, bool readonly);
// The same with an array's dtype key: its code, or a record's spec.
void appendArrayKey(std::string &key, const std::string &dtypeKey, int ndim, char layout,
                    bool readonly);
// An array element's dtype key: the dtype code, or the record's spec.
std::string dtypeKey(const Type *dtype);
// The start of an enum member's key (its value's key follows): 'E', 'i' for
// an IntEnum or 'e', and the class's qualified name as LENGTH:NAME.
void appendEnumKey(std::string &key, const std::string &cls, bool isIntEnum);
// The start of a named tuple's key (the tuple's key follows): 'N', the
// number of fields, ':', then the class's name and each field's name as
// LENGTH:NAME.
void appendNamedTupleKey(std::string &key, const std::string &cls,
                         const std::vector<std::string> &fields);

// The type at key[p] (p moves past it), in `tc`; null on a malformed key.
// A @jitclass instance's class is `session`'s.
const Type *typeOfKey(const Session &session, TypeContext &tc, const std::string &key, size_t &p);
// Every type of a key; throws JitError (a ValueError) on a malformed key.
std::vector<const Type *> typesOfKey(const Session &session, TypeContext &tc,
                                     const std::string &key);
std::string keyOfType(const Type *t);
std::string keyOfTypes(const std::vector<const Type *> &ts);
// "float64, array(float32, 1d, C)": a key's types as messages show them.
std::string describeKey(const Session &session, const std::string &key);
std::string describeTypes(const std::vector<const Type *> &ts);
// The same as Numba's repr() of its types writes them ("Array(float64, 1,
// 'C', False, aligned=True)"), for messages Numba's users match.
std::string numbaReprs(const std::vector<const Type *> &ts);

// The message for argument `index` (from 0) of a call or launch whose value
// has no argument type key: `what` is "f()" or "kernel 'k'", `param` the
// parameter's name (or empty), `typeName` the value's Python type.
std::string cannotTakeMessage(const std::string &what, size_t index, const std::string &param,
                              const std::string &typeName);

// The type `t` (of another TypeContext) in `tc`.
const Type *sameTypeIn(TypeContext &tc, const Type *t);

// Numba's conversion rules (compiler/Conversion.h), for the driver's code.
using kjit::Conversion;
using kjit::conversion;

// The memory form of a value of `t` (the host C layout of the lowered
// structs, which NVPTX's parameter space shares).
size_t memSize(const Type *t);
size_t memAlign(const Type *t);

}  // namespace kjit::jit
