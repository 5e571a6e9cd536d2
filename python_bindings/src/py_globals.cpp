// py_globals.cpp - what the global names of a compiled function stand for,
// answered in C++ as kjit/dispatcher.py's _Resolver answers them.
//
// A launch miss compiles without entering Python (docs/architecture.md, "The
// launch path"), and the compiler asks about each global name the function
// uses. The answer is read here from the function's closure cells, its
// globals and the builtins, and the value is classified by its type, as
// _Resolver.__call__ and _Resolver.classify do, step by step in their order.
//
// The rule: reading Python objects is allowed, calling Python code is not.
// Dictionary lookups, type checks, C slots and C getters, and attributes that
// PyObject_GetAttr finds in an instance or type dictionary are reads. A
// function written in Python, a property or other descriptor written in
// Python, a class's or a module's __getattr__ are calls. Where the answer
// would need such a call, or the value is of a kind classified in Python
// only (enums, numba type objects, kjit array and tuple types, NumPy arrays,
// device arrays, records, dtypes other than numbers, exception classes,
// @vectorize objects other than ufuncs, int/float subclasses, classes with
// a metaclass), classifyGlobal answers null and the caller asks
// _Resolver.classify: the answers are the same either way
// (tests/python/devices/test_launch_path.py compares them).
#include <pybind11/pybind11.h>

#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "py_common.h"
#include "py_dispatcher.h"

namespace kjit::py {

namespace {

using pybind11::object;

object steal(PyObject *o) {
  if (!o) throw pybind11::error_already_set();
  return pybind11::reinterpret_steal<object>(o);
}

object borrow(PyObject *o) { return pybind11::reinterpret_borrow<object>(o); }

object pair(const char *kind, object value) { return pybind11::make_tuple(kind, std::move(value)); }

// A dictionary's item (borrowed), or null.
PyObject *itemOf(PyObject *dict, const char *key) {
  PyObject *v = PyDict_GetItemWithError(dict, pybind11::str(key).ptr());
  if (!v && PyErr_Occurred()) throw pybind11::error_already_set();
  return v;
}

enum class Found { No, Yes, Unknown };  // Unknown: only Python code can tell

// Whether a descriptor found on a type is read without running Python:
// not a descriptor at all, or one of the interpreter's own kinds.
bool readsWithoutPython(PyObject *d) {
  PyTypeObject *t = Py_TYPE(d);
  return !t->tp_descr_get || t == &PyFunction_Type || t == &PyMethodDescr_Type ||
         t == &PyClassMethodDescr_Type || t == &PyMemberDescr_Type || t == &PyGetSetDescr_Type ||
         t == &PyWrapperDescr_Type || t == &PyStaticMethod_Type;
}

// A module's attribute, from its dictionary. A name it lacks would go to a
// module-level __getattr__: Unknown, unless `trustGetattr` (kjit's and
// NumPy's modules, whose __getattr__ makes up no kjit marker).
Found moduleAttr(PyObject *module, const char *name, object &out, bool trustGetattr = false) {
  if (Py_TYPE(module)->tp_getattro != PyModule_Type.tp_getattro ||
      _PyType_Lookup(Py_TYPE(module), pybind11::str(name).ptr()))
    return Found::Unknown;
  PyObject *d = PyModule_GetDict(module);
  if (PyObject *v = itemOf(d, name)) {
    out = borrow(v);
    return Found::Yes;
  }
  return itemOf(d, "__getattr__") && !trustGetattr ? Found::Unknown : Found::No;
}

// getattr(v, name) where that runs no Python code; Unknown where it would.
Found plainAttr(PyObject *v, const char *name, object &out, bool trustGetattr = false) {
  pybind11::str key(name);
  PyTypeObject *tp = Py_TYPE(v);
  if (PyModule_Check(v)) return moduleAttr(v, name, out, trustGetattr);
  if (PyType_Check(v)) {
    if (tp->tp_getattro != PyType_Type.tp_getattro || _PyType_Lookup(tp, key.ptr()))
      return Found::Unknown;  // a metaclass's lookup or attribute
    PyObject *a = _PyType_Lookup(reinterpret_cast<PyTypeObject *>(v), key.ptr());
    if (!a) return Found::No;
    if (!readsWithoutPython(a)) return Found::Unknown;
    out = steal(PyObject_GetAttr(v, key.ptr()));
    return Found::Yes;
  }
  // The generic lookup (PyObject_GenericGetAttr), which a class's
  // __getattr__ only follows; a __getattribute__ of its own replaces it.
  if (tp->tp_getattro != PyObject_GenericGetAttr &&
      _PyType_Lookup(tp, pybind11::str("__getattribute__").ptr()) !=
          _PyType_Lookup(&PyBaseObject_Type, pybind11::str("__getattribute__").ptr()))
    return Found::Unknown;
  if (PyObject *a = _PyType_Lookup(tp, key.ptr()); a && !readsWithoutPython(a))
    return Found::Unknown;
  if (PyObject *r = PyObject_GenericGetAttr(v, key.ptr())) {
    out = steal(r);
    return Found::Yes;
  }
  if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw pybind11::error_already_set();
  PyErr_Clear();
  bool hook = tp->tp_getattro != PyObject_GenericGetAttr &&
              _PyType_Lookup(tp, pybind11::str("__getattr__").ptr());
  return hook ? Found::Unknown : Found::No;
}

// A string marker attribute (getattr(v, name, None) being a str): the
// string, None when there is none, null when only Python can tell.
std::optional<object> marker(PyObject *v, const char *name, bool trustGetattr = false) {
  object out;
  switch (plainAttr(v, name, out, trustGetattr)) {
  case Found::Unknown: return std::nullopt;
  case Found::No: return pybind11::none();
  case Found::Yes: break;
  }
  return PyUnicode_Check(out.ptr()) ? out : pybind11::none();
}

bool isHeapType(PyTypeObject *t) { return t->tp_flags & Py_TPFLAGS_HEAPTYPE; }

// type(v).__name__.
std::string typeName(PyTypeObject *t) {
  if (isHeapType(t)) return pybind11::str(reinterpret_cast<PyHeapTypeObject *>(t)->ht_name);
  const char *dot = std::strrchr(t->tp_name, '.');
  return dot ? dot + 1 : t->tp_name;
}

// What _Resolver.classify answers, computed without calling Python.
class Classifier {
 public:
  // Null when `resolver` is not a _Resolver whose class says its methods
  // are mirrored here (_mirrored_in_cpp, in the class's own dictionary: a
  // subclass may answer differently).
  static std::optional<Classifier> of(PyObject *resolver) {
    auto *tp = Py_TYPE(resolver);
    if (!isHeapType(tp) || !tp->tp_dict || itemOf(tp->tp_dict, "_mirrored_in_cpp") != Py_True)
      return std::nullopt;
    PyObject *classify = _PyType_Lookup(tp, pybind11::str("classify").ptr());
    if (!classify || !PyFunction_Check(classify)) return std::nullopt;
    Classifier c;
    c.resolver_ = resolver;
    c.globals_ = PyFunction_GET_GLOBALS(classify);
    for (const char *m : {"np", "math", "cmath", "operator", "builtins", "sys", "kt"})
      if (!c.global(m) || !PyModule_Check(c.global(m))) return std::nullopt;
    return c;
  }

