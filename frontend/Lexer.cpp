#include "frontend/Lexer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "frontend/support/Unicode.h"

namespace kjit {

const char *tokSpelling(TokKind k) {
  switch (k) {
#define TOK(N, S) \
  case TokKind::N: return S;
#include "frontend/Tokens.def"
  }
  return "token";
}

namespace {

struct Keyword {
  const char *text;
  TokKind kind;
};

const Keyword kKeywords[] = {
#define TOK(N, S)
#define KEYWORD(N, S) {S, TokKind::N},
#include "frontend/Tokens.def"
};

struct Punct {
  const char *text;
  TokKind kind;
};

// Longest first, so that the first match is the longest.
const Punct kPuncts[] = {
    {"**=", TokKind::DoubleStarAssign},
    {"//=", TokKind::DoubleSlashAssign},
    {">>=", TokKind::RShiftAssign},
    {"<<=", TokKind::LShiftAssign},
    {"...", TokKind::Ellipsis},
    {"->", TokKind::Arrow},
    {":=", TokKind::Walrus},
    {"**", TokKind::DoubleStar},
    {"//", TokKind::DoubleSlash},
    {"<<", TokKind::LShift},
    {">>", TokKind::RShift},
    {"<=", TokKind::LessEq},
    {">=", TokKind::GreaterEq},
    {"==", TokKind::EqEq},
    {"!=", TokKind::NotEq},
    {"+=", TokKind::PlusAssign},
    {"-=", TokKind::MinusAssign},
    {"*=", TokKind::StarAssign},
    {"/=", TokKind::SlashAssign},
    {"%=", TokKind::PercentAssign},
    {"@=", TokKind::AtAssign},
    {"&=", TokKind::AmpAssign},
    {"|=", TokKind::PipeAssign},
    {"^=", TokKind::CaretAssign},
    {"(", TokKind::LParen},
    {")", TokKind::RParen},
    {"[", TokKind::LBracket},
    {"]", TokKind::RBracket},
    {"{", TokKind::LBrace},
    {"}", TokKind::RBrace},
    {",", TokKind::Comma},
    {":", TokKind::Colon},
    {";", TokKind::Semi},
    {".", TokKind::Dot},
    {"+", TokKind::Plus},
    {"-", TokKind::Minus},
    {"*", TokKind::Star},
    {"/", TokKind::Slash},
    {"%", TokKind::Percent},
    {"@", TokKind::At},
    {"&", TokKind::Amp},
    {"|", TokKind::Pipe},
    {"^", TokKind::Caret},
    {"~", TokKind::Tilde},
    {"<", TokKind::Less},
    {">", TokKind::Greater},
    {"=", TokKind::Assign},
};

// Indentation measured two ways, as CPython does: tabs to multiples of 8, and
// tabs as one column. If the two orders disagree, tabs and spaces are mixed
// inconsistently.
struct Indent {
  unsigned cols = 0;
  unsigned alt = 0;
};

class Lexer {
 public:
  Lexer(const SourceManager &sm, uint32_t fileId, DiagnosticEngine &diags)
      : buf_(sm.buffer(fileId)),
        src_(buf_.text),
        fileId_(fileId),
        diags_(diags),
        line_(buf_.firstLine) {}

  std::vector<Token> run();

 private:
  const SourceBuffer &buf_;
  std::string_view src_;
  uint32_t fileId_;
  DiagnosticEngine &diags_;
  size_t pos_ = 0;
  uint32_t line_;
  size_t lineStart_ = 0;
  std::vector<Token> toks_;
  std::vector<Indent> indents_;
  struct Open {
    char c;
    SourceLoc loc;
    size_t token;                 // its index in toks_
    bool closeMayBeLost = false;  // an unterminated string came after it
  };
  std::vector<Open> brackets_;

  char peek(size_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }
  bool atEnd() const { return pos_ >= src_.size(); }
  uint32_t colOf(size_t offset) const { return uint32_t(offset - lineStart_ + 1); }

