// py_values.h - Python values as arguments: their argument type key (what
// keys mean is runtime/jit/TypeKeys.h) and their memory form for a type.
#pragma once

#include <Python.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <string>
#include <vector>

#include "compiler/Types.h"
#include "frontend/support/KernelAbi.h"

namespace kjit::py {

// The name of `o`'s type, as messages give it ("ndarray", "list").
std::string typeNameOf(PyObject *o);
// Appends the key of `o` to `key`; false when kernels cannot take it.
bool appendKey(PyObject *o, std::string &key);

// The dtype key of a NumPy dtype (a numpy.dtype object): its code
// (runtime/jit/TypeKeys.h), or a structured dtype's record spec; empty when
// kjit has no type for it, with the reason in `why` when given. Record
// specs are remembered per dtype object.
const std::string &dtypeKeyOf(PyObject *descr, std::string *why = nullptr);
// The dtype code of a NumPy dtype whose elements are scalars (NumPy's own,
// or bfloat16: kjit/bfloat16_host.py); 0 when kjit has none for it.
char dtypeCodeOf(PyObject *descr);
// Why `o`, a NumPy array or structured scalar, has no key (" (a string
// field ('y'))"), or empty: what a message adds after the type's name.
std::string whyNoKey(PyObject *o);
// A NumPy structured scalar (numpy.void, numpy.record): its bytes.
bool isRecordScalar(PyObject *o);
char *recordBytes(PyObject *o);
// The numpy.dtype of an array element of type `t` (a scalar or a record).
pybind11::object numpyDtypeOf(const Type *t);
// The kjit type object (kjit.types) of driver type `t`, made from its
// structure: a scalar is kjit.types' instance, an array kt.Array(dtype,
// ndim, layout, readonly), a tuple UniTuple or Tuple of its elements' objects,
// a type holding records numpy_support's type of its key; another kind
// kt.Type(its name). What kernel.overloads, specialize() and the HIP
// launcher give users (compile results as objects, not names to parse).
pybind11::object kjitTypeObject(const Type *t);

constexpr size_t kMaxArgs = 64;
struct ArgSlot {
  alignas(16) unsigned char bytes[16 + 2 * 8 * 9];  // scalars, complex, or an ArrayDesc (9 dims)
};
// The lists made for one call's list arguments (host calls only): each
// Python list, its KjitList and the list's bytes before the call, so that
// what the call changed is written back (Numba's reflected lists); str
// arguments' code-point lists too (never written back). Frees the lists.
struct ListArgs {
  struct Entry {
    PyObject *object;  // borrowed: the call's arguments hold it
    KjitList *list;
    const Type *type;
    int64_t sizeBefore;
    std::vector<unsigned char> before;
    PyObject *instance = nullptr;  // a @jitclass instance (object is its box); borrowed
  };
  std::vector<Entry> entries;
  // Dict arguments: their four lists (keys, values, alive, table), written
  // back into the Python dict after the call.
  struct DictEntry {
    PyObject *object;  // borrowed
    KjitList *parts[4];
    const Type *type;
  };
  std::vector<DictEntry> dicts;
  ListArgs() = default;
  ListArgs(const ListArgs &) = delete;
  ListArgs &operator=(const ListArgs &) = delete;
  ~ListArgs();
  // Whether the call changed entry `e`'s list.
  static bool changed(const Entry &e);
};

// Writes `o` in the memory form of `t` at `dst` (arrays: the host ABI's
// descriptor, NumPy arrays only; lists: a KjitList made in `lists`, refused
// without it).
bool writeValue(PyObject *o, const Type *t, unsigned char *dst, ListArgs *lists = nullptr);
std::string numpyDtypeName(const Type *t);

}  // namespace kjit::py
