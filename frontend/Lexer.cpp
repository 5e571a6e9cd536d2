#include "frontend/Lexer.h"

#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

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
    {"**=", TokKind::DoubleStarAssign}, {"//=", TokKind::DoubleSlashAssign},
    {">>=", TokKind::RShiftAssign},     {"<<=", TokKind::LShiftAssign},
    {"...", TokKind::Ellipsis},         {"->", TokKind::Arrow},
    {":=", TokKind::Walrus},            {"**", TokKind::DoubleStar},
    {"//", TokKind::DoubleSlash},       {"<<", TokKind::LShift},
    {">>", TokKind::RShift},            {"<=", TokKind::LessEq},
    {">=", TokKind::GreaterEq},         {"==", TokKind::EqEq},
    {"!=", TokKind::NotEq},             {"+=", TokKind::PlusAssign},
    {"-=", TokKind::MinusAssign},       {"*=", TokKind::StarAssign},
    {"/=", TokKind::SlashAssign},       {"%=", TokKind::PercentAssign},
    {"@=", TokKind::AtAssign},          {"&=", TokKind::AmpAssign},
    {"|=", TokKind::PipeAssign},        {"^=", TokKind::CaretAssign},
    {"(", TokKind::LParen},             {")", TokKind::RParen},
    {"[", TokKind::LBracket},           {"]", TokKind::RBracket},
    {"{", TokKind::LBrace},             {"}", TokKind::RBrace},
    {",", TokKind::Comma},              {":", TokKind::Colon},
    {";", TokKind::Semi},               {".", TokKind::Dot},
    {"+", TokKind::Plus},               {"-", TokKind::Minus},
    {"*", TokKind::Star},               {"/", TokKind::Slash},
    {"%", TokKind::Percent},            {"@", TokKind::At},
    {"&", TokKind::Amp},                {"|", TokKind::Pipe},
    {"^", TokKind::Caret},              {"~", TokKind::Tilde},
    {"<", TokKind::Less},               {">", TokKind::Greater},
    {"=", TokKind::Assign},
};