  // The classified value, or null: ask _Resolver.classify.
  object classify(PyObject *v) {
    if (v == Py_None) return pair("none", pybind11::none());
    if (PyBool_Check(v)) return pair("bool", borrow(v));
    // Numbers: NumPy's own scalar types and Python's exact ones here; a
    // subclass (an IntEnum member, a class derived from np.float32) in Python.
    std::optional<bool> numpyOwn;
    if ((numpyOwn = numpyScalar(v, "bool_"))) {
      if (!*numpyOwn) return {};
      return pair("bool", pybind11::bool_(PyObject_IsTrue(v) == 1));
    }
    if (PyLong_CheckExact(v)) return pair("int", borrow(v));
    if (PyLong_Check(v)) return {};
    if ((numpyOwn = numpyScalar(v, "integer"))) {
      if (!*numpyOwn) return {};
      return pair("int", steal(PyNumber_Long(v)));
    }
    numpyOwn = numpyScalar(v, "floating");
    if (PyFloat_CheckExact(v) || (numpyOwn && *numpyOwn))
      return pair("float", steal(PyNumber_Float(v)));
    if (PyFloat_Check(v) || numpyOwn) return {};
    numpyOwn = numpyScalar(v, "complexfloating");
    if (PyComplex_CheckExact(v) || (numpyOwn && *numpyOwn)) {
      Py_complex c = PyComplex_AsCComplex(v);
      if (PyErr_Occurred()) throw pybind11::error_already_set();
      return pair("complex", steal(PyComplex_FromCComplex(c)));
    }
    if (PyComplex_Check(v) || numpyOwn) return {};
    if (PyUnicode_Check(v)) return pair("str", borrow(v));
    if (PyTuple_Check(v)) return pair("tuple", borrow(v));
    PyObject *dispatcherType = global("Dispatcher");
    if (!dispatcherType || !PyType_Check(dispatcherType)) return {};
    if (PyObject_TypeCheck(v, reinterpret_cast<PyTypeObject *>(dispatcherType)))
      return pair("jit", borrow(v));
    // Markers: kjit's builtins, namespaces, @jitclass, cuda.declare_device.
    // (A module's __getattr__ is trusted for the modules kjit knows.)
    std::optional<std::string> kjitName;  // a module's, as _module_name says
    if (PyModule_Check(v)) {
      kjitName = moduleName(v);
      if (!kjitName) return {};
    }
    bool trusted = kjitName && !kjitName->empty();
    auto builtin = marker(v, "_kjit_builtin", trusted);
    if (!builtin) return {};
    if (!builtin->is_none()) return pair("function", *builtin);
    if (!PyModule_Check(v)) {
      auto ns = marker(v, "_kjit_module");
      if (!ns) return {};
      if (!ns->is_none()) return pair("module", *ns);
    }
    if (PyType_Check(v)) {
      auto id = marker(v, "_kjit_class_id");
      if (!id) return {};
      if (!id->is_none()) return pair("jitclass", *id);
    } else {
      auto declared = marker(v, "_kjit_declared", trusted);
      if (!declared) return {};
      if (!declared->is_none()) return pair("function", *declared);
    }
    if (typeName(Py_TYPE(v)) == "CUDAKernel") {
      object d;
      Found f = plainAttr(v, "_dispatcher", d);
      if (f == Found::Unknown) return {};
      if (f == Found::Yes) return pair("jit", d);
    }
    object func, dispatcher;
    if (plainAttr(resolver_, "func", func) != Found::Yes ||
        plainAttr(resolver_, "dispatcher", dispatcher) != Found::Yes)
      return {};
    if (!dispatcher.is_none() && v == func.ptr()) return pair("jit", dispatcher);
    if (PyModule_Check(v)) {
      if (kjitName->empty())
        return pair("unsupported",
                    pybind11::str("module {}").format(steal(PyModule_GetNameObject(v))));
      return pair("module", pybind11::str(*kjitName));
    }
    // Only these kinds are classified here from now on.
    PyObject *kt = global("kt");
    object ktType, ktArray, ktUniTuple, ktTuple;
    if (moduleAttr(kt, "Type", ktType) != Found::Yes ||
        moduleAttr(kt, "Array", ktArray) != Found::Yes ||
        moduleAttr(kt, "UniTuple", ktUniTuple) != Found::Yes ||
        moduleAttr(kt, "Tuple", ktTuple) != Found::Yes)
      return {};
    if (isInstance(v, ktType)) {
      if (isInstance(v, ktArray) || isInstance(v, ktUniTuple) || isInstance(v, ktTuple)) return {};
      object name;
      if (plainAttr(v, "name", name) != Found::Yes) return {};
      return pair("dtype", name);
    }
    if (PyType_Check(v)) return classifyClass(v);
    PyObject *ufunc = npType("ufunc"), *dtype = npType("dtype");
    if (!ufunc || !dtype) return {};
    bool isUfunc = PyObject_TypeCheck(v, reinterpret_cast<PyTypeObject *>(ufunc));
    if (PyFunction_Check(v) || PyCFunction_Check(v) || isUfunc || isArrayFunction(v))
      return classifyFunction(v, isUfunc);
    if (PyObject_TypeCheck(v, reinterpret_cast<PyTypeObject *>(dtype))) {
      if (auto found = claimed(v); !found || *found) return found ? *found : object();
      std::optional<std::string> name = numberDtypeName(v);
      if (name) return pair("dtype", pybind11::str(*name));
    }
    return {};
  }

