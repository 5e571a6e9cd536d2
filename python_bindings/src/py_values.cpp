// py_values.cpp - see py_values.h.
#include "py_values.h"

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <vector>

#include "frontend/support/BFloat16.h"
#include "py_common.h"
#include "runtime/host/HostRuntime.h"
#include "runtime/jit/JitFunction.h"
#include "runtime/jit/TypeKeys.h"

namespace kjit::py {

namespace {

struct NumpyScalarTypes {
  std::vector<std::pair<PyObject *, char>> types;  // np.float32 -> 'f', ...
};

const NumpyScalarTypes &numpyScalars() {
  static NumpyScalarTypes s = [] {
    NumpyScalarTypes r;
    pybind11::module_ np = pybind11::module_::import("numpy");
    const std::pair<const char *, char> names[] = {
        {"bool_", 'b'},     {"int8", '1'},       {"int16", '2'},    {"int32", '4'},
        {"int64", '8'},     {"uint8", '!'},      {"uint16", '@'},   {"uint32", '#'},
        {"uint64", '$'},    {"float16", 'h'},    {"float32", 'f'},  {"float64", 'd'},
        {"complex64", 'F'}, {"complex128", 'D'}, {"longlong", '8'}, {"ulonglong", '$'}};
    for (auto &[n, c] : names) r.types.emplace_back(np.attr(n).ptr(), c);
    return r;
  }();
  return s;
}

// numpy.void's C layout (NumPy's PyVoidScalarObject, the same in 1.x and
// 2.x): the scalar's bytes are at obval.
struct VoidScalar {
  PyObject_VAR_HEAD char *obval;
  PyObject *descr;
  int flags;
  PyObject *base;
};

PyTypeObject *voidType() {
  static PyTypeObject *t =
      reinterpret_cast<PyTypeObject *>(pybind11::module_::import("numpy").attr("void").ptr());
  return t;
}

// The record type of a structured dtype, in `tc`; null (with why) when a
// field has no kjit type.
const Type *recordOf(TypeContext &tc, pybind11::handle dt, std::string &why);

// The element type of a field's dtype (a scalar, a record, or a subarray's
// base, whose shape goes to `shape`).
const Type *fieldDtype(TypeContext &tc, pybind11::handle dt, std::vector<int64_t> &shape,
                       std::string &why) {
  pybind11::object sub = dt.attr("subdtype");
  if (!sub.is_none()) {
    pybind11::tuple bs = sub;
    for (auto d : pybind11::tuple(bs[1])) shape.push_back(d.cast<int64_t>());
    std::vector<int64_t> inner;
    const Type *t = fieldDtype(tc, bs[0], inner, why);
    shape.insert(shape.end(), inner.begin(), inner.end());
    return t;
  }
  if (!dt.attr("names").is_none()) return recordOf(tc, dt, why);
  auto *descr = pybind11::detail::array_descriptor_proxy(dt.ptr());
  char code = dtypeCodeOf(dt.ptr());
  std::string kind = pybind11::str(dt.attr("kind"));
  if (!code || descr->byteorder == '>') {
    if (descr->byteorder == '>')
      why = "a big-endian field";
    else if (kind == "S" || kind == "U")
      why = "a string field (kjit's records hold numbers, records and arrays of them)";
    else
      why = "a field of dtype " + pybind11::str(dt).cast<std::string>() +
            " (kjit's records hold numbers, records and arrays of them)";
    return nullptr;
  }
  return jit::typeOfCode(tc, code);
}

const Type *recordOf(TypeContext &tc, pybind11::handle dt, std::string &why) {
  if (dt.attr("hasobject").cast<bool>()) {
    why = "dtypes that contain object are not supported";
    return nullptr;
  }
  pybind11::dict fields = dt.attr("fields");
  std::vector<RecordField> out;
  for (auto n : pybind11::tuple(dt.attr("names"))) {
    pybind11::tuple info = fields[n];
    RecordField f;
    f.name = n.cast<std::string>();
    f.offset = info[1].cast<int64_t>();
    f.dtype = fieldDtype(tc, info[0], f.shape, why);
    if (!f.dtype) {
      why += " ('" + f.name + "')";
      return nullptr;
    }
    out.push_back(std::move(f));
  }
  return tc.record(std::move(out), dt.attr("itemsize").cast<int64_t>(),
                   dt.attr("isalignedstruct").cast<bool>());
}

// enum.Enum and enum.IntEnum.
struct EnumTypes {
  PyObject *Enum = nullptr;
  PyObject *IntEnum = nullptr;
};

const EnumTypes &enumTypes() {
  static EnumTypes e = [] {
    pybind11::module_ m = pybind11::module_::import("enum");
    return EnumTypes{pybind11::object(m.attr("Enum")).release().ptr(),
                     pybind11::object(m.attr("IntEnum")).release().ptr()};
  }();
  return e;
}

}  // namespace

char dtypeCodeOf(PyObject *descrObj) {
  auto *descr = pybind11::detail::array_descriptor_proxy(descrObj);
  const int num = descr->type_num;
  constexpr int kUByte = 2, kUShort = 4, kFirstUserType = 256;
  if (num != kUShort && num != kUByte && num < kFirstUserType) return jit::codeOfTypeNum(num);
  // bfloat16 and the 8-bit floats (kjit/bfloat16_host.py, float8_host.py's code_of): a
  // uint16 or uint8 dtype tagged {"kjit": name}, or ml_dtypes' (user types
  // of NumPy's, numbered per process).
  // (set on first use, not as a C++ static's initialiser: the import may
  // release the GIL, and a thread waiting on the static's guard would hold it)
  static PyObject *codeOf = nullptr;  // kept for the process's life
  if (num < kFirstUserType) {
    pybind11::object md = pybind11::handle(descrObj).attr("metadata");
    if (md.is_none()) return jit::codeOfTypeNum(num);
  }
  if (!codeOf)
    codeOf = pybind11::object(pybind11::module_::import("kjit.float8_host").attr("code_of"))
                 .release()
                 .ptr();
  std::string code = pybind11::handle(codeOf)(pybind11::handle(descrObj)).cast<std::string>();
  return !code.empty() ? code[0] : num < kFirstUserType ? jit::codeOfTypeNum(num) : 0;
}

const std::string &dtypeKeyOf(PyObject *descrObj, std::string *why) {
  static const std::string none;
  static const auto codes = [] {  // each dtype code as a string
    std::array<std::string, 256> t;
    for (int c = 0; c < 256; ++c) t[size_t(c)] = std::string(1, char(c));
    return t;
  }();
  auto *descr = pybind11::detail::array_descriptor_proxy(descrObj);
  if (char code = dtypeCodeOf(descrObj); code && descr->byteorder != '>')
    return codes[static_cast<unsigned char>(code)];
  // A structured dtype: its record's spec, made once per dtype object (the
  // dtype is kept alive, so that its address names it).
  std::map<PyObject *, std::string> &specs = moduleState().recordSpecs;
  if (auto it = specs.find(descrObj); it != specs.end()) return it->second;
  if (descr->kind != 'V' || pybind11::handle(descrObj).attr("names").is_none()) {
    if (why) *why = "kjit has no type for this dtype";
    return none;
  }
  TypeContext tc;
  std::string reason;
  const Type *rec = recordOf(tc, pybind11::handle(descrObj), reason);
  if (!rec) {
    if (why) *why = reason;
    return none;
  }
  if (specs.size() >= 4096) {  // many dtypes made on the fly: start again
    for (auto &kv : specs) Py_DECREF(kv.first);
    specs.clear();
  }
  Py_INCREF(descrObj);
  return specs.emplace(descrObj, recordSpec(rec)).first->second;
}

bool isRecordScalar(PyObject *o) { return PyObject_TypeCheck(o, voidType()); }

std::string whyNoKey(PyObject *o) {
  if (PyList_Check(o) && PyList_GET_SIZE(o) == 0)
    return " (an empty list: its elements have no type to compile for)";
  if (PyDict_Check(o) && PyDict_GET_SIZE(o) == 0)
    return " (an empty dict: its items have no types to compile for)";
  PyObject *descr = nullptr;
  if (isRecordScalar(o))
    descr = reinterpret_cast<VoidScalar *>(o)->descr;
  else if (pybind11::detail::npy_api::get().PyArray_Check_(o))
    descr = pybind11::detail::array_proxy(o)->descr;
  if (!descr || pybind11::detail::array_descriptor_proxy(descr)->kind != 'V') return "";
  std::string why;
  if (!dtypeKeyOf(descr, &why).empty()) return "";
  return fmt::format(" of dtype {} ({})", pybind11::str(descr).cast<std::string>(), why);
}

char *recordBytes(PyObject *o) { return reinterpret_cast<VoidScalar *>(o)->obval; }

pybind11::object numpyDtypeOf(const Type *t) {
  if (t->isBFloat16()) return pybind11::module_::import("kjit.bfloat16_host").attr("dtype")();
  if (t->isFloat8()) return pybind11::module_::import("kjit.float8_host").attr("dtype")(t->str());
  if (t->isRecord())
    return pybind11::module_::import("kjit.np.numpy_support").attr("_dtype_of_spec")(recordSpec(t));
  return pybind11::dtype(numpyDtypeName(t));
}

// The name types give an enum class (kjit.dispatcher._enum_name, which
// records the class, so that results convert back to its members).
static std::string enumClassName(PyObject *cls) {
  static PyObject *name =  // kept for the process's life, like the types above
      pybind11::object(pybind11::module_::import("kjit.dispatcher").attr("_enum_name"))
          .release()
          .ptr();
  return pybind11::handle(name)(pybind11::handle(cls)).cast<std::string>();
}

// ---- argument type keys ---------------------------------------------------
// One character per scalar kind; arrays are 'A' + dtype + ndim + layout +
// readonly; tuples are bracketed. The key is small enough for the string's
// inline buffer in the common cases, so computing it does not allocate.

std::string typeNameOf(PyObject *o) {
  return pybind11::str(pybind11::type::handle_of(pybind11::handle(o)).attr("__name__"))
      .cast<std::string>();
}

// ml_dtypes' bfloat16 scalar type (kjit/bfloat16_host.py), once ml_dtypes
// is imported (a program that has such scalars has imported it). Looked up
// in sys.modules, not imported: an import inside a C++ static's guard can
// release the GIL and deadlock with a thread waiting on the guard.
static bool isBFloat16Scalar(PyTypeObject *t) {
  static PyObject *bf16Type = nullptr;  // kept for the process's life once found
  if (!bf16Type) {
    PyObject *ml = PyImport_GetModule(pybind11::str("ml_dtypes").ptr());  // new ref or null
    if (!ml) {
      PyErr_Clear();
      return false;
    }
    bf16Type = PyObject_GetAttrString(ml, "bfloat16");
    Py_DECREF(ml);
    if (!bf16Type) {
      PyErr_Clear();
      return false;
    }
  }
  return reinterpret_cast<PyObject *>(t) == bf16Type;
}

// The @jitclass id of `o`'s class (kjit/experimental.py puts it in the
// class's own dict), or null: a dict lookup, no exception to clear.
static PyObject *jitClassId(PyObject *o) {
  // (Only heap types are @jitclasses; a static builtin type's tp_dict is
  // null from Python 3.12 on.)
  PyTypeObject *t = Py_TYPE(o);
  if (!(t->tp_flags & Py_TPFLAGS_HEAPTYPE) || !t->tp_dict) return nullptr;
  PyObject *id = PyDict_GetItemString(t->tp_dict, "_kjit_class_id");  // borrowed
  return id && PyUnicode_Check(id) ? id : nullptr;
}

// Appends the key of `o` to `key`; false when kernels cannot take it.
bool appendKey(PyObject *o, std::string &key) {
  PyTypeObject *t = Py_TYPE(o);
  if (t == &PyFloat_Type) return key += 'd', true;
  if (t == &PyBool_Type) return key += 'b', true;
  if (t == &PyLong_Type) {
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow == 0) return key += '8', true;
    if (overflow > 0) {
      unsigned long long u = PyLong_AsUnsignedLongLong(o);
      if (!(u == (unsigned long long)-1 && PyErr_Occurred())) return key += '$', true;
      PyErr_Clear();
    }
    return false;
  }
  if (t == &PyComplex_Type) return key += 'D', true;
  if (t == &PyUnicode_Type) return key += 'U', true;
  if (o == Py_None) return key += 'n', true;
  auto &api = pybind11::detail::npy_api::get();
  if (api.PyArray_Check_(o)) {
    auto *arr = pybind11::detail::array_proxy(o);
    auto *descr = pybind11::detail::array_descriptor_proxy(arr->descr);
    if (arr->nd > 9) return false;  // (0-d arrays are arrays: a[()])
    int flags = arr->flags;
    constexpr int C_CONTIG = 0x1, F_CONTIG = 0x2, WRITEABLE = 0x400;
    char layout = (flags & C_CONTIG) ? 'C' : (flags & F_CONTIG) ? 'F' : 'A';
    char code = dtypeCodeOf(arr->descr);
    if (code && descr->byteorder != '>') {  // (big-endian data: not this machine's numbers)
      jit::appendArrayKey(key, code, arr->nd, layout, !(flags & WRITEABLE));
      return true;
    }
    const std::string &dkey = dtypeKeyOf(arr->descr);  // an array of records
    if (dkey.empty()) return false;
    jit::appendArrayKey(key, dkey, arr->nd, layout, !(flags & WRITEABLE));
    return true;
  }
  if (PyList_Check(o)) {
    // A list (kjit.typed.List too): typed by its first element, as Numba
    // types a reflected list (the others convert to that type when the call
    // is made).
    if (PyList_GET_SIZE(o) == 0) return false;
    key += 'L';
    return appendKey(PyList_GET_ITEM(o, 0), key);
  }
  if (PyDict_Check(o)) {
    // A dict (kjit.typed.Dict too): typed by its first item.
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    if (!PyDict_Next(o, &pos, &k, &v)) return false;
    key += 'M';
    return appendKey(k, key) && appendKey(v, key);
  }
  if (t == &PyTuple_Type) {
    key += '(';
    Py_ssize_t n = PyTuple_GET_SIZE(o);
    for (Py_ssize_t i = 0; i < n; ++i)
      if (!appendKey(PyTuple_GET_ITEM(o, i), key)) return false;
    key += ')';
    return true;
  }
  for (auto &[type, code] : numpyScalars().types) {
    if (reinterpret_cast<PyObject *>(t) == type) {
      key += 'S';
      key += code;
      return true;
    }
  }
  if (isBFloat16Scalar(t)) {
    key += "Sy";
    return true;
  }
  if (isRecordScalar(o)) {  // a structured scalar (arr[0], a recarray's row): a record
    const std::string &spec = dtypeKeyOf(reinterpret_cast<VoidScalar *>(o)->descr);
    if (spec.empty() || spec[0] != 'R') return false;
    key += spec;
    return true;
  }
  // A named tuple: its class's name and fields, then its elements.
  if (PyTuple_Check(o)) {
    pybind11::handle cls(reinterpret_cast<PyObject *>(t));
    if (!pybind11::hasattr(cls, "_fields")) return false;
    std::vector<std::string> fields;
    for (auto f : pybind11::tuple(cls.attr("_fields"))) fields.push_back(f.cast<std::string>());
    if (fields.size() != size_t(PyTuple_GET_SIZE(o))) return false;
    jit::appendNamedTupleKey(key, pybind11::str(cls.attr("__name__")).cast<std::string>(), fields);
    key += '(';
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(o); ++i)
      if (!appendKey(PyTuple_GET_ITEM(o, i), key)) return false;
    key += ')';
    return true;
  }
  // A @jitclass instance (kjit/experimental.py): its class's id.
  if (PyObject *id = jitClassId(o)) {
    std::string s = pybind11::handle(id).cast<std::string>();
    key += 'K' + std::to_string(s.size()) + ':' + s;
    return true;
  }
  // An enum member: its class, then its value.
  int isEnum = PyObject_IsInstance(o, enumTypes().Enum);
  if (isEnum < 0) PyErr_Clear();
  if (isEnum > 0) {
    PyObject *cls = reinterpret_cast<PyObject *>(t);
    int isInt = PyObject_IsSubclass(cls, enumTypes().IntEnum);
    if (isInt < 0) PyErr_Clear();
    jit::appendEnumKey(key, enumClassName(cls), isInt > 0);
    pybind11::object value = pybind11::handle(o).attr("value");
    return appendKey(value.ptr(), key);
  }
  return false;
}

