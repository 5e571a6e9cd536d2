// py_jit.cpp - @jit from Python: the dispatcher and its call path.
//
// A Dispatcher holds one kjit function and its compiled specialisations. A
// call computes the argument type key in C++ (no Python-level work per
// argument), finds the compiled entry, marshals the arguments into the
// entry's ABI (see compiler/Lowering.h) and converts the result back.
// Compilation (first call for new types, or eager signatures) runs the whole
// pipeline: parse, type, lower, optimise, JIT.
#include <array>
#include <atomic>
#include <cstdlib>
#include <cfenv>
#include <cstring>
#include <unistd.h>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "compiler/CacheKey.h"
#include "compiler/Context.h"
#include "targets/Driver.h"
#include "compiler/Pipeline.h"
#include "compiler/Signature.h"
#include "compiler/TypeInference.h"
#include "py_common.h"
#include "py_values.h"
#include "runtime/host/CpuKernel.h"
#include "runtime/host/DiskCache.h"
#include "runtime/host/HostRuntime.h"
#include "runtime/host/ThreadPool.h"
#include "targets/host/HostJit.h"
#include "targets/nvptx/NvptxTarget.h"


namespace py = pybind11;

namespace kjit::py {

namespace {

// ---- the process's JIT ----------------------------------------------------

// Never destroyed: compiled code may run until the process ends, and with
// LLVM linked statically (the bundle) LLVM's own statics are gone before a
// static JIT's destructor would run at exit.
HostJit &hostJit() {
  static HostJit *jit = [] {
    std::string err;
    auto j = HostJit::create(err);
    if (!j) throw std::runtime_error("kjit: cannot set up the host JIT: " + err);
    return j.release();
  }();
  return *jit;
}

// The threads of prange loops.
ThreadPool &threadPool() {
  static ThreadPool pool(ThreadPool::defaultSize());
  return pool;
}

}  // namespace

// ---- compiled specialisations and the dispatcher ------------------------------

struct Compiled {
  std::string key;                 // argument type key
  std::vector<const Type *> args;  // owned by `types`
  const Type *ret = nullptr;
  std::shared_ptr<TypeContext> types;
  using Entry = int (*)(void **, void *, KjitCallContext *);
  Entry entry = nullptr;
  std::string signature;     // "(float64, int64) -> float64"
  std::string typedIR;       // for inspect_types()
  // Memory-form sizes of the arguments and the result, for the call path.
  std::vector<size_t> argBytes;
  size_t retBytes = 0;
  // A @cuda.jit kernel compiled for the CPU device: its entry points.
  const CpuKernelInfo *cpuInfo = nullptr;

  void measure() {
    argBytes.clear();
    for (const Type *t : args) argBytes.push_back(memSize(t));
    retBytes = ret ? memSize(ret) : 0;
  }
};

// The types an argument type key stands for, in `tc`.
std::vector<const Type *> typesOfKey(TypeContext &tc, const std::string &key) {
  std::vector<const Type *> types;
  size_t p = 0;
  while (p < key.size()) {
    const Type *t = typeOfKey(tc, key, p);
    if (!t) throw pybind11::value_error("kjit: bad argument type key '" + key + "'");
    types.push_back(t);
  }
  return types;
}

// The builtin exception class that compiled code raised by name
// (RuntimeError for a name that is not one).
pybind11::object builtinException(const std::string &name) {
  pybind11::module_ builtins = pybind11::module_::import("builtins");
  return pybind11::hasattr(builtins, name.c_str()) ? builtins.attr(name.c_str()) : builtins.attr("RuntimeError");
}

// The specialisations of one kind (host functions, or kernels for the CPU
// device), by argument type key.
struct Specialisations {
  std::vector<std::unique_ptr<Compiled>> all;
  // Argument keys that convert to an eager signature's specialisation.
  std::vector<std::pair<std::string, Compiled *>> aliases;
  bool eager = false;  // compiled from signatures: other types convert or fail

  Compiled *find(const std::string &key) const {
    for (auto &c : all)
      if (c->key == key) return c.get();
    for (auto &[k, c] : aliases)
      if (k == key) return c;
    return nullptr;
  }

  // The first whose types the key's types convert to (numbers to numbers,
  // arrays of the same dtype and rank to any layout); remembered as an alias.
  Compiled *convertible(const std::string &key) {
    TypeContext tc;
    std::vector<const Type *> actual = typesOfKey(tc, key);
    for (auto &c : all) {
      bool ok = c->args.size() == actual.size();
      for (size_t i = 0; ok && i < actual.size(); ++i) ok = convertsTo(actual[i], c->args[i]);
      if (ok) {
        aliases.emplace_back(key, c.get());  // matched once per key
        return c.get();
      }
    }
    return nullptr;
  }

