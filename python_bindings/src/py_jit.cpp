// py_jit.cpp - @jit from Python: the dispatcher and its call path.
//
// A Dispatcher is the Python face of a jit::JitFunction (runtime/jit): it
// turns a call's arguments into an argument type key in C++ (no Python-level
// work per argument), asks the driver for the specialisation, marshals the
// arguments into the entry's ABI (compiler/Lowering.h) and converts the
// result back. Every compile, cache and overload rule is the driver's.
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

#include "compiler/JitClass.h"
#include "compiler/Session.h"
#include "compiler/Signature.h"
#include "frontend/SourceMap.h"
#include "frontend/support/BFloat16.h"
#include "frontend/support/KernelAbi.h"
#include "py_common.h"
#include "py_dispatcher.h"
#include "py_values.h"
#include "runtime/host/HostRuntime.h"
#include "runtime/jit/JitFunction.h"
#include "runtime/jit/TypeKeys.h"

namespace kjit::py {

pybind11::object exceptionClass(const std::string &name) {
  pybind11::module_ builtins = pybind11::module_::import("builtins");
  if (name.find('.') == std::string::npos) {
    if (pybind11::hasattr(builtins, name.c_str())) return builtins.attr(name.c_str());
  } else {
    pybind11::dict user = pybind11::module_::import("kjit.errors").attr("_RAISED_CLASSES");
    if (user.contains(name)) return user[name.c_str()];
    // A class of a module that compiled code names by itself (the NumPy
    // library's numpy.linalg.LinAlgError): imported when first raised.
    size_t dot = name.rfind('.');
    try {
      pybind11::object cls =
          pybind11::module_::import(name.substr(0, dot).c_str()).attr(name.substr(dot + 1).c_str());
      if (PyType_Check(cls.ptr()) && PyObject_IsSubclass(cls.ptr(), PyExc_Exception) == 1)
        return cls;
    } catch (const pybind11::error_already_set &) {
    }
  }
  return builtins.attr("RuntimeError");
}

namespace {

uint32_t fastmathFlags(pybind11::handle v) {
  if (v.is_none()) return 0;
  if (PyBool_Check(v.ptr())) return v.ptr() == Py_True ? uint32_t(FastMath::All) : 0u;
  uint32_t flags = 0;
  for (auto item : v) {
    std::string n = pybind11::str(item);
    uint32_t f = FastMath::fromName(n);
    if (!f)
      throw pybind11::value_error(
          "unknown fastmath flag '" + n +
          "': the flags are reassoc, nnan, ninf, nsz, arcp, contract, afn, fast");
    flags |= f;
  }
  return flags;
}

bool option(const pybind11::dict &options, const char *k) {
  return options.contains(k) && pybind11::bool_(options[k]);
}

// @cuda.jit's code-generation options (kjit/cuda/compiler.py passes them as
// options["_cuda"]).
jit::CudaOptions cudaOptions(const pybind11::dict &options) {
  jit::CudaOptions o;
  if (!options.contains("_cuda")) return o;
  pybind11::dict c = options["_cuda"];
  o.fastmath = option(c, "fastmath");
  o.lineinfo = option(c, "lineinfo");
  o.debug = option(c, "debug");
  if (c.contains("max_registers")) o.maxRegisters = c["max_registers"].cast<int>();
  if (c.contains("max_threads")) o.maxThreads = c["max_threads"].cast<int>();
  if (c.contains("min_blocks")) o.minBlocks = c["min_blocks"].cast<int>();
  if (c.contains("max_cluster_rank")) o.maxClusterRank = c["max_cluster_rank"].cast<int>();
  return o;
}

}  // namespace

Dispatcher::Dispatcher(pybind11::object pyfunc, std::string name, std::string filename,
                       std::string text, uint32_t firstLine, pybind11::object resolver,
                       pybind11::dict options, pybind11::object sourceMap)
    : pyfunc_(std::move(pyfunc)), resolver_(std::move(resolver)) {
  // A generator function's list of values comes back as an iterator.
  generator_ = PyFunction_Check(pyfunc_.ptr()) &&
               (reinterpret_cast<PyCodeObject *>(PyFunction_GET_CODE(pyfunc_.ptr()))->co_flags &
                CO_GENERATOR);
  auto source = std::make_shared<FunctionSource>();
  source->name = std::move(name);
  source->filename = std::move(filename);
  source->text = std::move(text);
  source->firstLine = firstLine;
  if (!sourceMap.is_none()) {
    // (user's file name, its text or "", the def's line, [(8 ints), ...]):
    // the text was rebuilt from bytecode (kjit/bytecode).
    auto t = sourceMap.cast<pybind11::tuple>();
    auto map = std::make_shared<SourceMap>();
    map->filename = t[0].cast<std::string>();
    map->fileText = t[1].cast<std::string>();
    map->defLine = t[2].cast<uint32_t>();
    for (pybind11::handle e : t[3].cast<pybind11::list>()) {
      auto v = e.cast<std::array<uint32_t, 8>>();
      map->entries.push_back({v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]});
    }
    if (t.size() > 4 && !t[4].is_none()) {
      // (message, line, column, end column): reported at compile time.
      auto e = t[4].cast<pybind11::tuple>();
      map->error = e[0].cast<std::string>();
      map->errorLine = e[1].cast<uint32_t>();
      map->errorCol = e[2].cast<uint32_t>();
      map->errorEndCol = e[3].cast<uint32_t>();
    }
    source->sourceMap = std::move(map);
  }
  source->identity = reinterpret_cast<uint64_t>(this);
  source->fastmath =
      fastmathFlags(options.contains("fastmath") ? pybind11::object(options["fastmath"])
                                                 : pybind11::object(pybind11::none()));
  jit::JitOptions jo;
  source->boundscheck = option(options, "boundscheck");
  jo.cpuBoundscheck = !(options.contains("boundscheck") && !source->boundscheck);
  // NUMBA_BOUNDSCHECK (or KJIT_BOUNDSCHECK) set to 0 or 1 overrides the
  // option, as in Numba.
  for (const char *var : {"KJIT_BOUNDSCHECK", "NUMBA_BOUNDSCHECK"}) {
    const char *v = std::getenv(var);
    if (v && *v) {
      source->boundscheck = std::string(v) != "0";
      jo.cpuBoundscheck = source->boundscheck;
      break;
    }
  }
  source->parallel = option(options, "parallel");
  if (options.contains("error_model")) {
    pybind11::object em = options["error_model"];
    std::string model =
        pybind11::isinstance<pybind11::str>(em) ? em.cast<std::string>() : std::string("?");
    if (model != "python" && model != "numpy")
      throw pybind11::value_error(
          "error_model is 'python' (division by zero raises ZeroDivisionError) or "
          "'numpy' (it gives inf, nan or 0), not " +
          pybind11::repr(em).cast<std::string>());
    source->numpyErrors = model == "numpy";
  }
  nogil_ = option(options, "nogil");
  parallel_ = source->parallel;
  jo.cache = option(options, "cache");
  jo.cuda = cudaOptions(options);
  pybind11::object res = resolver_;
  source->lookup = [res](const std::string &n) { return resolveGlobal(res, n); };
  pybind11::object defaults = pyfunc_.attr("__defaults__");
  if (!defaults.is_none()) defaults_ = pybind11::tuple(defaults);
  pybind11::object code = pyfunc_.attr("__code__");
  size_t nparams = code.attr("co_argcount").cast<size_t>();
  pybind11::tuple varnames = code.attr("co_varnames");
  for (size_t i = 0; i < nparams; ++i)
    source->paramNames.push_back(varnames[i].cast<std::string>());
  fn_ = std::make_shared<jit::JitFunction>(jitRuntime(), std::move(source), jo);
}

