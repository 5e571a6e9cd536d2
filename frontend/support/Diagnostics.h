// Diagnostics.h - structured compiler messages.
//
// A Diagnostic is data (severity, category, location, message, notes) until
// it is rendered; rendering produces an LLVM-style first line followed by a
// Python-traceback-style excerpt with a caret range:
//
//   k.py:12:9: error: list comprehensions are not supported in kernels
//     File "k.py", line 12
//       y = [i for i in x]
//           ^^^^^^^^^^^^^^
//
// Messages start in lower case, have no final period, and say what was found
// and what is allowed. The category picks the Python exception class.
#pragma once

#include <string>
#include <vector>

#include "frontend/support/SourceLoc.h"

namespace kjit {

enum class Severity { Error, Warning, Note };

enum class DiagCategory {
  Syntax,       // malformed Python            -> kjit.errors.CompileError
  Unsupported,  // valid Python, not in subset -> kjit.errors.UnsupportedError
  Typing,       // type inference failures     -> kjit.errors.TypingError
  Compile,      // other compile errors        -> kjit.errors.CompileError
  Performance,  // warnings about slow code    -> kjit.errors.PerformanceWarning
};

struct Diagnostic {
  Severity severity = Severity::Error;
  DiagCategory category = DiagCategory::Syntax;
  SourceLoc loc;
  std::string message;
  std::vector<Diagnostic> notes;  // severity Note, each with its own location
};

class DiagnosticEngine {
 public:
  explicit DiagnosticEngine(const SourceManager &sm) : sm_(sm) {}

  Diagnostic &error(DiagCategory cat, SourceLoc loc, std::string message);
  Diagnostic &warning(DiagCategory cat, SourceLoc loc, std::string message);
  // Adds a note to the last diagnostic reported (to none if that error was
  // dropped past the error limit).
  void note(SourceLoc loc, std::string message);

  bool hasErrors() const { return errorCount_ != 0; }
  unsigned errorCount() const { return errorCount_; }
  const std::vector<Diagnostic> &diagnostics() const { return diags_; }
  // Rewrites the locations of the diagnostics from index `from` on (and of
  // their notes) with f(SourceLoc) -> SourceLoc.
  template <class F>
  void relocate(size_t from, F &&f) {
    for (size_t i = from; i < diags_.size(); ++i) {
      diags_[i].loc = f(diags_[i].loc);
      for (Diagnostic &n : diags_[i].notes) n.loc = f(n.loc);
    }
  }
  // Keep at most this many errors (a cascade helps nobody). The first error
  // past the limit is replaced by the note "too many errors emitted, stopping
  // now"; it and every diagnostic after it are dropped.
  void setErrorLimit(unsigned n) { errorLimit_ = n; }
  bool atErrorLimit() const { return errorCount_ >= errorLimit_; }
  // An error was dropped: whoever reports should stop.
  bool errorLimitExceeded() const { return limitExceeded_; }
  void clear() {
    diags_.clear();
    errorCount_ = 0;
    limitExceeded_ = false;
    lastDropped_ = false;
  }

  // Every diagnostic, rendered, one after the other (no blank line between
  // them: each starts with its "file:line:col: severity:" line).
  std::string render() const;
  std::string render(const Diagnostic &d) const;

 private:
  const SourceManager &sm_;
  std::vector<Diagnostic> diags_;
  unsigned errorCount_ = 0;
  unsigned errorLimit_ = 20;
  bool limitExceeded_ = false;
  bool lastDropped_ = false;  // the last error or warning was dropped (its notes go too)
  Diagnostic dropped_;        // target for reports past the error limit
};

const char *categoryName(DiagCategory c);

}  // namespace kjit
