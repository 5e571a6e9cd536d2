#include "frontend/support/Unicode.h"

#include <algorithm>

namespace kjit::unicode {

namespace {

struct IdentRange {
  uint32_t lo, hi;
  bool start;  // XID_Start as well as XID_Continue
};
struct CodeRange {
  uint32_t lo, hi;
};

#include "frontend/support/UnicodeTables.inc"

template <class Range, size_t N>
const Range *findRange(const Range (&table)[N], uint32_t cp) {
  const Range *it = std::upper_bound(std::begin(table), std::end(table), cp,
                                     [](uint32_t c, const Range &r) { return c < r.lo; });
  if (it == std::begin(table)) return nullptr;
  --it;
  return cp <= it->hi ? it : nullptr;
}

bool isAsciiAlpha(uint32_t cp) { return (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z'; }

bool isWide(uint32_t cp) {
  // East Asian Wide and Fullwidth blocks (after Markus Kuhn's wcwidth).
  return cp >= 0x1100 &&
         (cp <= 0x115F || cp == 0x2329 || cp == 0x232A ||
          (cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
          (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE10 && cp <= 0xFE19) ||
          (cp >= 0xFE30 && cp <= 0xFE6F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
          (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
          (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD));
}

}  // namespace

uint32_t decodeUtf8(std::string_view s, size_t pos, size_t &length) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char b0 = byte(pos);
  length = 1;
  if (b0 < 0x80) return b0;
  if (b0 < 0xC2 || b0 > 0xF4) return kInvalid;  // continuation, overlong or beyond U+10FFFF
  size_t n = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : 2;
  static constexpr uint32_t kMinOfLength[] = {0, 0, 0x80, 0x800, 0x10000};
  if (pos + n > s.size()) return kInvalid;
  uint32_t cp = b0 & (0x7F >> n);
  for (size_t i = 1; i < n; ++i) {
    unsigned char b = byte(pos + i);
    if ((b & 0xC0) != 0x80) return kInvalid;
    cp = cp << 6 | (b & 0x3F);
  }
  if (cp < kMinOfLength[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return kInvalid;
  length = n;
  return cp;
}

void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

bool isIdentStart(uint32_t cp) {
  if (cp < 0x80) return isAsciiAlpha(cp) || cp == '_';
  const IdentRange *r = findRange(kIdentRanges, cp);
  return r && r->start;
}

bool isIdentContinue(uint32_t cp) {
  if (cp < 0x80) return isAsciiAlpha(cp) || cp == '_' || (cp >= '0' && cp <= '9');
  return findRange(kIdentRanges, cp) != nullptr;
}

bool isPrintable(uint32_t cp) {
  if (cp < 0x80) return cp >= 0x20 && cp < 0x7F;
  return findRange(kNonPrintable, cp) == nullptr;
}

size_t displayWidth(std::string_view text) {
  size_t width = 0;
  for (size_t i = 0; i < text.size();) {
    size_t n;
    uint32_t cp = decodeUtf8(text, i, n);
    width += cp != kInvalid && isWide(cp) ? 2 : 1;
    i += n;
  }
  return width;
}

}  // namespace kjit::unicode