  SourceLoc locAt(size_t begin, uint32_t beginLine, uint32_t beginCol) const {
    return SourceLoc{fileId_, beginLine, beginCol, line_, colOf(pos_)};
  }
  SourceLoc pointLoc(size_t offset) const {
    return SourceLoc::point(fileId_, line_, colOf(offset));
  }
  void newLine() {
    ++line_;
    lineStart_ = pos_;
  }
  // Consumes one line ending ("\n", "\r\n" or "\r") at pos_.
  void eatNewline() {
    if (peek() == '\r' && peek(1) == '\n') ++pos_;
    ++pos_;
    newLine();
  }
  Token &push(TokKind k, size_t begin, uint32_t beginLine, uint32_t beginCol) {
    Token t;
    t.kind = k;
    t.loc = locAt(begin, beginLine, beginCol);
    t.text = src_.substr(begin, pos_ - begin);
    toks_.push_back(std::move(t));
    return toks_.back();
  }
  void error(SourceLoc loc, std::string msg) {
    diags_.error(DiagCategory::Syntax, loc, std::move(msg));
  }
  // The length in bytes of the character at `offset` if it can start a name
  // (or continue one), else 0.
  size_t nameCharAt(size_t offset, bool first) const {
    if (offset >= src_.size()) return 0;
    size_t n;
    uint32_t cp = unicode::decodeUtf8(src_, offset, n);
    if (cp == unicode::kInvalid) return 0;
    return (first ? unicode::isIdentStart(cp) : unicode::isIdentContinue(cp)) ? n : 0;
  }

  bool lastIsLineBoundary() const {
    return toks_.empty() || toks_.back().is(TokKind::Newline) || toks_.back().is(TokKind::Indent) ||
           toks_.back().is(TokKind::Dedent);
  }