  Compiled *add(std::unique_ptr<Compiled> c) {
    all.push_back(std::move(c));
    return all.back().get();
  }
};

// Arguments in their memory form, for an entry's `args` array.
struct Marshalled {
  ArgSlot slots[kMaxArgs];
  void *ptrs[kMaxArgs];
  std::vector<std::vector<unsigned char>> large;  // arguments bigger than a slot
};

// fastmath=True, or a set of flag names as Numba takes them.
uint32_t fastmathFlags(pybind11::handle v) {
  if (v.is_none()) return 0;
  if (PyBool_Check(v.ptr())) return v.ptr() == Py_True ? uint32_t(FastMath::All) : 0u;
  uint32_t flags = 0;
  for (auto item : v) {
    std::string n = pybind11::str(item);
    uint32_t f = FastMath::fromName(n);
    if (!f)
      throw pybind11::value_error("unknown fastmath flag '" + n +
                                  "': the flags are reassoc, nnan, ninf, nsz, arcp, contract, afn, fast");
    flags |= f;
  }
  return flags;
}

class Dispatcher : public std::enable_shared_from_this<Dispatcher> {
public:
  Dispatcher(pybind11::object pyfunc, std::string name, std::string filename, std::string text,
             uint32_t firstLine, pybind11::object resolver, pybind11::dict options)
      : pyfunc_(std::move(pyfunc)), resolver_(std::move(resolver)) {
    source_ = std::make_shared<FunctionSource>();
    source_->name = std::move(name);
    source_->filename = std::move(filename);
    source_->text = std::move(text);
    source_->firstLine = firstLine;
    source_->identity = reinterpret_cast<uint64_t>(this);
    auto opt = [&](const char *k) { return options.contains(k) && pybind11::bool_(options[k]); };
    source_->fastmath = fastmathFlags(options.contains("fastmath") ? pybind11::object(options["fastmath"])
                                                                   : pybind11::object(pybind11::none()));
    source_->boundscheck = opt("boundscheck");
    boundscheckOff_ = options.contains("boundscheck") && !opt("boundscheck");
    // NUMBA_BOUNDSCHECK (or KJIT_BOUNDSCHECK) set to 0 or 1 overrides the
    // option, as in Numba.
    for (const char *var : {"KJIT_BOUNDSCHECK", "NUMBA_BOUNDSCHECK"}) {
      const char *v = std::getenv(var);
      if (v && *v) {
        source_->boundscheck = std::string(v) != "0";
        boundscheckOff_ = !source_->boundscheck;
        break;
      }
    }
    source_->parallel = opt("parallel");
    if (options.contains("error_model")) {
      pybind11::object em = options["error_model"];
      std::string model = pybind11::isinstance<pybind11::str>(em) ? em.cast<std::string>() : std::string("?");
      if (model != "python" && model != "numpy")
        throw pybind11::value_error("error_model is 'python' (division by zero raises ZeroDivisionError) or "
                                    "'numpy' (it gives inf, nan or 0), not " +
                                    pybind11::repr(em).cast<std::string>());
      source_->numpyErrors = model == "numpy";
    }
    nogil_ = opt("nogil");
    cache_ = opt("cache");
    parallel_ = source_->parallel;
    pybind11::object res = resolver_;
    source_->lookup = [res](const std::string &n) { return resolveGlobal(res, n); };
    pybind11::object defaults = pyfunc_.attr("__defaults__");
    if (!defaults.is_none()) defaults_ = pybind11::tuple(defaults);
    pybind11::object code = pyfunc_.attr("__code__");
    nparams_ = code.attr("co_argcount").cast<size_t>();
    pybind11::tuple varnames = code.attr("co_varnames");
    for (size_t i = 0; i < nparams_; ++i) paramNames_.push_back(varnames[i].cast<std::string>());
    source_->paramNames = paramNames_;
  }

  std::shared_ptr<FunctionSource> source() const { return source_; }

  // Compiles for explicit argument types (an eager signature).
  void compileSignature(const std::string &sig) {
    auto types = std::make_shared<TypeContext>();
    Signature s;
    std::string key = eagerKey(sig, *types, s);
    compile(key, types, s.args, s.ret);
    host_.eager = true;
  }

  // Compiles for `sig` (as compile) and returns the C-ABI entry's address
  // (compiler/Lowering.h), for the loops of a @vectorize ufunc.
  uintptr_t entryAddress(const std::string &sig) {
    auto types = std::make_shared<TypeContext>();
    Signature s;
    std::string key = eagerKey(sig, *types, s);
    Compiled *c = compile(key, types, s.args, s.ret);
    return reinterpret_cast<uintptr_t>(c->entry);
  }

  // Parses an eager signature for this function; returns its argument key.
  std::string eagerKey(const std::string &sig, TypeContext &types, Signature &s) const {
    std::string err;
    if (!parseSignature(types, sig, s, err)) throw pybind11::type_error("invalid signature: " + err);
    if (s.args.size() != nparams_)
      throw pybind11::type_error(fmt::format("signature \"{}\" has {} arguments but {}() takes {}", sig,
                                             s.args.size(), source_->name, nparams_));
    std::string key;
    for (const Type *t : s.args) key += keyOfType(t);
    return key;
  }

  // The call path: `args` is the call's tuple, `kwargs` a dict or null.
  pybind11::object call(PyObject *args, PyObject *kwargs) {
    PyObject *argv[kMaxArgs];
    size_t n = size_t(PyTuple_GET_SIZE(args));
    pybind11::tuple bound;
    if (n > kMaxArgs || nparams_ > kMaxArgs)
      throw pybind11::type_error(fmt::format("kjit functions take at most {} arguments", kMaxArgs));
    if ((kwargs && PyDict_GET_SIZE(kwargs) != 0) || n != nparams_) {
      // Bind keyword arguments and defaults to positions.
      bound = bind(pybind11::reinterpret_borrow<pybind11::tuple>(args),
                   kwargs ? pybind11::reinterpret_borrow<pybind11::dict>(kwargs) : pybind11::dict());
      n = bound.size();
      for (size_t i = 0; i < n; ++i) argv[i] = bound[i].ptr();
    } else {
      for (size_t i = 0; i < n; ++i) argv[i] = PyTuple_GET_ITEM(args, Py_ssize_t(i));
    }
    std::string key = argumentKey(argv, n, "");
    Compiled *c = lookup(host_, key);
    if (!c) {
      auto types = std::make_shared<TypeContext>();
      c = compile(key, types, typesOfKey(*types, key), nullptr);
    }
    return invoke(*c, argv, n);
  }

  std::vector<std::string> signatures() const {
    std::vector<std::string> l;
    for (const auto &c : host_.all) l.push_back(c->signature);
    return l;
  }
  std::string inspectTypes() const {
    std::string s;
    for (const auto &c : host_.all) s += c->typedIR + "\n";
    return s;
  }
  pybind11::dict inspectCode(bool wantAsm) {
    pybind11::dict d;
    for (const auto &c : host_.all) d[pybind11::str(c->signature)] = lowerAndOptimize(*c, wantAsm);
    return d;
  }
  const std::string &name() const { return source_->name; }

  // PTX of the function for the GPU: a kernel, or with `device` a device
  // function. Returns (ptx, return type, typed IR, LLVM IR as lowered,
  // warnings, signature).
  pybind11::tuple compileCuda(const std::string &sig, bool device, int cc, bool fastmath, bool wantLLVM,
                              int maxRegisters, int maxThreads, int minBlocks, bool lineinfo) {
    Context ctx;
    Signature s;
    std::string err;
    if (!parseSignature(ctx.types, sig, s, err)) throw pybind11::type_error("invalid signature: " + err);
    if (s.args.size() != nparams_)
      throw pybind11::type_error(fmt::format("signature \"{}\" has {} arguments but {}() takes {}", sig,
                                             s.args.size(), source_->name, nparams_));
    return cudaProgram(ctx, s.args, s.ret, device, cc, fastmath, wantLLVM, maxRegisters, maxThreads, minBlocks,
                       lineinfo);
  }

