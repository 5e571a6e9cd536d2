// py_values.cpp - see py_values.h.
#include "py_values.h"

#include <cstring>
#include <vector>

#include <fmt/format.h>
#include <pybind11/numpy.h>

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
        {"bool_", 'b'},   {"int8", '1'},    {"int16", '2'},   {"int32", '4'},
        {"int64", '8'},   {"uint8", '!'},   {"uint16", '@'},  {"uint32", '#'},
        {"uint64", '$'},  {"float16", 'h'}, {"float32", 'f'}, {"float64", 'd'},
        {"complex64", 'F'}, {"complex128", 'D'}, {"longlong", '8'}, {"ulonglong", '$'}};
    for (auto &[n, c] : names) r.types.emplace_back(np.attr(n).ptr(), c);
    return r;
  }();
  return s;
}

}  // namespace

// ---- argument type keys ---------------------------------------------------
// One character per scalar kind; arrays are 'A' + dtype + ndim + layout +
// readonly; tuples are bracketed. The key is small enough for the string's
// inline buffer in the common cases, so computing it does not allocate.

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
  if (t->isFloat()) return t->bits() == 16 ? 'h' : t->bits() == 32 ? 'f' : 'd';
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
  case 'f': return tc.floatTy(32);
  case 'd': return tc.floatTy(64);
  case 'F': return tc.complexTy(64);
  case 'D': return tc.complexTy(128);
  default: return nullptr;
  }
}

// NumPy's type numbers to our codes (NPY_BOOL=0 ... NPY_CLONGDOUBLE=16).
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
    char code = codeOfTypeNum(descr->type_num);
    if (!code || arr->nd == 0 || arr->nd > 9) return false;
    if (descr->byteorder == '>') return false;  // big-endian data: not this machine's numbers
    int flags = arr->flags;
    constexpr int C_CONTIG = 0x1, F_CONTIG = 0x2, WRITEABLE = 0x400;
    char layout = (flags & C_CONTIG) ? 'C' : (flags & F_CONTIG) ? 'F' : 'A';
    key += 'A';
    key += code;
    key += char('0' + arr->nd);
    key += layout;
    key += (flags & WRITEABLE) ? 'w' : 'r';
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
  return false;
}

const Type *typeOfKey(TypeContext &tc, const std::string &key, size_t &p) {
  char c = key[p++];
  switch (c) {
  case 'd': return tc.float64();
  case 'b': return tc.boolean();
  case '8': return tc.int64();
  case '$': return tc.intTy(64, false);
  case 'D': return tc.complexTy(128);
  case 'n': return tc.none();
  case 'S': return typeOfCode(tc, key[p++]);
  case 'A': {
    const Type *dt = typeOfCode(tc, key[p]);
    unsigned nd = unsigned(key[p + 1] - '0');
    Layout l = key[p + 2] == 'C' ? Layout::C : key[p + 2] == 'F' ? Layout::F : Layout::A;
    bool ro = key[p + 3] == 'r';
    p += 4;
    return tc.array(dt, nd, l, ro);
  }
  case '(': {
    std::vector<const Type *> elems;
    while (key[p] != ')') elems.push_back(typeOfKey(tc, key, p));
    ++p;
    return tc.tuple(elems);
  }
  default: return nullptr;
  }
}

// ---- marshalling ------------------------------------------------------------
// Memory forms follow the x86-64 C layout that LLVM's data layout gives the
// lowered structs: natural alignment, bool as one byte.

size_t memAlign(const Type *t) {
  if (t->isArray()) return 8;
  if (t->isBool()) return 1;
  if (t->isTuple()) {
    size_t a = 1;
    for (const Type *e : t->elements()) a = std::max(a, memAlign(e));
    return a;
  }
  if (t->isComplex()) return t->bits() / 16;
  if (t->isNone()) return 1;
  return t->bits() / 8;
}
size_t memSize(const Type *t) {
  if (t->isArray()) return 16 + 16 * t->ndim();
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


// Writes `o` in the memory form of `t` at `dst`; the type was derived from
// `o` (or is a compatible signature type), so only conversions are checked.
bool writeValue(PyObject *o, const Type *t, unsigned char *dst) {
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
      size_t align = memAlign(e);
      off = (off + align - 1) / align * align;
      if (!writeValue(PyTuple_GET_ITEM(o, Py_ssize_t(i)), e, dst + off)) return false;
      off += memSize(e);
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
    case 8: { int8_t x = int8_t(v); std::memcpy(dst, &x, 1); break; }
    case 16: { int16_t x = int16_t(v); std::memcpy(dst, &x, 2); break; }
    case 32: { int32_t x = int32_t(v); std::memcpy(dst, &x, 4); break; }
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
      return false;
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


bool convertsTo(const Type *actual, const Type *want) {
  if (want->isNumber()) return actual->isNumber() && !(actual->isComplex() && !want->isComplex());
  if (want->isArray())
    return actual->isArray() && actual->dtype()->str() == want->dtype()->str() && actual->ndim() == want->ndim() &&
           (want->layout() == Layout::A || actual->layout() == want->layout()) &&
           (want->readonly() || !actual->readonly());
  return actual->str() == want->str();
}

std::string keyOfType(const Type *t) {
  if (t->isArray())
    return fmt::format("A{}{}{}{}", dtypeCode(t->dtype()), char('0' + t->ndim()),
                       t->layout() == Layout::C ? 'C' : t->layout() == Layout::F ? 'F' : 'A',
                       t->readonly() ? 'r' : 'w');
  if (t->isTuple()) {
    std::string s = "(";
    for (const Type *e : t->elements()) s += keyOfType(e);
    return s + ")";
  }
  if (t->isNone()) return "n";
  char c = dtypeCode(t);
  if (c == 'd' || c == 'b' || c == '8' || c == '$' || c == 'D') return std::string(1, c);
  return std::string("S") + c;
}

}  // namespace kjit::py
