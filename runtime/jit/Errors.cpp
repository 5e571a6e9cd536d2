// Errors.cpp - see Errors.h.
#include "runtime/jit/Errors.h"

namespace kjit::jit {

CompileFailure::CompileFailure(const std::string &rendered, const SourceManager &sm,
                               const std::vector<Diagnostic> &diags)
    : std::runtime_error(rendered) {
  bool first = true;
  std::vector<const Diagnostic *> flat;  // each error followed by its notes
  for (const Diagnostic &d : diags) {
    flat.push_back(&d);
    for (const Diagnostic &n : d.notes) flat.push_back(&n);
  }
  for (const Diagnostic *dp : flat) {
    const Diagnostic &d = *dp;
    Entry e;
    e.severity = d.severity == Severity::Error     ? "error"
                 : d.severity == Severity::Warning ? "warning"
                                                   : "note";
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

}  // namespace kjit::jit
