#include "frontend/support/Diagnostics.h"

#include <fmt/format.h>

#include <algorithm>

#include "frontend/support/Unicode.h"

namespace kjit {

const char *categoryName(DiagCategory c) {
  switch (c) {
  case DiagCategory::Syntax: return "syntax";
  case DiagCategory::Unsupported: return "unsupported";
  case DiagCategory::Typing: return "typing";
  case DiagCategory::Compile: return "compile";
  case DiagCategory::Performance: return "performance";
  }
  return "compile";
}

Diagnostic &DiagnosticEngine::error(DiagCategory cat, SourceLoc loc, std::string message) {
  if (atErrorLimit()) {
    if (!limitExceeded_) {
      limitExceeded_ = true;
      diags_.push_back(Diagnostic{
          Severity::Note, cat, SourceLoc{}, "too many errors emitted, stopping now", {}});
    }
    lastDropped_ = true;
    dropped_ = Diagnostic{};
    return dropped_;
  }
  lastDropped_ = false;
  ++errorCount_;
  diags_.push_back(Diagnostic{Severity::Error, cat, loc, std::move(message), {}});
  return diags_.back();
}

Diagnostic &DiagnosticEngine::warning(DiagCategory cat, SourceLoc loc, std::string message) {
  if (limitExceeded_) {  // after "stopping now", nothing more
    lastDropped_ = true;
    dropped_ = Diagnostic{};
    return dropped_;
  }
  lastDropped_ = false;
  diags_.push_back(Diagnostic{Severity::Warning, cat, loc, std::move(message), {}});
  return diags_.back();
}

void DiagnosticEngine::note(SourceLoc loc, std::string message) {
  if (diags_.empty() || lastDropped_) return;
  diags_.back().notes.push_back(
      Diagnostic{Severity::Note, diags_.back().category, loc, std::move(message), {}});
}

static const char *severityName(Severity s) {
  switch (s) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  case Severity::Note: return "note";
  }
  return "error";
}

static void renderOne(const SourceManager &sm, const Diagnostic &d, std::string &out) {
  if (!d.loc.valid() || d.loc.file >= sm.size()) {
    out += fmt::format("{}: {}\n", severityName(d.severity), d.message);
    return;
  }
  const SourceBuffer &buf = sm.buffer(d.loc.file);
  out += fmt::format("{}:{}:{}: {}: {}\n", buf.name, d.loc.line, d.loc.col,
                     severityName(d.severity), d.message);
  std::string_view line = buf.lineText(d.loc.line);
  if (line.empty() && d.loc.col > 1) return;
  out += fmt::format("  File \"{}\", line {}\n", buf.name, d.loc.line);
  // Strip the common leading whitespace, as Python's tracebacks do.
  size_t indent = 0;
  while (indent < line.size() && (line[indent] == ' ' || line[indent] == '\t')) ++indent;
  out += "    ";
  out += line.substr(indent);
  out += '\n';
  // Columns are bytes; the caret line is laid out in characters on screen.
  size_t col0 = d.loc.col == 0 ? 0 : d.loc.col - 1;
  size_t endCol0 =
      (d.loc.endLine == d.loc.line && d.loc.endCol > d.loc.col) ? d.loc.endCol - 1 : line.size();
  if (d.loc.endLine == d.loc.line && d.loc.endCol <= d.loc.col) endCol0 = col0 + 1;
  col0 = std::clamp(col0, indent, line.size());
  endCol0 = std::clamp(endCol0, col0, line.size());
  size_t start = unicode::displayWidth(line.substr(indent, col0 - indent));
  size_t width = std::max<size_t>(unicode::displayWidth(line.substr(col0, endCol0 - col0)), 1);
  out += "    ";
  out += std::string(start, ' ');
  out += std::string(width, '^');
  out += '\n';
}

std::string DiagnosticEngine::render(const Diagnostic &d) const {
  std::string out;
  renderOne(sm_, d, out);
  for (const Diagnostic &n : d.notes) renderOne(sm_, n, out);
  return out;
}

std::string DiagnosticEngine::render() const {
  std::string out;
  for (const Diagnostic &d : diags_) out += render(d);
  return out;
}

}  // namespace kjit
