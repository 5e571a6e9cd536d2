// Errors.h - what the JIT driver reports to its callers: a user's mistake
// (JitError, with the Python exception class it maps to), or a program the
// compiler refused (CompileFailure, with its located diagnostics). The
// bindings translate both; the driver never names a Python type.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "frontend/support/Diagnostics.h"

namespace kjit::jit {

// Who a message is about: a function called from Python ("f()") or a
// kernel ("kernel 'k'"). Cheap to pass on hot paths: the text is made only
// when a message needs it.
struct Caller {
  const std::string &name;
  bool kernel = false;
  std::string describe() const { return kernel ? "kernel '" + name + "'" : name + "()"; }
  // As Numba's messages name it, after Python's repr of a function.
  std::string pythonic() const {
    return "<function " + name + (kernel ? " (a kernel)>" : " (a kjit function)>");
  }
};

struct JitError : std::runtime_error {
  // LaunchConfigType: an item of a launch configuration that is not an int
  // (LaunchConfigError, and a TypeError as Numba's).
  enum class Kind { Type, Value, LaunchConfig, LaunchConfigType, Internal };
  JitError(Kind k, const std::string &msg) : std::runtime_error(msg), kind(k) {}
  Kind kind;
};

inline JitError typeError(const std::string &msg) { return JitError(JitError::Kind::Type, msg); }
inline JitError valueError(const std::string &msg) { return JitError(JitError::Kind::Value, msg); }
inline JitError launchConfigError(const std::string &msg) {
  return JitError(JitError::Kind::LaunchConfig, msg);
}
inline JitError launchConfigTypeError(const std::string &msg) {
  return JitError(JitError::Kind::LaunchConfigType, msg);
}
inline JitError internalError(const std::string &msg) {
  return JitError(JitError::Kind::Internal, msg);
}

// A compile that reported errors: the rendered text (every diagnostic, with
// carets) and each diagnostic's fields, for the Python exception's
// attributes.
struct CompileFailure : std::runtime_error {
  CompileFailure(const std::string &rendered, const SourceManager &sm,
                 const std::vector<Diagnostic> &diags);
  struct Entry {
    std::string severity, category, message, filename;
    unsigned line = 0, col = 0, endLine = 0, endCol = 0;
  };
  std::vector<Entry> entries;                     // errors and warnings, in order
  DiagCategory category = DiagCategory::Compile;  // of the first error
};

}  // namespace kjit::jit