// The call path: `args` is the call's tuple, `kwargs` a dict or null.
pybind11::object Dispatcher::call(PyObject *args, PyObject *kwargs) {
  PyObject *argv[kMaxArgs];
  size_t n = size_t(PyTuple_GET_SIZE(args));
  size_t nparams = fn_->paramCount();
  pybind11::tuple bound;
  if (n > kMaxArgs || nparams > kMaxArgs)
    throw pybind11::type_error(fmt::format("kjit functions take at most {} arguments", kMaxArgs));
  if ((kwargs && PyDict_GET_SIZE(kwargs) != 0) || n != nparams) {
    // Bind keyword arguments and defaults to positions.
    bound = bind(pybind11::reinterpret_borrow<pybind11::tuple>(args),
                 kwargs ? pybind11::reinterpret_borrow<pybind11::dict>(kwargs) : pybind11::dict());
    n = bound.size();
    for (size_t i = 0; i < n; ++i) argv[i] = bound[i].ptr();
  } else {
    for (size_t i = 0; i < n; ++i) argv[i] = PyTuple_GET_ITEM(args, Py_ssize_t(i));
  }
  std::string key = argumentKey(argv, n, false);
  jit::CompileResult &c = fn_->hostFor(key);
  if (!c.cacheWarning.empty()) {  // (once: a cache entry rebuilt by this compile)
    std::string text = std::move(c.cacheWarning);
    c.cacheWarning.clear();
    warnCache(text, 2);
  }
  return invoke(c, argv, n);
}

std::string Dispatcher::argumentKey(PyObject **argv, size_t n, bool kernel) const {
  std::string key;
  const std::vector<std::string> &params = fn_->source()->paramNames;
  for (size_t i = 0; i < n; ++i) {
    // (Kernels cannot take lists: only host functions reflect them.)
    if ((kernel && (PyList_Check(argv[i]) || PyUnicode_Check(argv[i]))) ||
        !appendKey(argv[i], key)) {
      if (PyErr_Occurred()) throw pybind11::error_already_set();
      throw jit::typeError(jit::cannotTakeMessage(jit::Caller{name(), kernel}.describe(), i,
                                                  i < params.size() ? params[i] : std::string(),
                                                  typeNameOf(argv[i])) +
                           whyNoKey(argv[i]));
    }
  }
  return key;
}

void marshal(const jit::CompileResult &c, PyObject **argv, size_t n, Marshalled &m,
             const jit::Caller &who) {
  for (size_t i = 0; i < n; ++i) {
    unsigned char *dst = m.slots[i].bytes;
    if (c.argBytes[i] > sizeof(m.slots[i].bytes)) {
      m.large.emplace_back(c.argBytes[i] + 16);
      dst = m.large.back().data();
    }
    if (!writeValue(argv[i], c.args[i], dst, &m.lists)) {
      if (PyErr_Occurred()) throw pybind11::error_already_set();
      throw pybind11::type_error(fmt::format("{}: cannot convert argument {} to {}", who.describe(),
                                             i + 1, c.args[i]->str()));
    }
    m.ptrs[i] = dst;
  }
}

