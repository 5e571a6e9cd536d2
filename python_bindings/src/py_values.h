// py_values.h - Python values as arguments: their argument type key (what
// keys mean is runtime/jit/TypeKeys.h) and their memory form for a type.
#pragma once

#include <Python.h>

#include <cstddef>
#include <string>

#include "compiler/Types.h"

namespace kjit::py {

// The name of `o`'s type, as messages give it ("ndarray", "list").
std::string typeNameOf(PyObject *o);
// Appends the key of `o` to `key`; false when kernels cannot take it.
bool appendKey(PyObject *o, std::string &key);

constexpr size_t kMaxArgs = 64;
struct ArgSlot {
  alignas(16) unsigned char bytes[16 + 2 * 8 * 9];  // scalars, complex, or an ArrayDesc (9 dims)
};
// Writes `o` in the memory form of `t` at `dst` (arrays: the host ABI's
// descriptor, NumPy arrays only).
bool writeValue(PyObject *o, const Type *t, unsigned char *dst);
std::string numpyDtypeName(const Type *t);

}  // namespace kjit::py