  // _Resolver.__call__: the value a name stands for (closure, globals,
  // builtins, the function itself while its decorator compiles), classified;
  // None for a name that is none of these. Null: ask _Resolver.classify
  // about `*value`.
  object resolve(const std::string &name, object *value) {
    pybind11::str key(name);
    object closure, emptyCells, globals, func, dispatcher;
    if (plainAttr(resolver_, "closure", closure) != Found::Yes ||
        plainAttr(resolver_, "_empty_cells", emptyCells) != Found::Yes ||
        plainAttr(resolver_, "globals", globals) != Found::Yes ||
        plainAttr(resolver_, "func", func) != Found::Yes ||
        plainAttr(resolver_, "dispatcher", dispatcher) != Found::Yes ||
        !PyDict_CheckExact(closure.ptr()) || !PyDict_CheckExact(emptyCells.ptr()) ||
        !PyDict_Check(globals.ptr()))
      return steal(PyObject_CallOneArg(resolver_, key.ptr()));  // not the usual resolver
    if (PyObject *cell = itemOf(emptyCells.ptr(), name.c_str())) {
      if (!PyCell_Check(cell)) return steal(PyObject_CallOneArg(resolver_, key.ptr()));
      if (PyObject *contents = PyCell_GET(cell)) {  // assigned since the decorator ran
        if (PyDict_SetItem(closure.ptr(), key.ptr(), contents) != 0 ||
            PyDict_DelItem(emptyCells.ptr(), key.ptr()) != 0)
          throw pybind11::error_already_set();
      }
    }
    PyObject *v = itemOf(closure.ptr(), name.c_str());
    if (!v) v = itemOf(globals.ptr(), name.c_str());
    object builtinValue;
    if (!v) {
      Found f = moduleAttr(global("builtins"), name.c_str(), builtinValue);
      if (f == Found::Unknown) return steal(PyObject_CallOneArg(resolver_, key.ptr()));
      v = builtinValue.ptr();
    }
    if (v) {
      *value = borrow(v);
      return classify(v);
    }
    if (!dispatcher.is_none() && PyFunction_Check(func.ptr()) &&
        pybind11::str(reinterpret_cast<PyFunctionObject *>(func.ptr())->func_name)
                .cast<std::string>() == name)
      return pair("jit", dispatcher);  // recursion while the decorator compiles
    return pybind11::none();
  }