pybind11::object Dispatcher::invoke(const jit::CompileResult &c, PyObject **argv, size_t n) {
  Marshalled m;
  marshal(c, argv, n, m, jit::Caller{name(), false});
  alignas(16) unsigned char small[256];
  std::vector<unsigned char> big;
  unsigned char *ret = small;
  if (c.retBytes > sizeof(small)) {
    big.resize(c.retBytes + 16);
    ret = big.data();
  }
  KjitCallContext ctx;
  if (parallel_) {  // (several threads run it: the caller's stack now)
    ctx.pool = &jitRuntime().threadPool();
    ctx.useThreadStack();
  }
  int status;
  if (nogil_) {
    pybind11::gil_scoped_release release;
    status = c.entry(m.ptrs, ret, &ctx);
  } else {
    status = c.entry(m.ptrs, ret, &ctx);
  }
  Owners owners;
  // The Python objects the list arguments (and @jitclass instances) were
  // made from: the values written back and the result reuse them, so that
  // a list held in another list, or an instance in another, keeps its
  // identity (and no written-back container drops an object that a later
  // entry still writes to).
  for (const ListArgs::Entry &e : m.lists.entries)
    if (e.type->isList() || e.type->isJitClass())
      owners[reflectedKey(e.list)] = pybind11::reinterpret_borrow<pybind11::object>(
          e.type->isJitClass() ? e.instance : e.object);
  // List arguments the call changed: their new contents go back into the
  // Python lists (Numba's reflection), also when it raised.
  for (const ListArgs::Entry &e : m.lists.entries) {
    if ((!e.type->isList() && !e.type->isJitClass()) || !ListArgs::changed(e)) continue;
    // The elements (a @jitclass instance's: the tuple of its fields, which
    // go back into its box).
    pybind11::list now = elementsToPython(e.type->dtype(), e.list, ctx, argv, n, owners);
    if (PyList_SetSlice(e.object, 0, PyList_GET_SIZE(e.object), now.ptr()) != 0)
      throw pybind11::error_already_set();
  }
  // Dict arguments: their contents now (Numba's typed dicts are shared).
  for (const ListArgs::DictEntry &d : m.lists.dicts) {
    pybind11::object now =
        toPython(d.type, reinterpret_cast<unsigned char *>(const_cast<KjitList **>(d.parts)), ctx,
                 argv, n, owners);
    PyDict_Clear(d.object);
    if (PyDict_Update(d.object, now.ptr()) != 0) throw pybind11::error_already_set();
  }
  if (status != 0) raise(ctx);
  pybind11::object result = toPython(c.ret, ret, ctx, argv, n, owners);
  if (!generator_) return result;
  PyObject *it = PyObject_GetIter(result.ptr());
  if (!it) throw pybind11::error_already_set();
  return pybind11::reinterpret_steal<pybind11::object>(it);
}

pybind11::list Dispatcher::elementsToPython(const Type *elem, const KjitList *l,
                                            KjitCallContext &ctx, PyObject **argv, size_t n,
                                            Owners &owners) {
  size_t isz = jit::memSize(elem);
  pybind11::list out(size_t(l->size));
  for (int64_t i = 0; i < l->size; ++i)
    out[size_t(i)] = toPython(elem, l->data + size_t(i) * isz, ctx, argv, n, owners);
  return out;
}

void Dispatcher::raise(KjitCallContext &ctx) {
  pybind11::object cls = exceptionClass(ctx.excClass);
  pybind11::object exc = ctx.message.empty() ? cls() : cls(ctx.message);
  if (!ctx.file.empty() && pybind11::hasattr(exc, "add_note"))
    exc.attr("add_note")(
        fmt::format("raised in kjit function '{}' at {}:{}", name(), ctx.file, ctx.line));
  PyErr_SetObject(cls.ptr(), exc.ptr());
  throw pybind11::error_already_set();
}

