// py_module.cpp - the _kjit extension module: its state, one exception
// translator and one define_<area> call per binding file.
#include "py_common.h"
#include "py_dispatcher.h"
#include "runtime/host/CpuKernel.h"
#include "runtime/jit/JitFunction.h"
#include "runtime/jit/Version.h"

namespace py = pybind11;

namespace kjit::py {

namespace {
// The module's state, as its `_state` capsule holds it: set once, when the
// module is made, before any binding can run.
ModuleState *theState = nullptr;
}  // namespace

ModuleState::ModuleState() : jitRuntime_(new jit::JitRuntime()) {}

// At the interpreter's end. The runtime is left to the process: compiled
// code may still run (a daemon thread in a call without the GIL), and with
// LLVM linked statically (the bundle) LLVM's own statics are gone before a
// destructor at the process's exit would run. The cached dtypes keep their
// references likewise.
ModuleState::~ModuleState() = default;

ModuleState &moduleState() { return *theState; }

jit::JitRuntime &jitRuntime() { return moduleState().jitRuntime(); }

static const char *exceptionClass(DiagCategory c) {
  switch (c) {
  case DiagCategory::Unsupported: return "UnsupportedError";
  case DiagCategory::Typing: return "TypingError";
  default: return "CompileError";
  }
}

void raiseJitError(const jit::JitError &e) {
  using K = jit::JitError::Kind;
  switch (e.kind) {
  case K::Type: PyErr_SetString(PyExc_TypeError, e.what()); return;
  case K::Value: PyErr_SetString(PyExc_ValueError, e.what()); return;
  case K::Internal: PyErr_SetString(PyExc_RuntimeError, e.what()); return;
  case K::LaunchConfig:
  case K::LaunchConfigType: {
    pybind11::object type =
        pybind11::module_::import("kjit.cuda.errors")
            .attr("_error_class")(e.kind == K::LaunchConfig ? "LaunchConfigError"
                                                            : "LaunchConfigTypeError");
    PyErr_SetObject(type.ptr(), type(e.what()).ptr());
    return;
  }
  }
}

void raiseCompileFailure(const jit::CompileFailure &f) {
  pybind11::module_ errors = pybind11::module_::import("kjit.errors");
  pybind11::list diags;
  for (const auto &e : f.entries) {
    pybind11::dict d;
    d["severity"] = e.severity;
    d["category"] = e.category;
    d["message"] = e.message;
    d["filename"] = e.filename;
    d["lineno"] = e.line;
    d["col"] = e.col;
    d["end_lineno"] = e.endLine;
    d["end_col"] = e.endCol;
    diags.append(d);
  }
  pybind11::object cls = errors.attr(exceptionClass(f.category));
  pybind11::object exc = cls(pybind11::str(f.what()), pybind11::arg("diagnostics") = diags);
  PyErr_SetObject(cls.ptr(), exc.ptr());
}

}  // namespace kjit::py

PYBIND11_MODULE(_kjit, m) {
  m.doc() = "kjit native core: the compiler and runtime behind the kjit package";
  // The module owns its state: the capsule deletes it with the module.
  auto *state = new kjit::py::ModuleState();
  m.attr("_state") = py::capsule(state, [](void *p) {
    if (kjit::py::theState == p) kjit::py::theState = nullptr;
    delete static_cast<kjit::py::ModuleState *>(p);
  });
  kjit::py::theState = state;
  m.attr("__version__") = kjit::kVersion;
  // The most threads a cooperative launch (grid.sync()) has on the CPU device.
  m.attr("cpu_max_cooperative_threads") = kjit::kCpuMaxCooperativeThreads;
  m.attr("cpu_max_cooperative_shared_bytes") = kjit::kCpuMaxCooperativeSharedBytes;

  // kjit's own exceptions (compile failures, driver and device errors, a
  // kernel's raise): one mapping, setKjitError; others go on to pybind11's.
  py::register_exception_translator([](std::exception_ptr p) {
    if (p && !kjit::py::setKjitError(p)) std::rethrow_exception(p);
  });

  kjit::py::define_frontend(m);
  kjit::py::define_jit(m);
  kjit::py::define_globals(m);
  kjit::py::define_ufunc(m);
  kjit::py::define_launch(m);
  kjit::py::define_device(m);
  kjit::py::define_cuda(m);
  kjit::py::define_hip(m);
  kjit::py::define_records(m);
}