ListArgs::~ListArgs() {
  for (Entry &e : entries) freeList(e.list);
  for (DictEntry &d : dicts)
    for (KjitList *l : d.parts) freeList(l);
}

namespace {

// The builtins library's _hash of a key in its memory form
// (compiler/lib/builtins/dicts.kjit: the two must agree, or lookups of keys
// passed in would miss).
int64_t libraryHash(const Type *t, const unsigned char *p) {
  if (t->isString()) {
    KjitList *l;
    std::memcpy(&l, p, sizeof(l));
    uint64_t h = 14695981039346656037ull;
    for (int64_t i = 0; i < l->size; ++i) {
      uint32_t c;
      std::memcpy(&c, l->data + size_t(i) * 4, 4);
      h = (h ^ uint64_t(c)) * 1099511628211ull;
    }
    return int64_t(h >> 2);
  }
  if (t->isTuple()) {
    uint64_t h = 3430008;
    size_t off = 0;
    for (const Type *e : t->elements()) {
      size_t align = jit::memAlign(e);
      off = (off + align - 1) / align * align;
      h = (h ^ uint64_t(libraryHash(e, p + off))) * 1000003ull;
      off += jit::memSize(e);
    }
    return int64_t(h);
  }
  if (t->isBool()) return *p ? 1 : 0;
  if (t->isInt()) {
    switch (t->bits()) {
    case 8: return t->isSigned() ? int64_t(int8_t(*p)) : int64_t(*p);
    case 16: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return t->isSigned() ? int64_t(int16_t(v)) : int64_t(v);
    }
    case 32: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return t->isSigned() ? int64_t(int32_t(v)) : int64_t(v);
    }
    default: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
    }
  }
  double f;
  if (t->bits() == 32) {
    float x;
    std::memcpy(&x, p, 4);
    f = x;
  } else {
    std::memcpy(&f, p, 8);
  }
  double fl = std::floor(f);
  if (f == fl && std::fabs(f) < 9.2e18) return int64_t(f);
  if (std::isnan(f) || std::isinf(f)) return 0;
  return int64_t(uint64_t(int64_t(fl)) * 31u + uint64_t(int64_t((f - fl) * 4503599627370496.0)));
}

}  // namespace

