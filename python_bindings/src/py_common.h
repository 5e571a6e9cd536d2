// py_common.h - what the binding files share: the exception that carries
// diagnostics to Python, and the define_<area> functions.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "frontend/support/Diagnostics.h"

namespace kjit::py {

// Thrown by binding code when a compile reported errors; the translator in
// py_module.cpp turns it into kjit.errors.CompileError / UnsupportedError /
// TypingError with the first error's location as attributes.
struct CompileFailure : std::runtime_error {
  CompileFailure(std::string rendered, const SourceManager &sm, const std::vector<Diagnostic> &diags);
  struct Entry {
    std::string severity, category, message, filename;
    unsigned line = 0, col = 0, endLine = 0, endCol = 0;
  };
  std::vector<Entry> entries;  // errors and warnings, in order
  DiagCategory category = DiagCategory::Compile;  // of the first error
};

// Sets the Python exception (kjit.errors.*) for a compile failure.
void raiseCompileFailure(const CompileFailure &f);

// Sets the Python exception for the C++ exception being handled, as the
// module's translators do; for the tp_call slots, which pybind11 does not
// wrap. Call it from a catch block.
void setErrorFromCurrentException();

void define_frontend(pybind11::module_ &m);
void define_jit(pybind11::module_ &m);
void define_cuda(pybind11::module_ &m);

}  // namespace kjit::py