 private:
  PyObject *resolver_ = nullptr;
  PyObject *globals_ = nullptr;  // the classifier's module's (np, math, Dispatcher ...)

  PyObject *global(const char *name) { return itemOf(globals_, name); }

  PyObject *npType(const char *name) {
    object t;
    if (moduleAttr(global("np"), name, t) != Found::Yes || !PyType_Check(t.ptr())) return nullptr;
    return t.ptr();  // (kept alive by the module)
  }

  static bool isInstance(PyObject *v, const object &cls) {
    return PyType_Check(cls.ptr()) &&
           PyObject_TypeCheck(v, reinterpret_cast<PyTypeObject *>(cls.ptr()));
  }

  // Whether `v` is an instance of np.<abstract>: nothing when it is not,
  // true for NumPy's own scalar types, false for a subclass made in Python.
  std::optional<bool> numpyScalar(PyObject *v, const char *abstract) {
    PyObject *t = npType(abstract);
    if (!t) return false;  // (np lacks it: Python answers)
    if (!PyObject_TypeCheck(v, reinterpret_cast<PyTypeObject *>(t))) return std::nullopt;
    return !isHeapType(Py_TYPE(v));
  }

  // dtype.name of a NumPy number dtype (bool, integers, floats, complex),
  // from its kind and size; nothing for other dtypes.
  static std::optional<std::string> numberDtypeName(PyObject *dtype) {
    object num = steal(PyObject_GetAttrString(dtype, "num"));
    long n = PyLong_AsLong(num.ptr());
    if (!((n >= 0 && n <= 16) || n == 23)) return std::nullopt;  // NumPy's own number types
    std::string kind = pybind11::str(steal(PyObject_GetAttrString(dtype, "kind")));
    long bits = 8 * PyLong_AsLong(steal(PyObject_GetAttrString(dtype, "itemsize")).ptr());
    if (kind == "b") return std::string("bool");
    if (kind == "i") return "int" + std::to_string(bits);
    if (kind == "u") return "uint" + std::to_string(bits);
    if (kind == "f") return "float" + std::to_string(bits);
    if (kind == "c") return "complex" + std::to_string(bits);
    return std::nullopt;
  }