pybind11::object Dispatcher::toPython(const Type *t, unsigned char *p, KjitCallContext &ctx,
                                      PyObject **argv, size_t n, Owners &owners) {
  if (t->isNone()) return pybind11::none();
  if (t->isEnumMember()) {
    pybind11::object value = toPython(t->dtype(), p, ctx, argv, n, owners);
    return pybind11::module_::import("kjit.dispatcher").attr("_enum_member")(t->symbol(), value);
  }
  if (t->isBool()) return pybind11::bool_(p[0] != 0);
  if (t->isInt()) {
    int64_t v = 0;
    switch (t->bits()) {
    case 8: v = t->isSigned() ? int64_t(*reinterpret_cast<int8_t *>(p)) : int64_t(*p); break;
    case 16:
      v = t->isSigned() ? int64_t(*reinterpret_cast<int16_t *>(p))
                        : int64_t(*reinterpret_cast<uint16_t *>(p));
      break;
    case 32:
      v = t->isSigned() ? int64_t(*reinterpret_cast<int32_t *>(p))
                        : int64_t(*reinterpret_cast<uint32_t *>(p));
      break;
    default: std::memcpy(&v, p, 8);
    }
    if (!t->isSigned() && t->bits() == 64)
      return pybind11::reinterpret_steal<pybind11::object>(
          PyLong_FromUnsignedLongLong(uint64_t(v)));
    return pybind11::reinterpret_steal<pybind11::object>(PyLong_FromLongLong(v));
  }
  if (t->isFloat()) {
    if (t->bits() == 32) return pybind11::float_(double(*reinterpret_cast<float *>(p)));
    if (t->isFloat8())  // a Python float, as the other floats' results are
      return pybind11::float_(double(fp8::toFloat(*reinterpret_cast<uint8_t *>(p), t->isE5M2())));
    if (t->isBFloat16())  // a Python float, as float16 and float32 results are
      return pybind11::float_(double(bf16::toFloat(*reinterpret_cast<uint16_t *>(p))));
    if (t->bits() == 16) {  // IEEE half, little-endian (Python's own unpacking)
      double v = PyFloat_Unpack2(reinterpret_cast<const char *>(p), 1);
      if (v == -1.0 && PyErr_Occurred()) throw pybind11::error_already_set();
      return pybind11::float_(v);
    }
    return pybind11::float_(*reinterpret_cast<double *>(p));
  }
  if (t->isComplex()) {
    if (t->bits() == 64) {
      float *f = reinterpret_cast<float *>(p);
      return pybind11::reinterpret_steal<pybind11::object>(PyComplex_FromDoubles(f[0], f[1]));
    }
    double *d = reinterpret_cast<double *>(p);
    return pybind11::reinterpret_steal<pybind11::object>(PyComplex_FromDoubles(d[0], d[1]));
  }
  if (t->isRecord()) {
    // A record (a reference to its bytes): a copy of them, as Numba boxes
    // a record.
    char *bytes;
    std::memcpy(&bytes, p, sizeof(char *));
    pybind11::bytes copy(bytes, size_t(t->recordSize()));
    return pybind11::module_::import("kjit.np.numpy_support")
        .attr("_record_from_bytes")(recordSpec(t), copy);
  }
  if (t->isSet()) {
    // A new Python set of the used slots' keys (table: used, fill, finger,
    // then a state per slot: 0 empty, 1 deleted, else a key's hash).
    KjitList *parts[4];
    std::memcpy(parts, p, sizeof(parts));
    pybind11::set out;
    if (!t->keyType()) return out;
    size_t ks = jit::memSize(t->keyType());
    const auto *states = reinterpret_cast<const int64_t *>(parts[3]->data);
    for (int64_t i = 0; i + 3 < parts[3]->size && i < parts[0]->size; ++i) {
      int64_t st;
      std::memcpy(&st, states + 3 + i, sizeof(st));
      if (st == 0 || st == 1) continue;
      out.add(toPython(t->keyType(), parts[0]->data + size_t(i) * ks, ctx, argv, n, owners));
    }
    return out;
  }
  if (t->isDict()) {
    // A new Python dict of the live entries, in insertion order.
    KjitList *parts[4];
    std::memcpy(parts, p, sizeof(parts));
    pybind11::dict out;
    if (!t->keyType() || !t->valueType()) return out;
    size_t ks = jit::memSize(t->keyType()), vs = jit::memSize(t->valueType());
    for (int64_t i = 0; i < parts[0]->size; ++i) {
      if (!parts[2]->data[i]) continue;  // a popped entry
      out[toPython(t->keyType(), parts[0]->data + size_t(i) * ks, ctx, argv, n, owners)] =
          toPython(t->valueType(), parts[1]->data + size_t(i) * vs, ctx, argv, n, owners);
    }
    return out;
  }
  if (t->isOptional()) {  // { value, one byte: valid }
    size_t validAt = jit::memSize(t->dtype());
    if (!p[validAt]) return pybind11::none();
    return toPython(t->dtype(), p, ctx, argv, n, owners);
  }
  if (t->isString()) {  // a new Python str of the code points
    KjitList *l;
    std::memcpy(&l, p, sizeof(void *));
    PyObject *u = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, l->data, Py_ssize_t(l->size));
    if (!u) throw pybind11::error_already_set();
    return pybind11::reinterpret_steal<pybind11::object>(u);
  }
  if (t->isJitClass()) {
    // A @jitclass instance: the one passed in, or a Python instance of the
    // class over a list of one tuple, the fields (kjit/experimental.py).
    KjitList *l;
    std::memcpy(&l, p, sizeof(void *));
    if (auto it = owners.find(reflectedKey(l)); it != owners.end()) return it->second;
    return pybind11::module_::import("kjit.experimental")
        .attr("_wrap")(t->symbol(), elementsToPython(t->dtype(), l, ctx, argv, n, owners));
  }
  if (t->isList()) {
    // A new Python list of the elements (a list the call made, or the
    // contents of a list argument).
    KjitList *l;
    std::memcpy(&l, p, sizeof(void *));
    if (auto it = owners.find(reflectedKey(l)); it != owners.end()) return it->second;
    if (!t->dtype()) return pybind11::list();
    return elementsToPython(t->dtype(), l, ctx, argv, n, owners);
  }
  if (t->isTuple()) {
    pybind11::tuple out(t->elements().size());
    size_t off = 0;
    for (size_t i = 0; i < t->elements().size(); ++i) {
      const Type *e = t->elements()[i];
      size_t a = jit::memAlign(e);
      off = (off + a - 1) / a * a;
      out[i] = toPython(e, p + off, ctx, argv, n, owners);
      off += jit::memSize(e);
    }
    return out;
  }
  if (t->isArray()) {
    void *meminfo, *data;
    std::memcpy(&meminfo, p, 8);
    std::memcpy(&data, p + 8, 8);
    auto *i64 = reinterpret_cast<int64_t *>(p + 16);
    std::vector<pybind11::ssize_t> shape(i64, i64 + t->ndim()),
        strides(i64 + t->ndim(), i64 + 2 * t->ndim());
    pybind11::object base;
    if (auto it = owners.find(meminfo); it != owners.end()) {
      base = it->second;  // another view of an allocation already handed over
    } else if (ctx.release(meminfo)) {
      base = pybind11::capsule(meminfo, [](void *q) { kjitFree(q); });
      owners[meminfo] = base;
    } else {
      for (size_t i = 0; i < n; ++i)
        if (argv[i] == meminfo) base = pybind11::reinterpret_borrow<pybind11::object>(argv[i]);
      if (!base) {
        // A view of an array held in a tuple argument, or of a frozen
        // constant: keep every argument alive.
        pybind11::tuple all(n);
        for (size_t i = 0; i < n; ++i)
          all[i] = pybind11::reinterpret_borrow<pybind11::object>(argv[i]);
        base = all;
      }
    }
    pybind11::dtype dt = numpyDtypeOf(t->dtype());
    pybind11::array out(dt, shape, strides, data, base);
    if (t->readonly()) out.attr("flags").attr("writeable") = false;
    return out;
  }
  return pybind11::none();
}

