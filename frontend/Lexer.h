// Lexer.h - Python's lexical rules for the kernel language.
//
// The lexer turns one SourceBuffer into a vector of tokens with Python's
// INDENT/DEDENT/NEWLINE structure: implicit line joining inside brackets,
// backslash continuation, comments, blank lines, and TabError-style checks for
// inconsistent tabs and spaces. A function's text taken from an indented class
// or block works as is: the indentation of the first logical line is level 0.
// Errors are reported to the DiagnosticEngine and the lexer goes on, so one run
// reports what it can. A token reported as wrong (an invalid character, an
// unterminated string, a closing bracket that matches nothing) becomes an Error
// token, about which the parser says nothing more; a bracket never closed ends
// the token stream, as an Error token in its place. Names follow Python's
// rules for non-ASCII characters (PEP 3131); a UTF-8 byte order mark at the
// start is skipped (see SourceManager::add).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/support/Diagnostics.h"
#include "frontend/support/SourceLoc.h"

namespace kjit {

enum class TokKind : uint8_t {
#define TOK(N, S) N,
#include "frontend/Tokens.def"
};

const char *tokSpelling(TokKind k);

struct Token {
  TokKind kind = TokKind::EndOfFile;
  SourceLoc loc;
  std::string_view text;  // the bytes of the token in its buffer

  // Integer: the value, or intTooLarge when it does not fit in 64 bits.
  uint64_t intValue = 0;
  bool intTooLarge = false;
  // Float and Imaginary: the value (of the imaginary part for Imaginary).
  double floatValue = 0;
  // String: the decoded value and the prefix flags.
  std::string strValue;
  bool isBytes = false;
  bool isFString = false;

  bool is(TokKind k) const { return kind == k; }
};

// Tokenizes buffer `fileId` of `sm`. The result always ends with EndOfFile.
std::vector<Token> lex(const SourceManager &sm, uint32_t fileId, DiagnosticEngine &diags);

}  // namespace kjit