  // The same for the argument type key of a launch (kjit/cuda: the kernel
  // is compiled for the types of the arguments it was launched with).
  pybind11::tuple compileCudaKey(const std::string &key, int cc, bool fastmath, int maxRegisters, int maxThreads,
                                 int minBlocks, bool lineinfo) {
    Context ctx;
    std::vector<const Type *> args = typesOfKey(ctx.types, key);
    if (args.size() != nparams_)
      throw pybind11::type_error(fmt::format("{}() takes {} arguments but {} were given", source_->name, nparams_,
                                             args.size()));
    return cudaProgram(ctx, args, nullptr, false, cc, fastmath, false, maxRegisters, maxThreads, minBlocks,
                       lineinfo);
  }

  // ---- the CPU device: @cuda.jit kernels compiled for the host ----------------

  // Compiles for an eager signature ("void(float32[:], int32)").
  void cpuDeclare(const std::string &sig, bool fastmath) {
    TypeContext types;
    Signature s;
    cpuCompile(eagerKey(sig, types, s), fastmath);
    cpu_.eager = true;
  }

  // kernel[grid, block, stream, sharedmem](*args) on the CPU device: the
  // arguments are NumPy arrays (device arrays of the CPU device pass theirs)
  // and scalars.
  void cpuLaunch(const pybind11::tuple &args, std::array<uint32_t, 3> grid, std::array<uint32_t, 3> block,
                 int64_t sharedBytes, bool fastmath) {
    size_t n = args.size();
    if (n != nparams_)
      throw pybind11::type_error(fmt::format("kernel {}() takes {} arguments but {} were given", source_->name,
                                             nparams_, n));
    if (n > kMaxArgs) throw pybind11::type_error(fmt::format("kjit kernels take at most {} arguments", kMaxArgs));
    PyObject *argv[kMaxArgs];
    for (size_t i = 0; i < n; ++i) argv[i] = args[i].ptr();
    std::string key = argumentKey(argv, n, "kernel ");
    Compiled *c = lookup(cpu_, key);
    if (!c) c = cpuCompile(key, fastmath);
    Marshalled m;
    marshal(*c, argv, n, m, "kernel ");
    CpuLaunch launch;
    for (int a = 0; a < 3; ++a) {
      launch.grid[a] = grid[size_t(a)];
      launch.block[a] = block[size_t(a)];
    }
    launch.dynamicSharedBytes = sharedBytes;
    CpuKernelError err;
    bool ok;
    {
      pybind11::gil_scoped_release release;
      ok = runCpuKernel(*c->cpuInfo, m.ptrs, launch, &threadPool(), err);
    }
    if (!ok) raiseKernelError(err);
  }

  // The optimised LLVM IR (or assembly) of the CPU device's code for an
  // argument type key (kernel.inspect_llvm() on the CPU device).
  std::string cpuInspect(const std::string &key, bool wantAsm, bool fastmath) {
    Context ctx;
    TypedProgram prog = typeCuda(ctx, typesOfKey(ctx.types, key), nullptr, true, fastmath);
    std::string out, err;
    if (!inspectForHost(ctx, prog, hostJit(), wantAsm, out, err, true)) throw std::runtime_error("kjit: " + err);
    return out;
  }

  std::vector<std::string> cpuKeys() const {
    std::vector<std::string> keys;
    for (auto &c : cpu_.all) keys.push_back(c->key);
    return keys;
  }

  void raiseKernelError(const CpuKernelError &e) {
    pybind11::object cls = builtinException(e.excClass);
    std::string msg = e.message;
    if (e.located) {
      msg += fmt::format(" (in kernel '{}'", source_->name);
      if (!e.file.empty()) msg += fmt::format(" at {}:{}", e.file, e.line);
      msg += fmt::format(", block ({}, {}, {}), thread ({}, {}, {}))", e.block[0], e.block[1], e.block[2], e.thread[0],
                         e.thread[1], e.thread[2]);
    } else {
      msg += fmt::format(" (in kernel '{}')", source_->name);
    }
    PyErr_SetObject(cls.ptr(), cls(msg).ptr());
    throw pybind11::error_already_set();
  }

  // What a disk cache key of this function's code must hash: its source and
  // that of everything it calls, and the global values it reads.
  std::string fingerprint() const { return dependencyFingerprint(*source_); }
  std::string cacheFolder() const { return cacheDir(); }

private:
  Compiled *cpuCompile(const std::string &key, bool fastmath) {
    std::lock_guard<std::mutex> lock(compileMutex_);
    if (Compiled *c = cpu_.find(key)) return c;
    auto c = std::make_unique<Compiled>();
    c->key = key;
    c->types = std::make_shared<TypeContext>();
    c->args = typesOfKey(*c->types, key);
    Context ctx;
    // On the CPU device an access out of bounds would end the process (on a
    // GPU it is a CUDA error): checked, and an IndexError, unless the kernel
    // says boundscheck=False.
    ctx.checkBounds = !boundscheckOff_;
    TypedProgram prog = typeCuda(ctx, typesOfKey(ctx.types, key), nullptr, true, fastmath);
    HostBuild build;
    build.cpuKernel = true;
    HostCode code;
    std::string err;
    if (!buildForHost(ctx, prog, hostJit(), build, code, err))
      throw std::runtime_error("kjit: internal compiler error in " + source_->name + ": " + err);
    c->cpuInfo = static_cast<const CpuKernelInfo *>(code.entry);
    c->signature = "(";
    for (size_t i = 0; i < c->args.size(); ++i) c->signature += (i ? ", " : "") + c->args[i]->str();
    c->signature += ")";
    c->measure();
    return cpu_.add(std::move(c));
  }

  std::shared_ptr<FunctionSource> source_;
  bool boundscheckOff_ = false;  // boundscheck=False given (or NUMBA_BOUNDSCHECK=0)
  pybind11::object pyfunc_;
  pybind11::object resolver_;
  pybind11::tuple defaults_;
  size_t nparams_ = 0;
  std::vector<std::string> paramNames_;
  bool nogil_ = false;
  bool cache_ = false;
  bool parallel_ = false;
  Specialisations host_;  // @jit: host code
  Specialisations cpu_;   // @cuda.jit kernels for the CPU device
  std::mutex compileMutex_;