bool ListArgs::changed(const Entry &e) {
  if (e.list->size != e.sizeBefore) return true;
  return std::memcmp(e.list->data, e.before.data(), e.before.size()) != 0;
}

// The Python list `o` as a new KjitList of t's elements (a list type, or a
// @jitclass instance's box, `instance` its owner) at `dst`, recorded in
// `lists` with its bytes now, to write back what the call changes.
static bool writeList(PyObject *o, const Type *t, unsigned char *dst, ListArgs *lists,
                      PyObject *instance) {
  Py_ssize_t n = PyList_GET_SIZE(o);
  size_t isz = jit::memSize(t->dtype());
  KjitList *l = newList(int64_t(n), int64_t(n), int64_t(isz));
  if (!l) {
    PyErr_NoMemory();
    return false;
  }
  lists->entries.push_back({o, l, t, int64_t(n), {}, instance});
  // (The entry owns the list from here, also when an element fails.)
  for (Py_ssize_t i = 0; i < n; ++i)
    if (!writeValue(PyList_GET_ITEM(o, i), t->dtype(), l->data + size_t(i) * isz, lists))
      return false;
  for (ListArgs::Entry &e : lists->entries)
    if (e.list == l) e.before.assign(l->data, l->data + size_t(n) * isz);
  std::memcpy(dst, &l, sizeof(void *));
  return true;
}

