// Unicode.h - the little Unicode the frontend needs: UTF-8 decoding and
// encoding, Python's character classes for names (PEP 3131), and the width of
// a line of source text on a terminal (for the caret line of a diagnostic).
// The tables come from tools/gen_unicode_tables.py.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kjit::unicode {

// What decodeUtf8 returns for a byte that does not start a valid UTF-8
// sequence (a stray continuation byte, an overlong form, a surrogate, a
// sequence cut short). `length` is then 1.
constexpr uint32_t kInvalid = 0xFFFFFFFF;

// Decodes the code point that starts at s[pos] (pos < s.size()); sets
// `length` to its number of bytes.
uint32_t decodeUtf8(std::string_view s, size_t pos, size_t &length);
void appendUtf8(std::string &out, uint32_t cp);

// Python's rules for names: XID_Start or '_' first, XID_Continue after.
bool isIdentStart(uint32_t cp);
bool isIdentContinue(uint32_t cp);
// False for control, format, separator, surrogate and private-use characters
// (Python's str.isprintable(), unassigned code points aside).
bool isPrintable(uint32_t cp);

// Terminal columns that `text` takes: one per character, two for East Asian
// wide and fullwidth characters. Invalid UTF-8 counts one column a byte.
size_t displayWidth(std::string_view text);

}  // namespace kjit::unicode
