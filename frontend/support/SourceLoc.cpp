#include "frontend/support/SourceLoc.h"

namespace kjit {

namespace {
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
}  // namespace

std::string_view SourceBuffer::lineText(uint32_t line) const {
  if (line < firstLine) return {};
  uint32_t idx = line - firstLine;
  if (idx >= lineStarts.size()) return {};
  uint32_t begin = lineStarts[idx];
  uint32_t end = idx + 1 < lineStarts.size() ? lineStarts[idx + 1] : uint32_t(text.size());
  std::string_view s(text.data() + begin, end - begin);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

SourceManager::SourceManager() { buffers_.push_back(std::make_unique<SourceBuffer>()); }

uint32_t SourceManager::add(std::string name, std::string text, uint32_t firstLine) {
  auto buf = std::make_unique<SourceBuffer>();
  buf->name = std::move(name);
  buf->text = std::move(text);
  if (buf->text.starts_with(kUtf8Bom)) buf->text.erase(0, kUtf8Bom.size());
  buf->firstLine = firstLine == 0 ? 1 : firstLine;
  buf->lineStarts.push_back(0);
  // Lines end with "\n", "\r\n" or a lone "\r", as for the lexer.
  const std::string &t = buf->text;
  for (uint32_t i = 0; i < t.size(); ++i) {
    bool lineEnd = t[i] == '\n' || (t[i] == '\r' && (i + 1 == t.size() || t[i + 1] != '\n'));
    if (lineEnd && i + 1 < t.size()) buf->lineStarts.push_back(i + 1);
  }
  buffers_.push_back(std::move(buf));
  return uint32_t(buffers_.size() - 1);
}

}  // namespace kjit