  // _module_name: kjit's name of a module, "" for one kjit does not know,
  // nothing when only Python can tell.
  std::optional<std::string> moduleName(PyObject *m) {
    PyObject *known = global("_MODULES");
    if (!known || !PyDict_CheckExact(known)) return std::nullopt;
    PyObject *name = PyDict_GetItemWithError(known, m);
    if (name) return pybind11::str(name).cast<std::string>();
    if (PyErr_Occurred()) throw pybind11::error_already_set();
    object n;
    if (moduleAttr(m, "__name__", n) != Found::Yes || !PyUnicode_Check(n.ptr()))
      return std::nullopt;
    std::string s = n.cast<std::string>();
    if (s == "kjit" || s == "numba") return std::string("kjit");
    if (s == "kjit.types" || s == "numba.types" || s == "numba.core.types")
      return std::string("kjit.types");
    if (s == "kjit.cuda" || s == "numba.cuda" || s.rfind("kjit.cuda.", 0) == 0)
      return std::string("kjit.cuda");
    return std::string();
  }

  // A class whose metaclass is type: NumPy's scalar types, the builtins
  // kjit calls, typed.List/Dict, else unsupported.
  object classifyClass(PyObject *v) {
    if (Py_TYPE(v) != &PyType_Type) return {};
    auto *t = reinterpret_cast<PyTypeObject *>(v);
    PyObject *generic = npType("generic");
    if (!generic) return {};
    if (PyType_IsSubtype(t, reinterpret_cast<PyTypeObject *>(generic))) {
      if (isHeapType(t)) return {};
      for (const char *abstract :
           {"generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact",
            "floating", "complexfloating", "flexible", "character"})
        if (v == npType(abstract)) return {};  // (np.dtype() of one warns)
      object d = steal(PyObject_CallOneArg(npType("dtype"), v));
      std::optional<std::string> name = numberDtypeName(d.ptr());
      return name ? pair("dtype", pybind11::str(*name)) : object();
    }
    if (PyType_IsSubtype(t, reinterpret_cast<PyTypeObject *>(PyExc_BaseException))) return {};
    static const std::pair<PyTypeObject *, const char *> builtins[] = {
        {&PyLong_Type, "int"},        {&PyFloat_Type, "float"}, {&PyBool_Type, "bool"},
        {&PyComplex_Type, "complex"}, {&PyRange_Type, "range"}, {&PyEnum_Type, "enumerate"},
        {&PyZip_Type, "zip"},         {&PyTuple_Type, "tuple"}, {&PyList_Type, "list"},
        {&PyDict_Type, "dict"},       {&PySet_Type, "set"},     {&PyUnicode_Type, "str"}};
    for (const auto &[type, name] : builtins)
      if (t == type) return pair("function", pybind11::str(std::string("builtins.") + name));
    object modules, typed;
    if (moduleAttr(global("sys"), "modules", modules) != Found::Yes || !PyDict_Check(modules.ptr()))
      return {};
    if (PyObject *m = itemOf(modules.ptr(), "kjit.typed"); m && m != Py_None) {
      if (!PyModule_Check(m)) return {};
      for (const char *name : {"List", "Dict"}) {
        object cls;
        Found f = moduleAttr(m, name, cls);
        if (f == Found::Unknown) return {};
        if (f == Found::Yes && cls.ptr() == v)
          return pair("function", pybind11::str(std::string("kjit.typed.") + name));
      }
    }
    return pair("unsupported", pybind11::str("class {}").format(typeName(t)));
  }

  // A Python function, a builtin function or a NumPy ufunc: kjit's
  // prange and literal_unroll, a @vectorize ufunc's scalar function, else
  // the builtin, operator, math, cmath or NumPy function it is.
  object classifyFunction(PyObject *v, bool isUfunc) {
    for (const char *name : {"prange", "literal_unroll"}) {
      PyObject *f = global(name);
      if (!f) return {};
      if (v == f) return pair("function", pybind11::str(std::string("kjit.") + name));
    }
    if (auto found = claimed(v); !found || *found) return found ? *found : object();
    object mod = getattrOr(v, "__module__");
    if (!mod.is_none() && !PyUnicode_Check(mod.ptr())) return {};
    std::string modName = mod.is_none() ? std::string() : mod.cast<std::string>();
    if (modName.empty()) modName = isUfunc ? "numpy" : "";
    object nameObj = getattrOr(v, "__name__");
    if (nameObj.is_none()) nameObj = pybind11::str("");
    if (!PyUnicode_Check(nameObj.ptr())) return {};
    std::string name = nameObj.cast<std::string>();
    auto is = [&](const char *module, bool &unknown) {
      object f;
      Found found = moduleAttr(global(module), name.c_str(), f);
      unknown = found == Found::Unknown;
      return found == Found::Yes && f.ptr() == v;
    };
    bool unknown = false;
    if (is("builtins", unknown)) return pair("function", pybind11::str("builtins." + name));
    if (unknown) return {};
    if (is("operator", unknown) && name.rfind('_', 0) != 0)
      return pair("function", pybind11::str("operator." + name));
    if (unknown) return {};
    if (modName == "math" || is("math", unknown))
      return pair("function", pybind11::str("math." + name));
    if (unknown) return {};
    if (modName == "cmath" || is("cmath", unknown))
      return pair("function", pybind11::str("cmath." + name));
    if (unknown) return {};
    if (isUfunc || is("np", unknown)) return pair("function", pybind11::str("numpy." + name));
    if (unknown) return {};
    if ((name == "prange" || name == "literal_unroll") && modName.rfind("numba", 0) == 0)
      return pair("function", pybind11::str("kjit." + name));
    object qualname = getattrOr(v, "__qualname__");
    return pair("unsupported",
                pybind11::str("function {} (not a kjit function: decorate it with @jit)")
                    .format(qualname.is_none() ? nameObj : qualname));
  }

