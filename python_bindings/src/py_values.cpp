// py_values.cpp - see py_values.h.
#include "py_values.h"

#include <fmt/format.h>
#include <pybind11/numpy.h>

#include <cstring>
#include <vector>

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
  if (o == Py_None) return key += 'n', true;
  auto &api = pybind11::detail::npy_api::get();
  if (api.PyArray_Check_(o)) {
    auto *arr = pybind11::detail::array_proxy(o);
    auto *descr = pybind11::detail::array_descriptor_proxy(arr->descr);
    char code = jit::codeOfTypeNum(descr->type_num);
    if (!code || arr->nd == 0 || arr->nd > 9) return false;
    if (descr->byteorder == '>') return false;  // big-endian data: not this machine's numbers
    int flags = arr->flags;
    constexpr int C_CONTIG = 0x1, F_CONTIG = 0x2, WRITEABLE = 0x400;
    char layout = (flags & C_CONTIG) ? 'C' : (flags & F_CONTIG) ? 'F' : 'A';
    jit::appendArrayKey(key, code, arr->nd, layout, !(flags & WRITEABLE));
    return true;
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

// Writes `o` in the memory form of `t` at `dst`; the type was derived from
// `o` (or is a compatible signature type), so only conversions are checked.
bool writeValue(PyObject *o, const Type *t, unsigned char *dst) {
  if (t->isEnumMember()) {
    pybind11::object value = pybind11::handle(o).attr("value");
    return writeValue(value.ptr(), t->dtype(), dst);
  }
  if (t->isArray()) {
    auto *arr = pybind11::detail::array_proxy(o);
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
    size_t off = 0;
    for (size_t i = 0; i < t->elements().size(); ++i) {
      const Type *e = t->elements()[i];
      size_t align = jit::memAlign(e);
      off = (off + align - 1) / align * align;
      if (!writeValue(PyTuple_GET_ITEM(o, Py_ssize_t(i)), e, dst + off)) return false;
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

}  // namespace kjit::py