// Writes `o` in the memory form of `t` at `dst`; the type was derived from
// `o` (or is a compatible signature type), so only conversions are checked.
bool writeValue(PyObject *o, const Type *t, unsigned char *dst, ListArgs *lists) {
  if (t->isDict() && !t->isSet()) {
    // A dict: the library's four lists (keys, values, alive, table) with
    // the items in the dict's order; its changes go back after the call.
    if (!lists || !PyDict_Check(o) || !t->keyType() || !t->valueType()) return false;
    Py_ssize_t n = PyDict_GET_SIZE(o);
    size_t ks = jit::memSize(t->keyType()), vs = jit::memSize(t->valueType());
    int64_t slots = 8;
    while (3 * int64_t(n) >= 2 * slots) slots *= 2;
    ListArgs::DictEntry d{o,
                          {newList(n, n, int64_t(ks)), newList(n, n, int64_t(vs)), newList(n, n, 1),
                           newList(2 + slots, 2 + slots, 8)},
                          t};
    lists->dicts.push_back(d);  // (owns the lists from here)
    for (KjitList *l : d.parts)
      if (!l) {
        PyErr_NoMemory();
        return false;
      }
    auto *table = reinterpret_cast<int64_t *>(d.parts[3]->data);
    table[0] = table[1] = int64_t(n);
    Py_ssize_t pos = 0, i = 0;
    PyObject *k, *v;
    while (PyDict_Next(o, &pos, &k, &v)) {
      unsigned char *kp = d.parts[0]->data + size_t(i) * ks;
      if (!writeValue(k, t->keyType(), kp, lists) ||
          !writeValue(v, t->valueType(), d.parts[1]->data + size_t(i) * vs, lists))
        return false;
      d.parts[2]->data[i] = 1;
      int64_t s = libraryHash(t->keyType(), kp) & (slots - 1);
      while (table[2 + s] != 0) s = (s + 1) & (slots - 1);
      table[2 + s] = i + 1;
      ++i;
    }
    std::memcpy(dst, d.parts, sizeof(d.parts));
    return true;
  }
  if (t->isString()) {
    // A str: a new list of its code points, freed after the call (a str is
    // never written, so nothing is reflected back).
    if (!lists || !PyUnicode_Check(o)) return false;
    Py_ssize_t n = PyUnicode_GET_LENGTH(o);
    KjitList *l = newList(int64_t(n), int64_t(n), 4);
    if (!l) {
      PyErr_NoMemory();
      return false;
    }
    lists->entries.push_back({o, l, t, int64_t(n), {}});
    int kind = PyUnicode_KIND(o);
    const void *data = PyUnicode_DATA(o);
    for (Py_ssize_t i = 0; i < n; ++i) {
      uint32_t c = PyUnicode_READ(kind, data, i);
      std::memcpy(l->data + size_t(i) * 4, &c, 4);
    }
    std::memcpy(dst, &l, sizeof(void *));
    return true;
  }
  if (t->isJitClass()) {
    // A @jitclass instance: its box (a list of one tuple, the fields) as the
    // list the compiled code reads and writes; changes go back after the call.
    PyObject *id = jitClassId(o);
    if (!lists || !id || pybind11::handle(id).cast<std::string>() != t->symbol()) return false;
    pybind11::object box = pybind11::handle(o).attr("_kjit_box");
    if (!PyList_Check(box.ptr()) || PyList_GET_SIZE(box.ptr()) != 1) return false;
    // (The box is held by the instance, which the call's arguments hold.)
    return writeList(box.ptr(), t, dst, lists, o);
  }
  if (t->isList()) {
    if (!lists || !PyList_Check(o) || !t->dtype()) return false;
    return writeList(o, t, dst, lists, nullptr);
  }
  if (t->isRecord()) {  // a reference to the scalar's bytes: writes reach them
    if (!isRecordScalar(o)) return false;
    char *bytes = recordBytes(o);
    std::memcpy(dst, &bytes, sizeof(void *));
    return true;
  }
  if (t->isEnumMember()) {
    pybind11::object value = pybind11::handle(o).attr("value");
    return writeValue(value.ptr(), t->dtype(), dst, lists);
  }
  if (t->isArray()) {
    // (A list's later elements may not be arrays of the first one's
    // dimensions and item size.)
    if (!pybind11::detail::npy_api::get().PyArray_Check_(o)) return false;
    auto *arr = pybind11::detail::array_proxy(o);
    // (dtype::itemsize: NumPy 2 moved the descriptor's elsize.)
    if (arr->nd != int(t->ndim()) ||
        pybind11::reinterpret_borrow<pybind11::dtype>(arr->descr).itemsize() !=
            itemSize(t->dtype()))
      return false;
    auto *p = reinterpret_cast<int64_t *>(dst);
    std::memcpy(dst, &o, sizeof(void *));  // meminfo: the owning NumPy array
    std::memcpy(dst + 8, &arr->data, sizeof(void *));
    for (int k = 0; k < arr->nd; ++k) {
      p[2 + k] = arr->dimensions[k];
      p[2 + arr->nd + k] = arr->strides[k];
    }
    return true;
  }
  if (t->isTuple()) {
    // (A list's or dict's later items may not have the first one's shape.)
    if (!PyTuple_Check(o) || size_t(PyTuple_GET_SIZE(o)) != t->elements().size()) return false;
    size_t off = 0;
    for (size_t i = 0; i < t->elements().size(); ++i) {
      const Type *e = t->elements()[i];
      size_t align = jit::memAlign(e);
      off = (off + align - 1) / align * align;
      if (!writeValue(PyTuple_GET_ITEM(o, Py_ssize_t(i)), e, dst + off, lists)) return false;
      off += jit::memSize(e);
    }
    return true;
  }
  if (t->isBool()) {
    int v = PyObject_IsTrue(o);
    if (v < 0) return false;
    dst[0] = uint8_t(v);
    return true;
  }
  if (t->isInt()) {
    long long v;
    if (t->isSigned()) {
      v = PyLong_AsLongLong(o);
    } else {
      v = (long long)PyLong_AsUnsignedLongLong(o);
    }
    if (v == -1 && PyErr_Occurred()) {
      // NumPy integer scalars: through __index__.
      PyErr_Clear();
      PyObject *idx = PyNumber_Index(o);
      if (!idx) return false;
      v = t->isSigned() ? PyLong_AsLongLong(idx) : (long long)PyLong_AsUnsignedLongLong(idx);
      Py_DECREF(idx);
      if (v == -1 && PyErr_Occurred()) return false;
    }
    switch (t->bits()) {
    case 8: {
      int8_t x = int8_t(v);
      std::memcpy(dst, &x, 1);
      break;
    }
    case 16: {
      int16_t x = int16_t(v);
      std::memcpy(dst, &x, 2);
      break;
    }
    case 32: {
      int32_t x = int32_t(v);
      std::memcpy(dst, &x, 4);
      break;
    }
    default: std::memcpy(dst, &v, 8);
    }
    return true;
  }
  if (t->isFloat()) {
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred()) return false;
    if (t->bits() == 32) {
      float f = float(v);
      std::memcpy(dst, &f, 4);
    } else if (t->bits() == 64) {
      std::memcpy(dst, &v, 8);
    } else if (t->isFloat8()) {  // rounded once, saturated (frontend/support/BFloat16.h)
      *dst = fp8::fromDouble(v, t->isE5M2());
    } else if (t->isBFloat16()) {  // rounded once, to nearest even
      uint16_t h = bf16::fromDouble(v);
      std::memcpy(dst, &h, 2);
    } else {
      // float16: IEEE half, rounded to nearest even (Python's own packing,
      // as struct's 'e' format); little-endian, as the devices are.
      if (PyFloat_Pack2(v, reinterpret_cast<char *>(dst), 1) != 0) return false;
    }
    return true;
  }
  if (t->isComplex()) {
    Py_complex c = PyComplex_AsCComplex(o);
    if (c.real == -1.0 && PyErr_Occurred()) return false;
    if (t->bits() == 64) {
      float f[2] = {float(c.real), float(c.imag)};
      std::memcpy(dst, f, 8);
    } else {
      std::memcpy(dst, &c.real, 8);
      std::memcpy(dst + 8, &c.imag, 8);
    }
    return true;
  }
  return t->isNone();
}