  void handleLineStart();
  void lexToken();
  void lexBracket(const Punct &p, size_t begin, uint32_t beginLine, uint32_t beginCol);
  void lexInvalidCharacter();
  void lexNumber();
  void lexString(size_t begin, size_t prefixLen);
  void unterminatedString(size_t begin, uint32_t beginLine, uint32_t beginCol, bool triple);
  void lexEscape(bool bytes, std::string &value);
  void lexNamedEscape(size_t backslash);
  void lexIdentifier();
  void finish();
};

std::vector<Token> Lexer::run() {
  bool lineStart = true;
  while (!atEnd()) {
    if (lineStart && brackets_.empty()) {
      handleLineStart();
      lineStart = false;
      continue;
    }
    char c = peek();
    if (c == ' ' || c == '\t' || c == '\f') {
      ++pos_;
    } else if (c == '#') {
      while (!atEnd() && peek() != '\n' && peek() != '\r') ++pos_;
    } else if (c == '\\') {
      SourceLoc at = pointLoc(pos_);  // before eatNewline moves to the next line
      ++pos_;
      if (peek() == '\n' || peek() == '\r')
        eatNewline();
      else if (!atEnd())
        error(at, "unexpected character after line continuation character");
      if (atEnd()) error(at, "unexpected end of input after line continuation");
    } else if (c == '\n' || c == '\r') {
      size_t at = pos_;
      uint32_t l = line_, col = colOf(pos_);
      eatNewline();
      if (brackets_.empty()) {
        if (!lastIsLineBoundary()) {
          Token t;
          t.kind = TokKind::Newline;
          t.loc = SourceLoc{fileId_, l, col, l, col + 1};
          t.text = src_.substr(at, 1);
          toks_.push_back(std::move(t));
        }
        lineStart = true;
      }
    } else {
      lexToken();
    }
  }
  finish();
  return std::move(toks_);
}

// Measures the indentation of a new logical line and emits INDENT/DEDENT.
// Blank and comment-only lines are skipped entirely.
void Lexer::handleLineStart() {
  for (;;) {
    Indent ind;
    size_t p = pos_;
    while (p < src_.size()) {
      char c = src_[p];
      if (c == ' ') {
        ++ind.cols;
        ++ind.alt;
      } else if (c == '\t') {
        ind.cols = (ind.cols / 8 + 1) * 8;
        ++ind.alt;
      } else if (c == '\f') {
        ind = Indent{};
      } else {
        break;
      }
      ++p;
    }
    char c = p < src_.size() ? src_[p] : '\0';
    if (c == '\n' || c == '\r' || c == '#' || p >= src_.size()) {
      // Blank or comment line: no indentation meaning.
      pos_ = p;
      while (!atEnd() && peek() != '\n' && peek() != '\r') ++pos_;
      if (atEnd()) return;
      eatNewline();
      continue;
    }
    if (c == '\\' && p + 1 < src_.size() && (src_[p + 1] == '\n' || src_[p + 1] == '\r')) {
      // A line that starts with a continuation: keep the indentation measured.
    }
    pos_ = p;
    SourceLoc here{fileId_, line_, colOf(p), line_, colOf(p) + 1};
    if (indents_.empty()) {
      indents_.push_back(ind);  // the first line sets the base level
      return;
    }
    Indent top = indents_.back();
    if (ind.cols == top.cols) {
      if (ind.alt != top.alt) error(here, "inconsistent use of tabs and spaces in indentation");
      return;
    }
    if (ind.cols > top.cols) {
      if (ind.alt <= top.alt) error(here, "inconsistent use of tabs and spaces in indentation");
      indents_.push_back(ind);
      Token t;
      t.kind = TokKind::Indent;
      t.loc = SourceLoc{fileId_, line_, 1, line_, colOf(p)};
      toks_.push_back(std::move(t));
      return;
    }
    while (indents_.size() > 1 && ind.cols < indents_.back().cols) {
      indents_.pop_back();
      Token t;
      t.kind = TokKind::Dedent;
      t.loc = here;
      toks_.push_back(std::move(t));
    }
    if (ind.cols != indents_.back().cols) {
      error(here, "unindent does not match any outer indentation level");
      if (ind.cols < indents_.back().cols) indents_.back() = ind;  // below the base level
    } else if (ind.alt != indents_.back().alt) {
      error(here, "inconsistent use of tabs and spaces in indentation");
    }
    return;
  }
}

void Lexer::lexIdentifier() {
  size_t begin = pos_;
  uint32_t l = line_, col = colOf(pos_);
  while (size_t n = nameCharAt(pos_, false)) pos_ += n;
  std::string_view word = src_.substr(begin, pos_ - begin);
  // String prefixes: r, b, u, f and their two-letter combinations.
  if (word.size() <= 2 && (peek() == '\'' || peek() == '"')) {
    bool ok = true, r = false, b = false, u = false, f = false;
    for (char ch : word) {
      switch (ch | 0x20) {
      case 'r':
        ok &= !r;
        r = true;
        break;
      case 'b':
        ok &= !b;
        b = true;
        break;
      case 'u':
        ok &= !u;
        u = true;
        break;
      case 'f':
        ok &= !f;
        f = true;
        break;
      default: ok = false;
      }
    }
    ok &= !(u && (r || b || f)) && !(b && f);
    if (ok) {
      lexString(begin, word.size());
      return;
    }
  }
  TokKind kind = TokKind::Identifier;
  for (const Keyword &k : kKeywords)
    if (word == k.text) kind = k.kind;
  push(kind, begin, l, col);
}

void Lexer::lexToken() {
  unsigned char c = static_cast<unsigned char>(peek());
  if (nameCharAt(pos_, true)) return lexIdentifier();
  if (std::isdigit(c) || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1)))))
    return lexNumber();
  if (c == '\'' || c == '"') return lexString(pos_, 0);

  size_t begin = pos_;
  uint32_t l = line_, col = colOf(pos_);
  for (const Punct &p : kPuncts) {
    size_t n = std::strlen(p.text);
    if (src_.substr(pos_, n) != p.text) continue;
    pos_ += n;
    if (n == 1 && std::strchr("()[]{}", p.text[0]))
      lexBracket(p, begin, l, col);
    else
      push(p.kind, begin, l, col);
    return;
  }
  lexInvalidCharacter();
}

// A bracket: tracked for implicit line joining. A closing bracket that
// matches no opening one is reported and becomes an Error token, so that the
// parser does not report it again.
void Lexer::lexBracket(const Punct &p, size_t begin, uint32_t beginLine, uint32_t beginCol) {
  Token &t = push(p.kind, begin, beginLine, beginCol);
  char ch = p.text[0];
  if (ch == '(' || ch == '[' || ch == '{') {
    brackets_.push_back({ch, t.loc, toks_.size() - 1});
    return;
  }
  char want = ch == ')' ? '(' : ch == ']' ? '[' : '{';
  if (!brackets_.empty() && brackets_.back().c == want) {
    brackets_.pop_back();
    return;
  }
  t.kind = TokKind::Error;
  if (brackets_.empty()) {
    error(t.loc, fmt::format("unmatched '{}'", ch));
    return;
  }
  Open o = brackets_.back();
  brackets_.pop_back();
  char close = o.c == '(' ? ')' : o.c == '[' ? ']' : '}';
  error(t.loc, fmt::format("closing parenthesis '{}' does not match opening parenthesis '{}' "
                           "on line {}",
                           ch, o.c, o.loc.line));
  diags_.note(o.loc, fmt::format("'{}' opened here, expected '{}'", o.c, close));
}