pybind11::tuple Dispatcher::bind(const pybind11::tuple &args, const pybind11::dict &kwargs) {
  size_t n = args.size();
  size_t nparams = fn_->paramCount();
  const std::vector<std::string> &params = fn_->source()->paramNames;
  if (n > nparams)
    throw pybind11::type_error(
        fmt::format("{}() takes {} positional arguments but {} were given", name(), nparams, n));
  pybind11::tuple out(nparams);
  std::vector<bool> set(nparams, false);
  for (size_t i = 0; i < n; ++i) {
    out[i] = args[i];
    set[i] = true;
  }
  for (auto item : kwargs) {
    std::string k = pybind11::str(item.first);
    size_t i = 0;
    while (i < nparams && params[i] != k) ++i;
    if (i == nparams)
      throw pybind11::type_error(
          fmt::format("{}() got an unexpected keyword argument '{}'", name(), k));
    if (set[i])
      throw pybind11::type_error(
          fmt::format("{}() got multiple values for argument '{}'", name(), k));
    out[i] = item.second;
    set[i] = true;
  }
  size_t firstDefault = nparams - defaults_.size();
  for (size_t i = 0; i < nparams; ++i) {
    if (set[i]) continue;
    if (i < firstDefault)
      throw pybind11::type_error(
          fmt::format("{}() missing required argument: '{}'", name(), params[i]));
    out[i] = defaults_[i - firstDefault];
  }
  return out;
}

// A global name is answered with a tuple (kind, value): ("int", 3),
// ("module", "math"), ("jit", dispatcher), ... as the resolver
// (kjit/dispatcher.py) answers it, in C++ where no Python code is needed
// (py_globals.cpp).
std::optional<GlobalValue> Dispatcher::resolveGlobal(const pybind11::object &resolver,
                                                     const std::string &name) {
  pybind11::gil_scoped_acquire gil;
  return fromClassified(resolver, resolveGlobalName(resolver, name));
}

