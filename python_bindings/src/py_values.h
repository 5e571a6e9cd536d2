// py_values.h - Python values as kernel arguments: the argument type key
// (one character per scalar kind, arrays as 'A' + dtype + rank + layout +
// readonly, tuples bracketed), the types it stands for, and the memory form
// of a value of a type (the x86-64 C layout of the lowered structs, which
// NVPTX's parameter space shares).
#pragma once

#include <cstddef>
#include <string>

#include <Python.h>

#include "compiler/Types.h"

namespace kjit::py {

char dtypeCode(const Type *t);
const Type *typeOfCode(TypeContext &tc, char c);
// NumPy's type numbers (NPY_BOOL=0 ... NPY_HALF=23) to codes; 0 if none.
char codeOfTypeNum(int num);
// Appends the key of `o` to `key`; false when kernels cannot take it.
bool appendKey(PyObject *o, std::string &key);
const Type *typeOfKey(TypeContext &tc, const std::string &key, size_t &p);
std::string keyOfType(const Type *t);

// Whether an argument of type `actual` converts to the declared `want` of an
// eager signature: numbers to numbers (not complex to real), arrays of the
// same dtype and rank to the same layout or 'A' (and not readonly to
// writable); anything else only to itself. The types may belong to
// different TypeContexts.
bool convertsTo(const Type *actual, const Type *want);

size_t memSize(const Type *t);
size_t memAlign(const Type *t);

constexpr size_t kMaxArgs = 64;
struct ArgSlot {
  alignas(16) unsigned char bytes[16 + 2 * 8 * 9];  // scalars, complex, or an ArrayDesc (9 dims)
};
// Writes `o` in the memory form of `t` at `dst` (arrays: the host ABI's
// descriptor, NumPy arrays only).
bool writeValue(PyObject *o, const Type *t, unsigned char *dst);
std::string numpyDtypeName(const Type *t);

}  // namespace kjit::py