// A character that starts no token: one code point (or one byte of invalid
// UTF-8), reported and kept as an Error token.
void Lexer::lexInvalidCharacter() {
  size_t begin = pos_;
  uint32_t l = line_, col = colOf(pos_);
  size_t n;
  uint32_t cp = unicode::decodeUtf8(src_, pos_, n);
  pos_ += n;
  SourceLoc loc = locAt(begin, l, col);
  if (cp == unicode::kInvalid)
    error(loc, fmt::format("invalid byte 0x{:02X}; source text must be UTF-8",
                           unsigned(static_cast<unsigned char>(src_[begin]))));
  else if (unicode::isPrintable(cp))
    error(loc, fmt::format("invalid character '{}' (U+{:04X})", src_.substr(begin, n), cp));
  else
    error(loc, fmt::format("invalid character (U+{:04X})", cp));
  push(TokKind::Error, begin, l, col);
}

void Lexer::lexNumber() {
  size_t begin = pos_;
  uint32_t l = line_, col = colOf(pos_);
  auto digitsOf = [&](auto isDigit) {
    // Digits with single underscores between them; returns false on a
    // misplaced underscore.
    bool ok = true, any = false;
    while (!atEnd()) {
      char ch = peek();
      if (isDigit(ch)) {
        any = true;
        ++pos_;
      } else if (ch == '_') {
        if (!any || !isDigit(peek(1))) ok = false;
        ++pos_;
      } else {
        break;
      }
    }
    return ok && any;
  };
  auto isDec = [](char ch) { return ch >= '0' && ch <= '9'; };
  auto badLiteral = [&](const char *what) {
    while (size_t n = nameCharAt(pos_, false)) pos_ += n;
    error(locAt(begin, l, col), fmt::format("invalid {} literal", what));
    push(TokKind::Error, begin, l, col);
  };

  char c0 = peek(), c1 = char(peek(1) | 0x20);
  if (c0 == '0' && (c1 == 'x' || c1 == 'o' || c1 == 'b')) {
    pos_ += 2;
    unsigned base = c1 == 'x' ? 16 : c1 == 'o' ? 8 : 2;
    const char *what = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
    auto isDigit = [base](char ch) {
      if (base == 16) return std::isxdigit(static_cast<unsigned char>(ch)) != 0;
      return ch >= '0' && ch < char('0' + base);
    };
    if (peek() == '_') ++pos_;  // 0x_ff is valid Python
    bool ok = digitsOf(isDigit);
    if (!ok || nameCharAt(pos_, false)) return badLiteral(what);
    Token &t = push(TokKind::Integer, begin, l, col);
    for (char ch : t.text.substr(2)) {
      if (ch == '_') continue;
      unsigned d = std::isdigit(static_cast<unsigned char>(ch)) ? ch - '0' : (ch | 0x20) - 'a' + 10;
      if (t.intValue > (UINT64_MAX - d) / base) t.intTooLarge = true;
      t.intValue = t.intValue * base + d;
    }
    return;
  }

  bool isFloat = false;
  bool ok = true;
  if (peek() != '.') ok = digitsOf(isDec);
  if (peek() == '.' && !(peek(1) == '.' && peek(2) == '.')) {
    isFloat = true;
    ++pos_;
    if (isDec(peek()))
      ok &= digitsOf(isDec);
    else if (peek() == '_')
      ok = false;
  }
  if ((peek() | 0x20) == 'e' &&
      (isDec(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isDec(peek(2))))) {
    isFloat = true;
    ++pos_;
    if (peek() == '+' || peek() == '-') ++pos_;
    ok &= digitsOf(isDec);
  }
  bool imag = false;
  if ((peek() | 0x20) == 'j') {
    imag = true;
    ++pos_;
  }
  if (!ok || nameCharAt(pos_, false)) return badLiteral("decimal");

  std::string clean;
  for (char ch : src_.substr(begin, pos_ - begin))
    if (ch != '_' && (ch | 0x20) != 'j') clean += ch;
  if (imag || isFloat) {
    Token &t = push(imag ? TokKind::Imaginary : TokKind::Float, begin, l, col);
    t.floatValue = std::strtod(clean.c_str(), nullptr);
    return;
  }
  Token &t = push(TokKind::Integer, begin, l, col);
  if (clean.size() > 1 && clean[0] == '0' && clean.find_first_not_of('0') != std::string::npos) {
    error(t.loc,
          "leading zeros in decimal integer literals are not permitted; use an 0o "
          "prefix for octal integers");
    return;
  }
  for (char ch : clean) {
    unsigned d = ch - '0';
    if (t.intValue > (UINT64_MAX - d) / 10) t.intTooLarge = true;
    t.intValue = t.intValue * 10 + d;
  }
}