bool isIdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool isIdentChar(unsigned char c) { return isIdentStart(c) || std::isdigit(c); }

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
      : buf_(sm.buffer(fileId)), src_(buf_.text), fileId_(fileId), diags_(diags),
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
    uint32_t c = colOf(offset);
    return SourceLoc{fileId_, line_, c, line_, c + 1};
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

  bool lastIsLineBoundary() const {
    return toks_.empty() || toks_.back().is(TokKind::Newline) ||
           toks_.back().is(TokKind::Indent) || toks_.back().is(TokKind::Dedent);
  }

  void handleLineStart();
  void lexToken();
  void lexNumber();
  void lexString(size_t begin, size_t prefixLen);
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
      size_t at = pos_;
      ++pos_;
      if (peek() == '\n' || peek() == '\r') {
        eatNewline();
        if (atEnd()) error(pointLoc(at), "unexpected end of input after line continuation");
      } else {
        error(pointLoc(at), "unexpected character after line continuation character");
      }
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
  while (!atEnd() && isIdentChar(static_cast<unsigned char>(peek()))) ++pos_;
  std::string_view word = src_.substr(begin, pos_ - begin);
  // String prefixes: r, b, u, f and their two-letter combinations.
  if (word.size() <= 2 && (peek() == '\'' || peek() == '"')) {
    bool ok = true, r = false, b = false, u = false, f = false;
    for (char ch : word) {
      switch (ch | 0x20) {
      case 'r': ok &= !r; r = true; break;
      case 'b': ok &= !b; b = true; break;
      case 'u': ok &= !u; u = true; break;
      case 'f': ok &= !f; f = true; break;
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
  if (isIdentStart(c)) return lexIdentifier();
  if (std::isdigit(c) || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1)))))
    return lexNumber();
  if (c == '\'' || c == '"') return lexString(pos_, 0);

  size_t begin = pos_;
  uint32_t l = line_, col = colOf(pos_);
  for (const Punct &p : kPuncts) {
    size_t n = std::strlen(p.text);
    if (src_.substr(pos_, n) == p.text) {
      pos_ += n;
      Token &t = push(p.kind, begin, l, col);
      char ch = p.text[0];
      if (n == 1 && (ch == '(' || ch == '[' || ch == '{')) {
        brackets_.push_back({ch, t.loc});
      } else if (n == 1 && (ch == ')' || ch == ']' || ch == '}')) {
        char want = ch == ')' ? '(' : ch == ']' ? '[' : '{';
        if (brackets_.empty()) {
          error(t.loc, fmt::format("unmatched '{}'", ch));
        } else if (brackets_.back().c != want) {
          Open o = brackets_.back();
          char close = o.c == '(' ? ')' : o.c == '[' ? ']' : '}';
          error(t.loc, fmt::format("closing parenthesis '{}' does not match opening "
                                   "parenthesis '{}' on line {}",
                                   ch, o.c, o.loc.line));
          diags_.note(o.loc, fmt::format("'{}' opened here, expected '{}'", o.c, close));
          brackets_.pop_back();
        } else {
          brackets_.pop_back();
        }
      }
      return;
    }
  }
  ++pos_;
  std::string shown = c >= 0x20 && c < 0x7f ? fmt::format("'{}' ", char(c)) : std::string();
  error(locAt(begin, l, col), fmt::format("invalid character {}(U+{:04X})", shown, unsigned(c)));
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
    while (!atEnd() && isIdentChar(static_cast<unsigned char>(peek()))) ++pos_;
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
    if (!ok || (!atEnd() && isIdentChar(static_cast<unsigned char>(peek())))) return badLiteral(what);
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
    if (isDec(peek())) ok &= digitsOf(isDec);
    else if (peek() == '_') ok = false;
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
  if (!ok || (!atEnd() && isIdentChar(static_cast<unsigned char>(peek()))))
    return badLiteral("decimal");

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
    error(t.loc, "leading zeros in decimal integer literals are not permitted; use an 0o "
                 "prefix for octal integers");
    return;
  }
  for (char ch : clean) {
    unsigned d = ch - '0';
    if (t.intValue > (UINT64_MAX - d) / 10) t.intTooLarge = true;
    t.intValue = t.intValue * 10 + d;
  }
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
    if (atEnd()) {
      error(SourceLoc{fileId_, l, col, l, col + 1},
            fmt::format("unterminated {}string literal (detected at line {})",
                        triple ? "triple-quoted " : "", line_));
      push(TokKind::Error, begin, l, col);
      return;
    }
    char c = peek();
    if (c == q && (!triple || (peek(1) == q && peek(2) == q))) {
      pos_ += triple ? 3 : 1;
      break;
    }
    if (c == '\n' || c == '\r') {
      if (!triple) {
        error(SourceLoc{fileId_, l, col, l, colOf(pos_)},
              fmt::format("unterminated string literal (detected at line {})", line_));
        push(TokKind::Error, begin, l, col);
        return;  // the newline is lexed as usual
      }
      value += '\n';
      eatNewline();
      continue;
    }
    if (c != '\\') {
      value += c;
      ++pos_;
      continue;
    }
    // Backslash.
    char e = peek(1);
    if (e == '\n' || e == '\r') {  // line continuation inside the string
      ++pos_;
      if (raw) value += '\\', value += '\n';
      eatNewline();
      continue;
    }
    if (raw) {
      value += '\\';
      if (e != '\0') value += e;
      pos_ += e != '\0' ? 2 : 1;
      continue;
    }
    pos_ += 2;
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
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
      unsigned v = unsigned(e - '0');
      for (int i = 0; i < 2 && peek() >= '0' && peek() <= '7'; ++i) v = v * 8 + unsigned(peek() - '0'), ++pos_;
      if (bytes) value += char(v & 0xFF);
      else appendUtf8(value, v);
      break;
    }
    case 'x':
    case 'u':
    case 'U': {
      if (bytes && e != 'x') {
        value += '\\';
        value += e;
        break;
      }
      size_t at = pos_ - 2;
      int64_t v = hexValue(e == 'x' ? 2 : e == 'u' ? 4 : 8);
      if (v < 0 || v > 0x10FFFF) {
        error(pointLoc(at), fmt::format("invalid \\{} escape in string literal", e));
        break;
      }
      if (bytes) value += char(v);
      else appendUtf8(value, uint32_t(v));
      break;
    }
    default:
      // Unknown escapes keep their backslash, as in Python.
      value += '\\';
      if (e != '\0') value += e;
      else --pos_;
    }
  }
  Token &t = push(TokKind::String, begin, l, col);
  t.strValue = std::move(value);
  t.isBytes = bytes;
  t.isFString = fstr;
}

void Lexer::finish() {
  for (const Open &o : brackets_) error(o.loc, fmt::format("'{}' was never closed", o.c));
  SourceLoc end{fileId_, line_, colOf(pos_), line_, colOf(pos_) + 1};
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
