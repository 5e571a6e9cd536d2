// py_module.cpp - the _kjit extension module: one exception translator and
// one define_<area> call per binding file.
#include "py_common.h"

namespace py = pybind11;

namespace kjit::py {

CompileFailure::CompileFailure(std::string rendered, const SourceManager &sm,
                               const std::vector<Diagnostic> &diags)
    : std::runtime_error(std::move(rendered)) {
  bool first = true;
  std::vector<const Diagnostic *> flat;  // each error followed by its notes
  for (const Diagnostic &d : diags) {
    flat.push_back(&d);
    for (const Diagnostic &n : d.notes) flat.push_back(&n);
  }
  for (const Diagnostic *dp : flat) {
    const Diagnostic &d = *dp;
    Entry e;
    e.severity = d.severity == Severity::Error ? "error" : d.severity == Severity::Warning ? "warning" : "note";
    e.category = categoryName(d.category);
    e.message = d.message;
    if (d.loc.valid()) e.filename = sm.buffer(d.loc.file).name;
    e.line = d.loc.line;
    e.col = d.loc.col;
    e.endLine = d.loc.endLine;
    e.endCol = d.loc.endCol;
    if (first && d.severity == Severity::Error) {
      category = d.category;
      first = false;
    }
    entries.push_back(std::move(e));
  }
}

static const char *exceptionClass(DiagCategory c) {
  switch (c) {
  case DiagCategory::Unsupported: return "UnsupportedError";
  case DiagCategory::Typing: return "TypingError";
  default: return "CompileError";
  }
}

void raiseCompileFailure(const CompileFailure &f) {
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
  m.attr("__version__") = "0.1.0";

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const kjit::py::CompileFailure &f) {
      kjit::py::raiseCompileFailure(f);
    }
  });

  kjit::py::define_frontend(m);
  kjit::py::define_jit(m);
  kjit::py::define_cuda(m);
}
