// py_ufunc.cpp - NumPy ufuncs whose loops are compiled kjit functions
// (@vectorize, @guvectorize: targets 'cpu' and 'parallel').
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cfenv>
#include <cstring>
#include <memory>
#include <thread>

#include "py_common.h"
#include "py_dispatcher.h"
#include "py_values.h"
#include "runtime/host/HostRuntime.h"
#include "runtime/host/ThreadPool.h"
#include "runtime/jit/JitFunction.h"

namespace kjit::py {

// ---- NumPy ufuncs (@vectorize, @guvectorize: target 'cpu' and 'parallel') -------
//
// A ufunc's inner loop for one signature is a compiled kjit function
// (kjit/vectorize/cpu_ufunc.py generates it) whose arguments are the operands as
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

int runUFuncChunk(const UFuncLoopData &L, char **args, const intptr_t *dims, const intptr_t *steps,
                  int64_t lo, int64_t hi, KjitCallContext &ctx) {
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
bool iterationsIndependent(const UFuncLoopData &L, char **args, const intptr_t *dims,
                           const intptr_t *steps) {
  size_t nargs = L.operands.size();
  for (size_t k = L.nin; k < nargs; ++k) {
    if (steps[k] == 0) return false;
    auto out = operandSpan(L, args, dims, steps, k);
    for (size_t j = 0; j < nargs; ++j) {
      if (j == k) continue;
      auto other = operandSpan(L, args, dims, steps, j);
      bool same = args[j] == args[k] && steps[j] == steps[k] && L.operands[j].coreDims.empty() &&
                  L.operands[k].coreDims.empty();
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
    chunks = unsigned(std::min<int64_t>(jitRuntime().threadPool().size(), n / grain));
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
    jitRuntime().threadPool().run(chunks, [&](unsigned c) {
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
        pybind11::object cls = exceptionClass(ctx.excClass);
        pybind11::object exc = ctx.message.empty() ? cls() : cls(ctx.message);
        if (!ctx.file.empty() && pybind11::hasattr(exc, "add_note"))
          exc.attr("add_note")(fmt::format("raised in the function of ufunc '{}' at {}:{}", L.name,
                                           ctx.file, ctx.line));
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
using UFuncFromFuncAndData = PyObject *(*)(UFuncLoopFn *, void *const *, const char *, int, int,
                                           int, int, const char *, const char *, int);
using UFuncFromFuncAndDataAndSignature = PyObject *(*)(UFuncLoopFn *, void *const *, const char *,
                                                       int, int, int, int, const char *,
                                                       const char *, int, const char *);

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
pybind11::object makeUFunc(const std::string &name, const std::string &doc, int nin, int nout,
                           int identity, pybind11::list loops, bool parallel, pybind11::object keep,
                           const std::string &signature,
                           const std::vector<std::vector<int>> &core) {
  int nargs = nin + nout;
  if (nin < 1 || nout < 1 || nargs > int(kMaxArgs) || core.size() != size_t(nargs))
    throw pybind11::value_error(
        fmt::format("a ufunc here has 1 to {} operands, each with its core axes", kMaxArgs));
  if (signature.empty() && nout != 1)
    throw pybind11::value_error("an elementwise ufunc here has one output");
  for (const auto &c : core)
    if (c.size() > size_t(kMaxCoreDims))
      throw pybind11::value_error(
          fmt::format("an operand has at most {} core dimensions", kMaxCoreDims));
  auto *t = new UFuncTables;  // never freed: see UFuncTables
  t->name = name;
  t->doc = doc;
  t->signature = signature;
  t->keep = std::move(keep);
  for (pybind11::handle item : loops) {
    pybind11::tuple loop = pybind11::reinterpret_borrow<pybind11::tuple>(item);
    std::string codes = loop[0].cast<std::string>();
    if (codes.size() != size_t(nargs))
      throw pybind11::value_error("a ufunc loop needs a type per operand");
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

void define_ufunc(pybind11::module_ &m) {
  m.def("make_ufunc", &makeUFunc, pybind11::arg("name"), pybind11::arg("doc"), pybind11::arg("nin"),
        pybind11::arg("nout"), pybind11::arg("identity"), pybind11::arg("loops"),
        pybind11::arg("parallel"), pybind11::arg("keep"),
        pybind11::arg("signature") = std::string(),
        pybind11::arg("core") = std::vector<std::vector<int>>(),
        "a NumPy ufunc (a gufunc with `signature`) whose loops are compiled kjit functions: "
        "loops = [(type numbers as bytes, entry address)]");
}

}  // namespace kjit::py