std::optional<GlobalValue> Dispatcher::fromClassified(const pybind11::object &resolver,
                                                      const pybind11::object &r) {
  if (r.is_none()) return std::nullopt;
  pybind11::tuple t = r;
  std::string kind = t[0].cast<std::string>();
  GlobalValue g;
  using K = GlobalValue::Kind;
  if (kind == "none")
    g.kind = K::None;
  else if (kind == "bool")
    g.kind = K::Bool, g.i = t[1].cast<bool>();
  else if (kind == "int") {
    g.kind = K::Int;
    pybind11::int_ v = t[1];
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    if (overflow > 0) {
      g.i = int64_t(PyLong_AsUnsignedLongLong(v.ptr()));
      g.isUnsigned = true;
      if (PyErr_Occurred()) {
        PyErr_Clear();
        g.kind = K::Unsupported;
        g.name = "int too large for 64 bits";
      }
    } else if (overflow < 0) {
      g.kind = K::Unsupported;
      g.name = "int too large for 64 bits";
    } else {
      g.i = x;
    }
  } else if (kind == "float")
    g.kind = K::Float, g.f = t[1].cast<double>();
  else if (kind == "complex") {
    g.kind = K::Complex;
    auto c = t[1].cast<std::complex<double>>();
    g.f = c.real();
    g.im = c.imag();
  } else if (kind == "str")
    g.kind = K::String, g.name = t[1].cast<std::string>();
  else if (kind == "tuple") {
    g.kind = K::Tuple;
    for (auto item : pybind11::tuple(t[1])) {
      auto e = fromClassified(resolver, classifyGlobal(resolver, item.ptr()));
      if (!e) return std::nullopt;
      g.elems.push_back(*e);
    }
  } else if (kind == "array") {
    pybind11::tuple a = t[1];
    g.kind = K::Array;
    g.name = a[0].cast<std::string>();
    g.shape = a[1].cast<std::vector<int64_t>>();
    g.bytes = a[2].cast<std::string>();
  } else if (kind == "device_array") {
    // (dtype name, shape, strides in bytes, address, read-only)
    pybind11::tuple a = t[1];
    g.kind = K::DeviceArray;
    g.name = a[0].cast<std::string>();
    g.shape = a[1].cast<std::vector<int64_t>>();
    g.strides = a[2].cast<std::vector<int64_t>>();
    g.i = int64_t(a[3].cast<uint64_t>());
    g.isUnsigned = a[4].cast<bool>();
  } else if (kind == "enum_class" || kind == "enum_member") {
    // (qualified name, is an IntEnum, ((member name, classified value), ...))
    pybind11::tuple a = t[1];
    g.kind = kind == "enum_class" ? K::EnumClass : K::EnumMember;
    g.name = a[0].cast<std::string>();
    g.i = a[1].cast<bool>();
    for (auto item : pybind11::tuple(a[2])) {
      pybind11::tuple m = item.cast<pybind11::tuple>();
      auto v = fromClassified(resolver, m[1]);
      if (!v) return std::nullopt;
      v->name = m[0].cast<std::string>();
      g.elems.push_back(*v);
    }
  } else if (kind == "module")
    g.kind = K::Module, g.name = t[1].cast<std::string>();
  else if (kind == "function")
    g.kind = K::Function, g.name = t[1].cast<std::string>();
  else if (kind == "dtype")
    g.kind = K::Dtype, g.name = t[1].cast<std::string>();
  else if (kind == "exception")
    g.kind = K::ExceptionClass, g.name = t[1].cast<std::string>();
  else if (kind == "jitclass")
    g.kind = K::JitClass, g.name = t[1].cast<std::string>();
  else if (kind == "jit") {
    g.kind = K::JitFunction;
    auto d = t[1].cast<std::shared_ptr<Dispatcher>>();
    g.fn = d->function().source();
    pybind11::object kernel = pybind11::getattr(t[1], "_cuda_kernel", pybind11::none());
    if (!kernel.is_none()) {
      for (auto sig : pybind11::list(kernel.attr("_device_signatures")))
        g.signatures.push_back(sig.cast<std::string>());
    } else {
      g.hostSignatures = d->function().host().eager();
    }
  } else {
    g.kind = K::Unsupported;
    g.name = t[1].cast<std::string>();
  }
  return g;
}

// tp_call of Dispatcher: straight from the interpreter's call to
// Dispatcher::call, without pybind11's generic argument dispatch.
static PyObject *dispatcherCall(PyObject *self, PyObject *args, PyObject *kwargs) {
  try {
    auto *inst = reinterpret_cast<pybind11::detail::instance *>(self);
    auto vh = inst->get_value_and_holder();
    auto *d = vh.value_ptr<Dispatcher>();
    if (!d) {
      PyErr_SetString(PyExc_TypeError, "kjit Dispatcher used before __init__");
      return nullptr;
    }
    return d->call(args, kwargs).release().ptr();
  } catch (...) {
    setErrorFromCurrentException();
  }
  return nullptr;
}

namespace {
void warnAs(const char *category, const std::string &text, int stacklevel) {
  if (text.empty()) return;
  pybind11::object cat = pybind11::module_::import("kjit.errors").attr(category);
  if (PyErr_WarnEx(cat.ptr(), text.c_str(), stacklevel) != 0) throw pybind11::error_already_set();
}
}  // namespace

void warnPerformance(const std::string &text, int stacklevel) {
  warnAs("PerformanceWarning", text, stacklevel);
}

void warnCache(const std::string &text, int stacklevel) {
  warnAs("NumbaWarning", text, stacklevel);
}

namespace {

// (signature, cc, PTX, return type, typed IR): what kernel.inspect_ptx(),
// .signatures and compile_ptx read.
pybind11::tuple cudaResultTuple(const jit::CompileResult &c) {
  return pybind11::make_tuple(c.signature, c.cc, pybind11::str(c.code),
                              c.ret ? c.ret->str() : std::string("none"), c.typedIR);
}

}  // namespace