std::string numpyDtypeName(const Type *t) {
  if (t->isBool()) return "bool";
  return t->str();
}

// ---- records for kjit.np.numpy_support ---------------------------------------

namespace {

// A record's layout as Python rebuilds its dtype: {names, formats, offsets,
// itemsize, aligned}, each format a scalar's name, a nested layout, or
// (either, shape) for a nested array.
pybind11::dict layoutOf(const Type *rec) {
  pybind11::list names, formats, offsets;
  for (const RecordField &f : rec->fields()) {
    names.append(f.name);
    pybind11::object fmt = f.dtype->isRecord()
                               ? pybind11::object(layoutOf(f.dtype))
                               : pybind11::object(pybind11::str(numpyDtypeName(f.dtype)));
    if (!f.shape.empty()) fmt = pybind11::make_tuple(fmt, pybind11::tuple(pybind11::cast(f.shape)));
    formats.append(fmt);
    offsets.append(f.offset);
  }
  pybind11::dict d;
  d["names"] = names;
  d["formats"] = formats;
  d["offsets"] = offsets;
  d["itemsize"] = rec->recordSize();
  d["aligned"] = rec->recordAligned();
  return d;
}

// One type as Python rebuilds it: ("record", spec), ("array", dtype,
// ndim, layout, readonly), ("tuple", [types]), ("scalar", name), ("none",).
pybind11::tuple describe(const Type *t) {
  if (t->isRecord()) return pybind11::make_tuple("record", recordSpec(t));
  if (t->isArray()) {
    const char *l = t->layout() == Layout::C ? "C" : t->layout() == Layout::F ? "F" : "A";
    return pybind11::make_tuple("array", describe(t->dtype()), t->ndim(), l, t->readonly());
  }
  if (t->isTuple()) {
    pybind11::list elems;
    for (const Type *e : t->elements()) elems.append(describe(e));
    return pybind11::make_tuple("tuple", elems);
  }
  if (t->isNone()) return pybind11::make_tuple("none");
  return pybind11::make_tuple("scalar", t->str());
}

const Type *recordOfSpec(TypeContext &tc, const std::string &spec) {
  const Type *t = tc.dtypeByName(spec);
  if (!t || !t->isRecord()) throw pybind11::value_error("not a record spec: " + spec);
  return t;
}

}  // namespace