  // The argument type key of a call or launch (`what`: "" or "kernel ").
  std::string argumentKey(PyObject **argv, size_t n, const char *what) {
    std::string key;
    for (size_t i = 0; i < n; ++i) {
      if (!appendKey(argv[i], key)) {
        if (PyErr_Occurred()) throw pybind11::error_already_set();
        throw pybind11::type_error(fmt::format(
            "{}{}(): argument {} ('{}') has a type kernels cannot take: {}", what, source_->name, i + 1,
            paramNames_[i], pybind11::str(pybind11::type::handle_of(argv[i]).attr("__name__")).cast<std::string>()));
      }
    }
    return key;
  }

  // The specialisation for `key`: compiled, or (with eager signatures) one
  // the arguments convert to; null when it is still to be compiled.
  Compiled *lookup(Specialisations &s, const std::string &key) {
    Compiled *c = s.find(key);
    if (!c && s.eager && !(c = s.convertible(key))) throw noMatch(s, key);
    return c;
  }

  // Writes the arguments in `c`'s memory forms.
  void marshal(const Compiled &c, PyObject **argv, size_t n, Marshalled &m, const char *what) {
    for (size_t i = 0; i < n; ++i) {
      unsigned char *dst = m.slots[i].bytes;
      if (c.argBytes[i] > sizeof(m.slots[i].bytes)) {
        m.large.emplace_back(c.argBytes[i] + 16);
        dst = m.large.back().data();
      }
      if (!writeValue(argv[i], c.args[i], dst)) {
        if (PyErr_Occurred()) throw pybind11::error_already_set();
        throw pybind11::type_error(fmt::format("{}{}(): cannot convert argument {} to {}", what, source_->name, i + 1,
                                               c.args[i]->str()));
      }
      m.ptrs[i] = dst;
    }
  }

  pybind11::type_error noMatch(const Specialisations &spec, const std::string &key) {
    TypeContext tc;
    std::string s;
    for (const Type *t : typesOfKey(tc, key)) s += (s.empty() ? "" : ", ") + t->str();
    std::string have;
    for (auto &c : spec.all) have += "\n    " + c->signature;
    return pybind11::type_error(fmt::format("No matching definition for argument type(s) {} in {}(); "
                                            "the signatures compiled are:{}",
                                            s, source_->name, have));
  }

  pybind11::tuple bind(const pybind11::tuple &args, const pybind11::dict &kwargs) {
    size_t n = args.size();
    if (n > nparams_)
      throw pybind11::type_error(fmt::format("{}() takes {} positional arguments but {} were given",
                                             source_->name, nparams_, n));
    pybind11::tuple out(nparams_);
    std::vector<bool> set(nparams_, false);
    for (size_t i = 0; i < n; ++i) {
      out[i] = args[i];
      set[i] = true;
    }
    for (auto item : kwargs) {
      std::string k = pybind11::str(item.first);
      size_t i = 0;
      while (i < nparams_ && paramNames_[i] != k) ++i;
      if (i == nparams_)
        throw pybind11::type_error(fmt::format("{}() got an unexpected keyword argument '{}'", source_->name, k));
      if (set[i])
        throw pybind11::type_error(fmt::format("{}() got multiple values for argument '{}'", source_->name, k));
      out[i] = item.second;
      set[i] = true;
    }
    size_t firstDefault = nparams_ - defaults_.size();
    for (size_t i = 0; i < nparams_; ++i) {
      if (set[i]) continue;
      if (i < firstDefault)
        throw pybind11::type_error(fmt::format("{}() missing required argument: '{}'", source_->name, paramNames_[i]));
      out[i] = defaults_[i - firstDefault];
    }
    return out;
  }

  pybind11::tuple cudaProgram(Context &ctx, const std::vector<const Type *> &args, const Type *ret, bool device,
                              int cc, bool fastmath, bool wantLLVM, int maxRegisters, int maxThreads,
                              int minBlocks, bool lineinfo) {
    TypedProgram prog = typeCuda(ctx, args, ret, !device, fastmath);
    std::string typed;
    for (const ir::Function *f : prog.functions) typed += ir::print(*f);
    std::string llvmText, err;
    PtxOptions po;
    po.ccMajor = cc / 10;
    po.ccMinor = cc % 10;
    po.fastmath = fastmath || source_->fastmath;
    po.maxRegisters = maxRegisters;
    po.maxThreadsPerBlock = maxThreads;
    po.minBlocksPerSM = minBlocks;
    std::string ptx;
    if (!buildForCuda(ctx, prog, po, lineinfo, ptx, wantLLVM ? &llvmText : nullptr, err))
      throw std::runtime_error("kjit: " + err);
    std::string sig = prog.entry->returnType->str() + "(";
    for (size_t i = 0; i < args.size(); ++i) sig += (i ? ", " : "") + args[i]->str();
    sig += ")";
    // Warnings (performance): rendered, for warnings.warn in Python.
    return pybind11::make_tuple(ptx, prog.entry->returnType->str(), typed, llvmText, ctx.diags.render(), sig);
  }

  // The typed program of a @cuda.jit function (a kernel, or a device
  // function) for `args`; fastmath=True turns every fast-math flag on.
  TypedProgram typeCuda(Context &ctx, const std::vector<const Type *> &args, const Type *ret, bool kernel,
                        bool fastmath) {
    uint32_t savedFastmath = source_->fastmath;
    if (fastmath) source_->fastmath = FastMath::All;
    TypedProgram prog = buildTypedProgram(ctx, source_, args, ret, Target::CUDA, kernel);
    source_->fastmath = savedFastmath;
    if (!prog.entry) throw CompileFailure(ctx.diags.render(), ctx.sources, ctx.diags.diagnostics());
    return prog;
  }

  static std::optional<GlobalValue> resolveGlobal(const pybind11::object &resolver, const std::string &name);
  static std::optional<GlobalValue> fromClassified(const pybind11::object &resolver, const pybind11::object &r);

  // The optimised LLVM IR or the assembly of a compiled specialisation.
  std::string lowerAndOptimize(const Compiled &c, bool wantAsm) {
    Context ctx;
    TypedProgram prog = buildTypedProgram(ctx, source_, remap(ctx.types, c.args));
    std::string text, err;
    if (!prog.entry || !inspectForHost(ctx, prog, hostJit(), wantAsm, text, err)) return "";
    return text;
  }