void define_jit(pybind11::module_ &m) {
  namespace py = pybind11;
  // A @jitclass (kjit/experimental.py): its id, name, fields (names and
  // type texts) and the Dispatchers of its constructor, methods, property
  // getters and setters, and static methods (compiler/JitClass.h).
  m.def("register_jitclass",
        [](const std::string &id, const std::string &name, std::vector<std::string> fieldNames,
           std::vector<std::string> fieldTypes, std::shared_ptr<Dispatcher> ctor, py::dict methods,
           py::dict getters, py::dict setters, py::dict statics) {
          auto info = std::make_shared<JitClassInfo>();
          info->id = id;
          info->name = name;
          info->fieldNames = std::move(fieldNames);
          info->fieldTypes = std::move(fieldTypes);
          info->ctor = ctor->function().source();
          auto fill = [](py::dict d, std::map<std::string, std::shared_ptr<FunctionSource>> &out) {
            for (auto [k, v] : d)
              out[py::cast<std::string>(k)] =
                  py::cast<std::shared_ptr<Dispatcher>>(v)->function().source();
          };
          fill(methods, info->methods);
          fill(getters, info->getters);
          fill(setters, info->setters);
          fill(statics, info->statics);
          jitRuntime().session().registerJitClass(std::move(info));
        });
  // The one signature parser (compiler/Signature.h), for Python code that
  // reads signatures (kjit.vectorize): (return type or None, argument types),
  // each type as (scalar type name, ndim): ndim 0 for a scalar, -1 for a
  // type that is neither (its name in full).
  m.def(
      "parse_signature",
      [](const std::string &text) {
        TypeContext tc;
        Signature s;
        std::string err;
        if (!parseSignature(tc, text, s, err)) throw py::type_error("invalid signature: " + err);
        auto describe = [](const Type *t) -> py::object {
          if (t->isArray()) return py::make_tuple(t->dtype()->str(), int(t->ndim()));
          if (t->isNumber() || t->isNone() || t->kind() == TypeKind::Void)
            return py::make_tuple(t->str(), 0);
          return py::make_tuple(t->str(), -1);
        };
        py::list args;
        for (const Type *t : s.args) args.append(describe(t));
        return py::make_tuple(s.ret ? describe(s.ret) : py::object(py::none()), args);
      },
      py::arg("signature"));
  auto cls =
      py::class_<Dispatcher, std::shared_ptr<Dispatcher>>(m, "Dispatcher", py::dynamic_attr())
          .def(py::init<py::object, std::string, std::string, std::string, uint32_t, py::object,
                        py::dict, py::object>(),
               py::arg("pyfunc"), py::arg("name"), py::arg("filename"), py::arg("source"),
               py::arg("first_line"), py::arg("resolver"), py::arg("options"),
               py::arg("source_map") = py::none())
          .def(
              "compile",
              [](Dispatcher &d, const std::string &sig) { d.function().hostDeclare(sig); },
              py::arg("signature"),
              "compile for a signature string, e.g. \"float64(float64[:], int64)\"")
          .def_property_readonly(
              "signatures",
              [](Dispatcher &d) {
                std::vector<std::string> l;
                for (const auto &c : d.function().host().all()) l.push_back(c->signature);
                return l;
              },
              "the signatures compiled so far: \"(float64, int64) -> float64\"")
          .def("_inspect_types_text",
               [](Dispatcher &d) {
                 std::string s;
                 for (const auto &c : d.function().host().all()) s += c->typedIR + "\n";
                 return s;
               })
          .def(
              "_inspect_code",
              [](Dispatcher &d, bool wantAsm) {
                py::dict out;
                for (const auto &c : d.function().host().all())
                  out[py::str(c->signature)] = d.function().inspectHost(*c, wantAsm);
                return out;
              },
              py::arg("asm"))
          // The loops of a @vectorize: the C-ABI entry's address for a signature.
          .def("_entry_address",
               [](Dispatcher &d, const std::string &sig) {
                 return reinterpret_cast<uintptr_t>(d.function().hostCompileSignature(sig).entry);
               })
          // CUDA: PTX for a signature and compute capability (kernel.compile,
          // compile_ptx); the result is kept and listed by _cuda_results.
          .def(
              "_compile_cuda",
              [](Dispatcher &d, const std::string &sig, bool device, int cc) {
                const jit::CompileResult &c = d.function().cudaCompile(sig, device, cc);
                warnPerformance(c.warnings, 3);
                return cudaResultTuple(c);
              },
              py::arg("signature"), py::arg("device"), py::arg("cc"))
          // An AMD GPU's code object and assembly for a signature:
          // (signature, hsaco bytes, assembly, return type).
          .def(
              "_compile_amdgpu",
              [](Dispatcher &d, const std::string &sig, bool device, const std::string &arch) {
                std::string assembly;
                std::unique_ptr<jit::CompileResult> c =
                    d.function().amdgpuCompile(sig, device, arch, &assembly);
                warnPerformance(c->warnings, 3);
                return pybind11::make_tuple(c->signature, pybind11::bytes(c->code), assembly,
                                            c->ret ? c->ret->str() : std::string("none"));
              },
              py::arg("signature"), py::arg("device"), py::arg("arch"))
          .def(
              "_cuda_llvm",
              [](Dispatcher &d, const std::string &sig, bool device, int cc) {
                return d.function().cudaLLVM(sig, device, cc);
              },
              py::arg("signature"), py::arg("device"), py::arg("cc"))
          // The kernel a launch with argument type key `key` runs, for compute
          // capability `cc` (the simulator compiles as a GPU launch would).
          .def("_cuda_kernel_for",
               [](Dispatcher &d, const std::string &key, int cc) {
                 jit::JitFunction &fn = d.function();
                 size_t before = fn.cudaResults().size();
                 const jit::CompileResult &c = fn.cudaKernelFor(fn.cudaResolve(key), cc);
                 if (fn.cudaResults().size() > before && !c.fromCache) {
                   warnPerformance(c.warnings, 3);
                   warnCache(c.cacheWarning, 3);
                 }
                 return cudaResultTuple(c);
               })
          // The simulator: the key of a launch's arguments (the CPU device's
          // host arrays), and the types the driver resolves it to.
          .def("_argument_key",
               [](Dispatcher &d, py::tuple args) {
                 std::vector<PyObject *> argv;
                 for (py::handle a : args) argv.push_back(a.ptr());
                 return d.argumentKey(argv.data(), argv.size(), true);
               })
          // Each type's name, or for a type that holds records "key:" and its
          // key (kjit.np.numpy_support._type_of_key reads it).
          .def("_cuda_resolved_types",
               [](Dispatcher &d, const std::string &key) {
                 TypeContext tc;
                 std::vector<std::string> names;
                 for (const Type *t :
                      jit::typesOfKey(jitRuntime().session(), tc, d.function().cudaResolve(key))) {
                   std::string k = jit::keyOfType(t);
                   names.push_back(k.find('R') != std::string::npos ? "key:" + k : t->str());
                 }
                 return names;
               })
          // The argument types (kjit.types objects) of the kernel a launch
          // with argument type key `key` runs: kernel.overloads' keys.
          .def("_cuda_argument_types",
               [](Dispatcher &d, const std::string &key) {
                 TypeContext tc;
                 py::list out;
                 for (const Type *t :
                      jit::typesOfKey(jitRuntime().session(), tc, d.function().cudaResolve(key)))
                   out.append(kjitTypeObject(t));
                 return py::tuple(out);
               })
          .def("_cuda_declare",
               [](Dispatcher &d, const std::string &sig) { d.function().cudaDeclare(sig); })
          .def("_cuda_results",
               [](Dispatcher &d) {
                 py::list l;
                 for (const auto &c : d.function().cudaResults()) l.append(cudaResultTuple(*c));
                 return l;
               })
          // The CPU device: eager signatures, inspection.
          .def("_cpu_declare",
               [](Dispatcher &d, const std::string &sig) { d.function().cpuDeclare(sig); })
          .def("_cpu_declare_later", &Dispatcher::cpuDeclareLater)
          .def("_cpu_flush_declared", &Dispatcher::flushCpuDeclared)
          .def("_cpu_inspect",
               [](Dispatcher &d, const std::string &key, bool wantAsm) {
                 return d.function().inspectCpuKernel(key, wantAsm);
               })
          // The CPU device: what kernel.get_shared_mem_per_block() and the
          // others say of the code compiled for `key` (compiled now if needed).
          .def("_cpu_attributes",
               [](Dispatcher &d, const std::string &key) {
                 const jit::CompileResult &c = d.function().cpuKernelFor(key);
                 py::dict r;
                 r["shared_mem_per_block"] = c.cpuKernel ? c.cpuKernel->staticSharedBytes : 0;
                 r["local_mem_per_thread"] = c.cpuKernel ? c.cpuKernel->localBytes : 0;
                 r["const_mem_size"] = c.cpuKernel ? c.cpuKernel->constBytes : 0;
                 return r;
               })
          // The variables of the kernel a launch with argument type key `key`
          // runs and their types (compiled now when needed): on the CPU
          // device (cc 0) or for compute capability `cc`.
          .def("_typemap",
               [](Dispatcher &d, const std::string &key, int cc) {
                 jit::JitFunction &fn = d.function();
                 const jit::CompileResult &c =
                     cc ? fn.cudaKernelFor(fn.cudaResolve(key), cc) : fn.cpuKernelFor(key);
                 return c.typemap;
               })
          // Compiles the kernel a launch with argument type key `key` runs on
          // the CPU device (cc 0) or for compute capability `cc`
          // (kernel._compile_for_args).
          .def("_compile_key",
               [](Dispatcher &d, const std::string &key, int cc) {
                 jit::JitFunction &fn = d.function();
                 if (!cc) {
                   size_t before = fn.cpuKernels().all().size();
                   const jit::CompileResult &c = fn.cpuKernelFor(key);
                   if (fn.cpuKernels().all().size() > before) {
                     warnPerformance(c.warnings, 3);
                     warnCache(c.cacheWarning, 3);
                   }
                   return;
                 }
                 size_t before = fn.cudaResults().size();
                 const jit::CompileResult &c = fn.cudaKernelFor(fn.cudaResolve(key), cc);
                 if (fn.cudaResults().size() > before && !c.fromCache) {
                   warnPerformance(c.warnings, 3);
                   warnCache(c.cacheWarning, 3);
                 }
               })
          .def("_cuda_keys",
               [](Dispatcher &d) {
                 py::list l;
                 for (const auto &c : d.function().cudaResults())
                   l.append(py::make_tuple(c->key, c->cc));
                 return l;
               })
          .def("_cpu_keys",
               [](Dispatcher &d) {
                 std::vector<std::string> keys;
                 for (const auto &c : d.function().cpuKernels().all()) keys.push_back(c->key);
                 return keys;
               })
          .def(
              "_cache_hits", [](Dispatcher &d) { return d.function().cacheHits(); },
              "how many specialisations came from the disk cache (cache=True)")
          .def("_fingerprint", [](Dispatcher &d) { return d.function().fingerprint(); })
          .def("_cache_folder", [](Dispatcher &d) { return d.function().cacheFolder(); })
          .def_property_readonly("_name", &Dispatcher::name);
  // Subclasses made in Python inherit the slot.
  reinterpret_cast<PyTypeObject *>(cls.ptr())->tp_call = dispatcherCall;
}

}  // namespace kjit::py