  // What the classifiers registered by the layers above @jit
  // (dispatcher.register_classifier; kjit.vectorize's) answer for a
  // function, builtin, ufunc or dtype. Each lists the values of these kinds
  // it answers for in its _kjit_claims, a dict id(value) -> (value, its
  // @jit function), read here: null when it says something (the value's
  // ("jit", function)), an empty object when none claims it, nothing when
  // only calling one can tell (it has no _kjit_claims).
  std::optional<object> claimed(PyObject *v) {
    PyObject *classifiers = global("_CLASSIFIERS");
    if (!classifiers || !PyList_CheckExact(classifiers)) return std::nullopt;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(classifiers); ++i) {
      PyObject *c = PyList_GET_ITEM(classifiers, i);
      if (!PyFunction_Check(c)) return std::nullopt;
      PyObject *attrs = reinterpret_cast<PyFunctionObject *>(c)->func_dict;  // (or null)
      PyObject *claims = attrs ? itemOf(attrs, "_kjit_claims") : nullptr;
      if (!claims || !PyDict_CheckExact(claims)) return std::nullopt;
      object id = steal(PyLong_FromVoidPtr(v));
      PyObject *entry = PyDict_GetItemWithError(claims, id.ptr());
      if (!entry && PyErr_Occurred()) throw pybind11::error_already_set();
      if (!entry) continue;
      if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 2) return std::nullopt;
      if (PyTuple_GET_ITEM(entry, 0) == v) return pair("jit", borrow(PyTuple_GET_ITEM(entry, 1)));
    }
    return object();
  }

  // NumPy's functions that take part in __array_function__ (np.sum, np.empty
  // ... since NumPy 1.25): a C type, numpy._ArrayFunctionDispatcher, whose
  // attributes (__name__, __module__) are data in its __dict__.
  static bool isArrayFunction(PyObject *v) {
    std::string_view type = Py_TYPE(v)->tp_name;
    std::string_view suffix = "_ArrayFunctionDispatcher";
    return type.size() >= suffix.size() && type.substr(type.size() - suffix.size()) == suffix &&
           type.rfind("numpy", 0) == 0;
  }

  // getattr(v, name, None) of a function, builtin or ufunc (C getters).
  static object getattrOr(PyObject *v, const char *name) {
    if (PyObject *r = PyObject_GetAttrString(v, name)) return steal(r);
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw pybind11::error_already_set();
    PyErr_Clear();
    return pybind11::none();
  }
};

}  // namespace

object classifyGlobal(const object &resolver, PyObject *value) {
  if (auto c = Classifier::of(resolver.ptr()))
    if (object r = c->classify(value)) return r;
  return resolver.attr("classify")(pybind11::handle(value));
}

object resolveGlobalName(const object &resolver, const std::string &name) {
  auto c = Classifier::of(resolver.ptr());
  if (!c) return resolver(name);
  object value;
  object r = c->resolve(name, &value);
  if (!r) return resolver.attr("classify")(value);
  return r;
}

void define_globals(pybind11::module_ &m) {
  // Tests: what the C++ classifier answers for `value`, None where it asks
  // _Resolver.classify (tests/python/devices/test_launch_path.py).
  m.def("_classify_in_cpp", [](object resolver, object value) -> object {
    auto c = Classifier::of(resolver.ptr());
    if (!c) return pybind11::none();
    object r = c->classify(value.ptr());
    return r ? r : pybind11::none();
  });
}

}  // namespace kjit::py