  static std::vector<const Type *> remap(TypeContext &tc, const std::vector<const Type *> &ts) {
    std::vector<const Type *> out;
    for (const Type *t : ts) out.push_back(sameTypeIn(tc, t));
    return out;
  }
  // The type `t` (of another TypeContext) in `tc`.
  static const Type *sameTypeIn(TypeContext &tc, const Type *t) {
    if (t->isArray()) {
      const Type *dt = sameTypeIn(tc, t->dtype());
      return tc.array(dt, t->ndim(), t->layout(), t->readonly());
    }
    if (t->isTuple()) {
      std::vector<const Type *> e;
      for (const Type *x : t->elements()) e.push_back(sameTypeIn(tc, x));
      return tc.tuple(e);
    }
    if (t->isNone() || t->kind() == TypeKind::Void) return tc.none();
    if (t->isBool()) return tc.boolean();
    return tc.scalarByName(t->str());
  }

  // The folder of the disk cache: KJIT_CACHE_DIR, else __pycache__/kjit
  // next to the source file (as Numba's), else ~/.cache/kjit.
  std::string cacheDir() const {
    if (const char *d = std::getenv("KJIT_CACHE_DIR")) return d;
    std::string f = source_->filename;
    size_t slash = f.rfind('/');
    std::string dir = (slash == std::string::npos ? "." : f.substr(0, slash)) + "/__pycache__";
    if (::access(slash == std::string::npos ? "." : f.substr(0, slash).c_str(), W_OK) == 0) return dir + "/kjit";
    const char *home = std::getenv("HOME");
    return std::string(home ? home : "/tmp") + "/.cache/kjit";
  }

  std::string cacheKey(const std::string &argKey, const Type *declaredRet) {
    std::string text = "kjit 0.1.0 cache 1\n" + hostJit().targetDescription() + "\n" + argKey + "\n" +
                       (declaredRet ? declaredRet->str() : std::string("-")) + "\n" +
                       dependencyFingerprint(*source_);
    return source_->name == "<lambda>" ? "lambda-" + hashHex(text) : source_->name + "-" + hashHex(text);
  }

  // A specialisation from the disk cache, or null.
  Compiled *loadCached(const std::string &key, const std::string &ckey, std::shared_ptr<TypeContext> types,
                       const std::vector<const Type *> &argTypes) {
    DiskCache cache(cacheDir());
    std::optional<CacheEntry> e = cache.load(ckey);
    if (!e || e->fields.size() != 5) return nullptr;
    CompiledCode code;
    std::string err;
    if (!hostJit().addObject(e->fields[0], e->fields[1], code, err)) return nullptr;
    auto c = std::make_unique<Compiled>();
    c->key = key;
    c->types = types;
    c->args = argTypes;
    size_t p = 0;
    c->ret = typeOfKey(*types, e->fields[2], p);
    if (!c->ret) return nullptr;
    c->typedIR = e->fields[3];
    c->signature = e->fields[4];
    c->entry = reinterpret_cast<Compiled::Entry>(code.entry);
    c->measure();
    return host_.add(std::move(c));
  }

  Compiled *compile(const std::string &key, std::shared_ptr<TypeContext> types,
                    const std::vector<const Type *> &argTypes, const Type *declaredRet) {
    std::lock_guard<std::mutex> lock(compileMutex_);
    if (Compiled *c = host_.find(key)) return c;
    std::string ckey;
    if (cache_) {
      ckey = cacheKey(key, declaredRet);
      if (Compiled *c = loadCached(key, ckey, types, argTypes)) return c;
    }
    Context ctx;
    const Type *declared = declaredRet ? sameTypeIn(ctx.types, declaredRet) : nullptr;
    if (declaredRet && declaredRet->kind() == TypeKind::Void) declared = ctx.types.voidTy();
    TypedProgram prog = buildTypedProgram(ctx, source_, remap(ctx.types, argTypes), declared);
    if (!prog.entry) throw CompileFailure(ctx.diags.render(), ctx.sources, ctx.diags.diagnostics());
    auto c = std::make_unique<Compiled>();
    c->key = key;
    c->types = types;
    c->args = argTypes;
    const Type *ret = prog.entry->returnType;
    c->ret = sameTypeIn(*types, ret);
    std::string sig = "(";
    for (size_t i = 0; i < argTypes.size(); ++i) sig += (i ? ", " : "") + argTypes[i]->str();
    c->signature = sig + ") -> " + c->ret->str();
    for (const ir::Function *f : prog.functions) c->typedIR += ir::print(*f);
    HostBuild build;
    // Cached code is named after its key, so that loading it again in a
    // later process cannot collide with code compiled there.
    if (cache_) build.moduleName = "kc" + ckey.substr(ckey.size() - 32);
    build.toObject = cache_;
    HostCode code;
    std::string err;
    if (!buildForHost(ctx, prog, hostJit(), build, code, err))
      throw std::runtime_error("kjit: internal compiler error in " + source_->name + ": " + err);
    if (cache_) {
      CacheEntry entry;
      entry.fields = {code.object, code.symbol, keyOfType(c->ret), c->typedIR, c->signature};
      DiskCache(cacheDir()).store(ckey, entry);  // best effort: a read-only folder only costs time
    }
    c->entry = reinterpret_cast<Compiled::Entry>(code.entry);
    c->measure();
    return host_.add(std::move(c));
  }

  pybind11::object invoke(Compiled &c, PyObject **argv, size_t n) {
    Marshalled m;
    marshal(c, argv, n, m, "");
    alignas(16) unsigned char small[256];
    std::vector<unsigned char> big;
    unsigned char *ret = small;
    if (c.retBytes > sizeof(small)) {
      big.resize(c.retBytes + 16);
      ret = big.data();
    }
    KjitCallContext ctx;
    if (parallel_) ctx.pool = &threadPool();
    int status;
    if (nogil_) {
      pybind11::gil_scoped_release release;
      status = c.entry(m.ptrs, ret, &ctx);
    } else {
      status = c.entry(m.ptrs, ret, &ctx);
    }
    if (status != 0) raise(ctx);
    Owners owners;
    return toPython(c.ret, ret, ctx, argv, n, owners);
  }

  void raise(KjitCallContext &ctx) {
    pybind11::object cls = builtinException(ctx.excClass);
    pybind11::object exc = ctx.message.empty() ? cls() : cls(ctx.message);
    if (!ctx.file.empty() && pybind11::hasattr(exc, "add_note"))
      exc.attr("add_note")(fmt::format("raised in kjit function '{}' at {}:{}", source_->name, ctx.file, ctx.line));
    PyErr_SetObject(cls.ptr(), exc.ptr());
    throw pybind11::error_already_set();
  }

  // The owner (a capsule that frees it) of each allocation returned, shared
  // by every array of the result that views it.
  using Owners = std::map<void *, pybind11::object>;

