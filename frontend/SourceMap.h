// SourceMap.h - locations in generated text, moved to the user's file.
//
// The bytecode frontend (python_bindings/kjit/bytecode) rebuilds a function
// that has no readable source as Python text, and lists, for each node it
// wrote, the range of that text next to the range the code object records
// in the user's file. After parsing such text, applySourceMap moves every
// location of the AST (and of the parser's diagnostics) into the user's
// file, so that messages name the user's line and column.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/AST.h"
#include "frontend/support/Diagnostics.h"
#include "frontend/support/SourceLoc.h"

namespace kjit {

struct SourceMapEntry {
  uint32_t genLine = 0, genCol = 0, genEndLine = 0, genEndCol = 0;  // in the text
  uint32_t line = 0, col = 0, endLine = 0, endCol = 0;              // in the user's file
};

struct SourceMap {
  std::string filename;  // the user's file
  std::string fileText;  // its text when known (shown under messages), else empty
  uint32_t defLine = 0;  // the function's first line: for text no entry covers
  std::vector<SourceMapEntry> entries;
  // Bytecode the frontend could not rebuild: the message and where, reported
  // when the function is compiled (as a parse error would be), not before.
  std::string error;
  uint32_t errorLine = 0, errorCol = 0, errorEndCol = 0;

  // The user's location of `gen` (a location in the generated text), in
  // buffer `userFile`: the entry with the same range, else the smallest
  // entry that holds it, else the def's line.
  SourceLoc map(const SourceLoc &gen, uint32_t userFile) const;
  // A digest of the entries (for cache keys).
  std::string fingerprint() const;
};

// Moves the locations of `module` and of the diagnostics from index
// `firstDiag` on into `userFile`.
void applySourceMap(const SourceMap &map, uint32_t userFile, ast::Module &module,
                    DiagnosticEngine &diags, size_t firstDiag);

}  // namespace kjit