void Lexer::lexString(size_t begin, size_t prefixLen) {
  uint32_t l = line_, col = colOf(begin);
  bool raw = false, bytes = false, fstr = false;
  for (size_t i = 0; i < prefixLen; ++i) {
    char p = char(src_[begin + i] | 0x20);
    raw |= p == 'r';
    bytes |= p == 'b';
    fstr |= p == 'f';
  }
  pos_ = begin + prefixLen;
  char q = peek();
  bool triple = peek(1) == q && peek(2) == q;
  pos_ += triple ? 3 : 1;
  std::string value;
  for (;;) {
    if (atEnd() || (!triple && (peek() == '\n' || peek() == '\r'))) {
      unterminatedString(begin, l, col, triple);
      return;  // a newline after it is lexed as usual
    }
    char c = peek();
    if (c == q && (!triple || (peek(1) == q && peek(2) == q))) {
      pos_ += triple ? 3 : 1;
      break;
    }
    if (c == '\n' || c == '\r') {
      value += '\n';
      eatNewline();
    } else if (c != '\\') {
      value += c;
      ++pos_;
    } else if (peek(1) == '\n' || peek(1) == '\r') {  // line continuation inside the string
      ++pos_;
      if (raw) value += "\\\n";
      eatNewline();
    } else if (raw) {
      value += '\\';
      if (peek(1) != '\0') value += peek(1);
      pos_ += peek(1) != '\0' ? 2 : 1;
    } else {
      lexEscape(bytes, value);
    }
  }
  Token &t = push(TokKind::String, begin, l, col);
  t.strValue = std::move(value);
  t.isBytes = bytes;
  t.isFString = fstr;
  if (bytes && std::any_of(t.text.begin(), t.text.end(), [](char ch) { return ch & 0x80; }))
    error(t.loc, "bytes can only contain ASCII literal characters");
}

// Reports a string literal that runs into the end of its line (or, for a
// triple-quoted one, of the input) and leaves an Error token for it.
void Lexer::unterminatedString(size_t begin, uint32_t beginLine, uint32_t beginCol, bool triple) {
  // Python names the last line read; the newline that ends the input starts
  // no line.
  uint32_t lastLine = atEnd() && pos_ == lineStart_ && line_ > beginLine ? line_ - 1 : line_;
  SourceLoc loc = triple ? SourceLoc::point(fileId_, beginLine, beginCol)
                         : SourceLoc{fileId_, beginLine, beginCol, beginLine, colOf(pos_)};
  error(loc, fmt::format("unterminated {}string literal (detected at line {})",
                         triple ? "triple-quoted " : "", lastLine));
  // The brackets open now may have been closed inside the lost text: if one
  // is never closed, that is a consequence of this error, not another one.
  for (Open &o : brackets_) o.closeMayBeLost = true;
  push(TokKind::Error, begin, beginLine, beginCol);
}