  pybind11::object toPython(const Type *t, unsigned char *p, KjitCallContext &ctx, PyObject **argv, size_t n,
                            Owners &owners) {
    if (t->isNone()) return pybind11::none();
    if (t->isBool()) return pybind11::bool_(p[0] != 0);
    if (t->isInt()) {
      int64_t v = 0;
      switch (t->bits()) {
      case 8: v = t->isSigned() ? int64_t(*reinterpret_cast<int8_t *>(p)) : int64_t(*p); break;
      case 16: v = t->isSigned() ? int64_t(*reinterpret_cast<int16_t *>(p)) : int64_t(*reinterpret_cast<uint16_t *>(p)); break;
      case 32: v = t->isSigned() ? int64_t(*reinterpret_cast<int32_t *>(p)) : int64_t(*reinterpret_cast<uint32_t *>(p)); break;
      default: std::memcpy(&v, p, 8);
      }
      if (!t->isSigned() && t->bits() == 64) return pybind11::reinterpret_steal<pybind11::object>(PyLong_FromUnsignedLongLong(uint64_t(v)));
      return pybind11::reinterpret_steal<pybind11::object>(PyLong_FromLongLong(v));
    }
    if (t->isFloat()) {
      if (t->bits() == 32) return pybind11::float_(double(*reinterpret_cast<float *>(p)));
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
    if (t->isTuple()) {
      pybind11::tuple out(t->elements().size());
      size_t off = 0;
      for (size_t i = 0; i < t->elements().size(); ++i) {
        const Type *e = t->elements()[i];
        size_t a = memAlign(e);
        off = (off + a - 1) / a * a;
        out[i] = toPython(e, p + off, ctx, argv, n, owners);
        off += memSize(e);
      }
      return out;
    }
    if (t->isArray()) {
      void *meminfo, *data;
      std::memcpy(&meminfo, p, 8);
      std::memcpy(&data, p + 8, 8);
      auto *i64 = reinterpret_cast<int64_t *>(p + 16);
      std::vector<pybind11::ssize_t> shape(i64, i64 + t->ndim()), strides(i64 + t->ndim(), i64 + 2 * t->ndim());
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
          for (size_t i = 0; i < n; ++i) all[i] = pybind11::reinterpret_borrow<pybind11::object>(argv[i]);
          base = all;
        }
      }
      pybind11::dtype dt(numpyDtypeName(t->dtype()));
      pybind11::array out(dt, shape, strides, data, base);
      if (t->readonly()) out.attr("flags").attr("writeable") = false;
      return out;
    }
    return pybind11::none();
  }
};

// The resolver (kjit/dispatcher.py) answers a global name with a tuple
// (kind, value): ("int", 3), ("module", "math"), ("jit", dispatcher), ...
std::optional<GlobalValue> Dispatcher::resolveGlobal(const pybind11::object &resolver, const std::string &name) {
  pybind11::gil_scoped_acquire gil;
  return fromClassified(resolver, resolver(name));
}

