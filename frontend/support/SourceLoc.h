// SourceLoc.h - where a piece of a kernel's source came from.
//
// Every AST node, token and diagnostic carries a SourceLoc. Locations stay
// structured (file id, 1-based line and column, end line and end column) all
// the way to the edge where a message is printed. Lines are the user's real
// file lines: a SourceBuffer registered with first_line = 12 reports its first
// line as line 12. Columns count bytes from 1; the end column is one past the
// last byte of the range.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kjit {

struct SourceLoc {
  uint32_t file = 0;  // index into SourceManager; 0 means "no location"
  uint32_t line = 0;
  uint32_t col = 0;
  uint32_t endLine = 0;
  uint32_t endCol = 0;

  bool valid() const { return file != 0 && line != 0; }
  // The range that starts at `a` and ends where `b` ends.
  // One column: `col` of `line`.
  static SourceLoc point(uint32_t file, uint32_t line, uint32_t col) {
    return SourceLoc{file, line, col, line, col + 1};
  }
  static SourceLoc span(const SourceLoc &a, const SourceLoc &b) {
    SourceLoc r = a;
    r.endLine = b.endLine;
    r.endCol = b.endCol;
    return r;
  }
};

// One source text: a whole module file, or a function's text with the line
// number of its first line in the real file.
struct SourceBuffer {
  std::string name;  // the file name shown to the user
  std::string text;
  uint32_t firstLine = 1;
  std::vector<uint32_t> lineStarts;  // byte offset of each line of `text`

  // The text of a 1-based *file* line, without its newline; empty if outside.
  std::string_view lineText(uint32_t line) const;
};

// Owns the source buffers of one compilation context.
class SourceManager {
 public:
  SourceManager();
  // A UTF-8 byte order mark at the start of `text` is dropped, as Python's
  // tokenizer skips it: the columns of the first line count from after it.
  uint32_t add(std::string name, std::string text, uint32_t firstLine = 1);
  const SourceBuffer &buffer(uint32_t id) const { return *buffers_.at(id); }
  uint32_t size() const { return uint32_t(buffers_.size()); }

 private:
  std::vector<std::unique_ptr<SourceBuffer>> buffers_;  // [0] is a placeholder
};

}  // namespace kjit