// Decodes the escape sequence at pos_ (a backslash, not before a line end) of
// a str or bytes literal that is not raw, and appends its value.
void Lexer::lexEscape(bool bytes, std::string &value) {
  size_t backslash = pos_;
  char e = peek(1);
  pos_ += e != '\0' ? 2 : 1;
  auto hexValue = [&](unsigned n) -> int64_t {
    uint32_t v = 0;
    for (unsigned i = 0; i < n; ++i) {
      char h = peek();
      if (!std::isxdigit(static_cast<unsigned char>(h))) return -1;
      v = v * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (h | 0x20) - 'a' + 10);
      ++pos_;
    }
    return v;
  };
  switch (e) {
  case '\\': value += '\\'; break;
  case '\'': value += '\''; break;
  case '"': value += '"'; break;
  case 'a': value += '\a'; break;
  case 'b': value += '\b'; break;
  case 'f': value += '\f'; break;
  case 'n': value += '\n'; break;
  case 'r': value += '\r'; break;
  case 't': value += '\t'; break;
  case 'v': value += '\v'; break;
  case '0':
  case '1':
  case '2':
  case '3':
  case '4':
  case '5':
  case '6':
  case '7': {
    unsigned v = unsigned(e - '0');
    for (int i = 0; i < 2 && peek() >= '0' && peek() <= '7'; ++i)
      v = v * 8 + unsigned(src_[pos_++] - '0');
    if (bytes)
      value += char(v & 0xFF);
    else
      unicode::appendUtf8(value, v);
    break;
  }
  case 'x':
  case 'u':
  case 'U': {
    if (bytes && e != 'x') {  // \u and \U are not escapes in bytes
      value += '\\';
      value += e;
      break;
    }
    int64_t v = hexValue(e == 'x' ? 2 : e == 'u' ? 4 : 8);
    if (v < 0 || v > 0x10FFFF) {
      error(pointLoc(backslash), fmt::format("invalid \\{} escape in string literal", e));
      break;
    }
    if (bytes)
      value += char(v);
    else
      unicode::appendUtf8(value, uint32_t(v));
    break;
  }
  case 'N':
    if (!bytes) {
      lexNamedEscape(backslash);
      break;
    }
    [[fallthrough]];  // not an escape in bytes
  default:
    // Unknown escapes keep their backslash, as in Python.
    value += '\\';
    if (e != '\0') value += e;
  }
}

// \N{NAME}, with pos_ after the "\N". Decoding it needs Unicode's table of
// character names, too big a thing for the strings of kernels (which only
// reach print()), so it is refused rather than kept as a wrong value.
void Lexer::lexNamedEscape(size_t backslash) {
  size_t close = pos_ + 1;
  if (peek() == '{') {
    while (close < src_.size() && (std::isalnum(static_cast<unsigned char>(src_[close])) ||
                                   src_[close] == ' ' || src_[close] == '-'))
      ++close;
  }
  if (peek() != '{' || close == pos_ + 1 || close >= src_.size() || src_[close] != '}') {
    error(pointLoc(backslash), "malformed \\N character escape in string literal");
    return;
  }
  pos_ = close + 1;
  diags_.error(DiagCategory::Unsupported,
               SourceLoc{fileId_, line_, colOf(backslash), line_, colOf(pos_)},
               "named Unicode escapes ('\\N{...}') are not supported in kernels; write the "
               "character itself or a '\\u' escape");
}

// Closes the token stream: "never closed" errors, then NEWLINE, DEDENTs, EOF.
void Lexer::finish() {
  if (!brackets_.empty()) {
    for (const Open &o : brackets_)
      if (!o.closeMayBeLost) error(o.loc, fmt::format("'{}' was never closed", o.c));
    // Everything after the outermost unclosed bracket ran together into one
    // logical line. Drop it and leave an Error token at the bracket, so that
    // the parser reports nothing more about the statement.
    Token bracket = toks_[brackets_.front().token];
    bracket.kind = TokKind::Error;
    toks_.resize(brackets_.front().token);
    toks_.push_back(std::move(bracket));
    brackets_.clear();
  }
  SourceLoc end = SourceLoc::point(fileId_, line_, colOf(pos_));
  if (!lastIsLineBoundary()) {
    Token t;
    t.kind = TokKind::Newline;
    t.loc = end;
    toks_.push_back(std::move(t));
  }
  while (indents_.size() > 1) {
    indents_.pop_back();
    Token t;
    t.kind = TokKind::Dedent;
    t.loc = end;
    toks_.push_back(std::move(t));
  }
  Token t;
  t.kind = TokKind::EndOfFile;
  t.loc = end;
  toks_.push_back(std::move(t));
}

}  // namespace

std::vector<Token> lex(const SourceManager &sm, uint32_t fileId, DiagnosticEngine &diags) {
  return Lexer(sm, fileId, diags).run();
}

}  // namespace kjit