std::optional<GlobalValue> Dispatcher::fromClassified(const pybind11::object &resolver, const pybind11::object &r) {
  if (r.is_none()) return std::nullopt;
  pybind11::tuple t = r;
  std::string kind = t[0].cast<std::string>();
  GlobalValue g;
  using K = GlobalValue::Kind;
  if (kind == "none") g.kind = K::None;
  else if (kind == "bool") g.kind = K::Bool, g.i = t[1].cast<bool>();
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
  } else if (kind == "float") g.kind = K::Float, g.f = t[1].cast<double>();
  else if (kind == "complex") {
    g.kind = K::Complex;
    auto c = t[1].cast<std::complex<double>>();
    g.f = c.real();
    g.im = c.imag();
  } else if (kind == "str") g.kind = K::String, g.name = t[1].cast<std::string>();
  else if (kind == "tuple") {
    g.kind = K::Tuple;
    for (auto item : pybind11::tuple(t[1])) {
      auto e = fromClassified(resolver, resolver.attr("classify")(item));
      if (!e) return std::nullopt;
      g.elems.push_back(*e);
    }
  } else if (kind == "array") {
    pybind11::tuple a = t[1];
    g.kind = K::Array;
    g.name = a[0].cast<std::string>();
    g.shape = a[1].cast<std::vector<int64_t>>();
    g.bytes = a[2].cast<std::string>();
  } else if (kind == "module") g.kind = K::Module, g.name = t[1].cast<std::string>();
  else if (kind == "function") g.kind = K::Function, g.name = t[1].cast<std::string>();
  else if (kind == "dtype") g.kind = K::Dtype, g.name = t[1].cast<std::string>();
  else if (kind == "exception") g.kind = K::ExceptionClass, g.name = t[1].cast<std::string>();
  else if (kind == "jit") {
    g.kind = K::JitFunction;
    g.fn = t[1].cast<std::shared_ptr<Dispatcher>>()->source();
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

// ---- NumPy ufuncs (@vectorize, @guvectorize: target 'cpu' and 'parallel') -------
//
// A ufunc's inner loop for one signature is a compiled kjit function
// (kjit/vectorize.py generates it) whose arguments are the operands as
// arrays with one more leading axis, the loop's: for @vectorize
// `out[i] = f(a[i], ...)` over 1-D arrays, for @guvectorize
// `f(a[i], ..., out[i])` over arrays of the core dimensions. NumPy calls
// ufuncLoop with its pointers, counts and steps: they become those arrays'
// descriptors, so the user's function is inlined into a compiled loop. With
// target='parallel' the loop's iterations are split among the thread pool's
// threads.

namespace {

using UFuncEntry = int (*)(void **, void *, KjitCallContext *);
constexpr int kMaxCoreDims = 8;

struct UFuncOperand {
  std::vector<int> coreDims;  // for each core axis: its index among NumPy's dimensions[1..]
};

struct UFuncLoopData {
  UFuncEntry entry;
  std::vector<UFuncOperand> operands;  // inputs, then outputs
  size_t nin;
  bool parallel;
  std::string name;
};

// An array in its memory form (compiler/Types.h, py_values.cpp writeValue):
// owner (none here: NumPy owns the memory), data, shape[nd], strides[nd].
struct OperandDesc {
  int64_t words[2 + 2 * (1 + kMaxCoreDims)];
};

int runUFuncChunk(const UFuncLoopData &L, char **args, const intptr_t *dims, const intptr_t *steps, int64_t lo,
                  int64_t hi, KjitCallContext &ctx) {
  OperandDesc descs[kMaxArgs];
  void *ptrs[kMaxArgs];
  size_t nargs = L.operands.size();
  const intptr_t *coreSteps = steps + nargs;
  for (size_t k = 0; k < nargs; ++k) {
    const std::vector<int> &core = L.operands[k].coreDims;
    int nd = 1 + int(core.size());
    int64_t *w = descs[k].words;
    char *data = args[k] + lo * steps[k];
    w[0] = 0;
    std::memcpy(&w[1], &data, sizeof data);
    w[2] = hi - lo;
    w[2 + nd] = steps[k];
    for (size_t j = 0; j < core.size(); ++j) {
      w[3 + j] = dims[1 + core[j]];
      w[3 + nd + j] = *coreSteps++;
    }
    ptrs[k] = w;
  }
  alignas(16) unsigned char ret[16];
  return L.entry(ptrs, ret, &ctx);
}

// The bytes operand k spans in this call: [lo, hi) (hi padded by 16, the
// widest element).
std::pair<intptr_t, intptr_t> operandSpan(const UFuncLoopData &L, char **args, const intptr_t *dims,
                                          const intptr_t *steps, size_t k) {
  intptr_t lo = reinterpret_cast<intptr_t>(args[k]), hi = lo;
  auto axis = [&](intptr_t n, intptr_t stride) {
    if (n <= 0) return;
    (stride < 0 ? lo : hi) += (n - 1) * stride;
  };
  axis(dims[0], steps[k]);
  size_t nargs = L.operands.size(), s = nargs;
  for (size_t j = 0; j < k; ++j) s += L.operands[j].coreDims.size();
  for (int d : L.operands[k].coreDims) axis(dims[1 + d], steps[s++]);
  return {lo, hi + 16};
}

// Whether the iterations can run in any order: no output is written twice
// (a step of 0: NumPy's reductions accumulate so) and none overlaps another
// operand, except one that is exactly that operand (in place, element by
// element). NumPy's reduce and accumulate pass such aliased operands.
bool iterationsIndependent(const UFuncLoopData &L, char **args, const intptr_t *dims, const intptr_t *steps) {
  size_t nargs = L.operands.size();
  for (size_t k = L.nin; k < nargs; ++k) {
    if (steps[k] == 0) return false;
    auto out = operandSpan(L, args, dims, steps, k);
    for (size_t j = 0; j < nargs; ++j) {
      if (j == k) continue;
      auto other = operandSpan(L, args, dims, steps, j);
      bool same = args[j] == args[k] && steps[j] == steps[k] &&
                  L.operands[j].coreDims.empty() && L.operands[k].coreDims.empty();
      if (!same && other.first < out.second && out.first < other.second) return false;
    }
  }
  return true;
}

// NumPy's PyUFuncGenericFunction. NumPy may have released the GIL.
void ufuncLoop(char **args, const intptr_t *dims, const intptr_t *steps, void *data) {
  const auto &L = *static_cast<const UFuncLoopData *>(data);
  int64_t n = dims[0];
  if (n <= 0) return;
  std::vector<std::unique_ptr<KjitCallContext>> ctxs;
  std::vector<int> status;
  unsigned chunks = 1;
  if (L.parallel && n >= 2 && iterationsIndependent(L, args, dims, steps)) {
    // Elementwise loops split from 4096 elements; gufunc iterations are
    // heavier (each a whole core), and split from 2.
    bool elementwise = true;
    for (const UFuncOperand &o : L.operands) elementwise &= o.coreDims.empty();
    int64_t grain = elementwise ? 2048 : 1;
    chunks = unsigned(std::min<int64_t>(threadPool().size(), n / grain));
  }
  if (chunks <= 1) {
    ctxs.push_back(std::make_unique<KjitCallContext>());
    status.push_back(runUFuncChunk(L, args, dims, steps, 0, n, *ctxs[0]));
  } else {
    for (unsigned c = 0; c < chunks; ++c) ctxs.push_back(std::make_unique<KjitCallContext>());
    status.assign(chunks, 0);
    // Floating-point status flags are per thread, and NumPy looks at the
    // calling thread's after the loop (warnings, np.errstate): the other
    // threads' flags are raised on the caller's.
    std::atomic<int> flags{0};
    std::thread::id caller = std::this_thread::get_id();
    threadPool().run(chunks, [&](unsigned c) {
      bool other = std::this_thread::get_id() != caller;
      if (other) std::feclearexcept(FE_ALL_EXCEPT);
      int64_t lo = n * int64_t(c) / chunks, hi = n * int64_t(c + 1) / chunks;
      status[c] = runUFuncChunk(L, args, dims, steps, lo, hi, *ctxs[c]);
      if (other) flags.fetch_or(std::fetestexcept(FE_ALL_EXCEPT));
    });
    if (int f = flags.load()) std::feraiseexcept(f);
  }
  for (size_t c = 0; c < status.size(); ++c) {
    if (!status[c]) continue;
    // An exception raised by the function: set for the ufunc's caller.
    PyGILState_STATE g = PyGILState_Ensure();
    if (!PyErr_Occurred()) {
      try {
        KjitCallContext &ctx = *ctxs[c];
        pybind11::object cls = builtinException(ctx.excClass);
        pybind11::object exc = ctx.message.empty() ? cls() : cls(ctx.message);
        if (!ctx.file.empty() && pybind11::hasattr(exc, "add_note"))
          exc.attr("add_note")(fmt::format("raised in the function of ufunc '{}' at {}:{}", L.name, ctx.file,
                                           ctx.line));
        PyErr_SetObject(cls.ptr(), exc.ptr());
      } catch (pybind11::error_already_set &e) {
        e.restore();
      }
    }
    PyGILState_Release(g);
    break;
  }
}

using UFuncLoopFn = void (*)(char **, const intptr_t *, const intptr_t *, void *);
using UFuncFromFuncAndData = PyObject *(*)(UFuncLoopFn *, void *const *, const char *, int, int, int, int,
                                           const char *, const char *, int);
using UFuncFromFuncAndDataAndSignature = PyObject *(*)(UFuncLoopFn *, void *const *, const char *, int, int, int,
                                                       int, const char *, const char *, int, const char *);

// NumPy's ufunc C API table (its _UFUNC_API capsule), as NumPy's own
// headers reach it: PyUFunc_FromFuncAndData is entry 1 and
// PyUFunc_FromFuncAndDataAndSignature entry 31, in NumPy 1 and 2.
void **ufuncApi() {
  static void **table = [] {
    pybind11::module_ umath;
    try {
      umath = pybind11::module_::import("numpy._core._multiarray_umath");
    } catch (pybind11::error_already_set &) {
      umath = pybind11::module_::import("numpy.core._multiarray_umath");
    }
    pybind11::object capsule = umath.attr("_UFUNC_API");
    auto **t = static_cast<void **>(PyCapsule_GetPointer(capsule.ptr(), nullptr));
    if (!t) throw pybind11::error_already_set();
    return t;
  }();
  return table;
}

// What a ufunc's loops point to: kept for the life of the process (NumPy
// keeps the pointers, not copies), as is the compiled code they call.
struct UFuncTables {
  std::string name, doc, types, signature;
  std::vector<UFuncLoopFn> funcs;
  std::vector<std::unique_ptr<UFuncLoopData>> loops;
  std::vector<void *> data;
  pybind11::object keep;
};

// `core`: for a gufunc (`signature` not empty), each operand's core axes as
// indices among the signature's dimension names, in order of appearance;
// empty lists for a ufunc.
pybind11::object makeUFunc(const std::string &name, const std::string &doc, int nin, int nout, int identity,
                           pybind11::list loops, bool parallel, pybind11::object keep, const std::string &signature,
                           const std::vector<std::vector<int>> &core) {
  int nargs = nin + nout;
  if (nin < 1 || nout < 1 || nargs > int(kMaxArgs) || core.size() != size_t(nargs))
    throw pybind11::value_error(fmt::format("a ufunc here has 1 to {} operands, each with its core axes",
                                            kMaxArgs));
  if (signature.empty() && nout != 1) throw pybind11::value_error("an elementwise ufunc here has one output");
  for (const auto &c : core)
    if (c.size() > size_t(kMaxCoreDims))
      throw pybind11::value_error(fmt::format("an operand has at most {} core dimensions", kMaxCoreDims));
  auto *t = new UFuncTables;  // never freed: see UFuncTables
  t->name = name;
  t->doc = doc;
  t->signature = signature;
  t->keep = std::move(keep);
  for (pybind11::handle item : loops) {
    pybind11::tuple loop = pybind11::reinterpret_borrow<pybind11::tuple>(item);
    std::string codes = loop[0].cast<std::string>();
    if (codes.size() != size_t(nargs)) throw pybind11::value_error("a ufunc loop needs a type per operand");
    t->types += codes;
    auto d = std::make_unique<UFuncLoopData>();
    d->entry = reinterpret_cast<UFuncEntry>(loop[1].cast<uintptr_t>());
    for (const auto &c : core) d->operands.push_back({c});
    d->nin = size_t(nin);
    d->parallel = parallel;
    d->name = name;
    t->data.push_back(d.get());
    t->loops.push_back(std::move(d));
    t->funcs.push_back(&ufuncLoop);
  }
  PyObject *u;
  if (signature.empty()) {
    u = reinterpret_cast<UFuncFromFuncAndData>(ufuncApi()[1])(
        t->funcs.data(), t->data.data(), t->types.data(), int(t->funcs.size()), nin, nout, identity,
        t->name.c_str(), t->doc.c_str(), 0);
  } else {
    u = reinterpret_cast<UFuncFromFuncAndDataAndSignature>(ufuncApi()[31])(
        t->funcs.data(), t->data.data(), t->types.data(), int(t->funcs.size()), nin, nout, identity,
        t->name.c_str(), t->doc.c_str(), 0, t->signature.c_str());
  }
  if (!u) throw pybind11::error_already_set();
  return pybind11::reinterpret_steal<pybind11::object>(u);
}

}  // namespace

void define_jit(pybind11::module_ &m) {
  m.def("make_ufunc", &makeUFunc, pybind11::arg("name"), pybind11::arg("doc"), pybind11::arg("nin"),
        pybind11::arg("nout"), pybind11::arg("identity"), pybind11::arg("loops"), pybind11::arg("parallel"),
        pybind11::arg("keep"), pybind11::arg("signature") = std::string(),
        pybind11::arg("core") = std::vector<std::vector<int>>(),
        "a NumPy ufunc (a gufunc with `signature`) whose loops are compiled kjit functions: "
        "loops = [(type numbers as bytes, entry address)]");
  auto cls = pybind11::class_<Dispatcher, std::shared_ptr<Dispatcher>>(m, "Dispatcher", pybind11::dynamic_attr())
      .def(pybind11::init<pybind11::object, std::string, std::string, std::string, uint32_t,
                          pybind11::object, pybind11::dict>(),
           pybind11::arg("pyfunc"), pybind11::arg("name"), pybind11::arg("filename"),
           pybind11::arg("source"), pybind11::arg("first_line"), pybind11::arg("resolver"),
           pybind11::arg("options"))
      .def("compile", &Dispatcher::compileSignature, pybind11::arg("signature"),
           "compile for a signature string, e.g. \"float64(float64[:], int64)\"")
      .def_property_readonly("signatures", &Dispatcher::signatures,
                             "the signatures compiled so far: \"(float64, int64) -> float64\"")
      .def("_inspect_types_text", &Dispatcher::inspectTypes)
      .def("_inspect_code", &Dispatcher::inspectCode, pybind11::arg("asm"))
      .def("_compile_cuda", &Dispatcher::compileCuda, pybind11::arg("signature"), pybind11::arg("device"),
           pybind11::arg("cc"), pybind11::arg("fastmath"), pybind11::arg("llvm") = false,
           pybind11::arg("max_registers") = 0, pybind11::arg("max_threads") = 0,
           pybind11::arg("min_blocks") = 0, pybind11::arg("lineinfo") = false)
      .def("_compile_cuda_key", &Dispatcher::compileCudaKey)
      .def("_cpu_declare", &Dispatcher::cpuDeclare)
      .def("_cpu_launch", &Dispatcher::cpuLaunch)
      .def("_cpu_inspect", &Dispatcher::cpuInspect)
      .def("_cpu_keys", &Dispatcher::cpuKeys)
      .def("_entry_address", &Dispatcher::entryAddress)
      .def("_fingerprint", &Dispatcher::fingerprint)
      .def("_cache_folder", &Dispatcher::cacheFolder)
      .def_property_readonly("_name", &Dispatcher::name);
  // Subclasses made in Python inherit the slot.
  reinterpret_cast<PyTypeObject *>(cls.ptr())->tp_call = dispatcherCall;
}

}  // namespace kjit::py