void define_records(pybind11::module_ &m) {
  namespace py = pybind11;
  m.def(
      "record_spec",
      [](py::object dtype) -> py::tuple {
        std::string why;
        const std::string &key = dtypeKeyOf(dtype.ptr(), &why);
        if (key.empty() || key[0] != 'R') return py::make_tuple(py::none(), why);
        TypeContext tc;
        return py::make_tuple(key, recordOfSpec(tc, key)->str());
      },
      py::arg("dtype"),
      "(spec, Numba's name) of a structured numpy.dtype's record, or (None, why kjit has no "
      "type for it)");
  m.def(
      "record_layout",
      [](const std::string &spec) {
        TypeContext tc;
        return layoutOf(recordOfSpec(tc, spec));
      },
      py::arg("spec"), "the layout of a record spec: names, formats, offsets, itemsize, aligned");
  m.def(
      "key_type",
      [](const std::string &key) {
        TypeContext tc;
        size_t p = 0;
        const Type *t = jit::typeOfKey(moduleState().jitRuntime().session(), tc, key, p);
        if (!t || p != key.size()) throw py::value_error("not the key of one type: " + key);
        return describe(t);
      },
      py::arg("key"), "the type of one argument's key, as (kind, ...) tuples");
}

pybind11::object kjitTypeObject(const Type *t) {
  pybind11::module_ kt = pybind11::module_::import("kjit.types");
  std::string key = jit::keyOfType(t);
  if (key.find('R') != std::string::npos)  // records: their layout is in the key
    return pybind11::module_::import("kjit.np.numpy_support").attr("_type_of_key")(key);
  if (t->isArray()) {
    const char *layout = t->layout() == Layout::C ? "C" : t->layout() == Layout::F ? "F" : "A";
    return kt.attr("Array")(kjitTypeObject(t->dtype()), t->ndim(), layout, t->readonly());
  }
  if (t->isTuple() && t->fieldNames().empty()) {
    const std::vector<const Type *> &elems = t->elements();
    bool uniform = !elems.empty();
    for (const Type *e : elems) uniform &= e == elems[0];
    if (uniform) return kt.attr("UniTuple")(kjitTypeObject(elems[0]), elems.size());
    pybind11::list parts;
    for (const Type *e : elems) parts.append(kjitTypeObject(e));
    return kt.attr("Tuple")(parts);
  }
  pybind11::object scalars = pybind11::module_::import("kjit.typeof").attr("_SCALARS");
  pybind11::str name(t->str());
  if (scalars.contains(name)) return scalars[name];
  return kt.attr("Type")(name);
}

}  // namespace kjit::py
