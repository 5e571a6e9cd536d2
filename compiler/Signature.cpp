#include "compiler/Signature.h"

#include <fmt/format.h>

#include <cctype>

namespace kjit {

namespace {

class SigParser {
 public:
  SigParser(TypeContext &tc, const std::string &s) : tc(tc), s(s) {}
  TypeContext &tc;
  const std::string &s;
  size_t p = 0;
  std::string error;

  void ws() {
    while (p < s.size() && std::isspace(static_cast<unsigned char>(s[p]))) ++p;
  }
  bool eat(char c) {
    ws();
    if (p < s.size() && s[p] == c) {
      ++p;
      return true;
    }
    return false;
  }
  bool failAt(const std::string &msg) {
    if (error.empty()) error = fmt::format("{} at position {} of \"{}\"", msg, p, s);
    return false;
  }
  std::string ident() {
    ws();
    size_t b = p;
    while (p < s.size() &&
           (std::isalnum(static_cast<unsigned char>(s[p])) || s[p] == '_' || s[p] == '.'))
      ++p;
    std::string id = s.substr(b, p - b);
    if (auto dot = id.rfind('.'); dot != std::string::npos)
      id = id.substr(dot + 1);  // np.float32 -> float32
    return id;
  }

  const Type *type() {
    ws();
    if (p + 1 < s.size() && s[p] == 'R' && std::isdigit(static_cast<unsigned char>(s[p + 1]))) {
      // A record, spelled by its spec (kjit.types.Record's name).
      size_t start = p;
      const Type *r = parseRecordSpec(tc, s, p);
      if (!r) {
        p = start;
        return failAt("malformed record type"), nullptr;
      }
      ws();
      if (p < s.size() && s[p] == '[') return arraySuffix(r);
      return r;
    }
    std::string id = ident();
    if (id.empty()) {
      failAt("expected a type");
      return nullptr;
    }
    const Type *t = nullptr;
    if (id == "void" || id == "none") {
      t = id == "void" ? tc.voidTy() : tc.none();
    } else if (id == "unicode_type") {
      t = tc.str();
    } else if (id == "list" || id == "ListType") {  // list(int64), ListType[int64]
      char close = eat('(') ? ')' : eat('[') ? ']' : 0;
      if (!close) return failAt("expected '(' after list"), nullptr;
      const Type *e = type();
      if (!e || !eat(close)) return failAt("expected the list's element type, then ')'"), nullptr;
      if (!e->isRuntime() || e->isNone()) return failAt("a list cannot hold that"), nullptr;
      t = tc.list(e);
    } else if (id == "UniTuple") {
      if (!eat('(')) return failAt("expected '('"), nullptr;
      const Type *e = type();
      if (!e || !eat(',')) return failAt("expected ','"), nullptr;
      ws();
      size_t b = p;
      while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) ++p;
      if (b == p) return failAt("expected a count"), nullptr;
      unsigned n = unsigned(std::stoul(s.substr(b, p - b)));
      if (!eat(')')) return failAt("expected ')'"), nullptr;
      t = tc.tuple(std::vector<const Type *>(n, e));
    } else if (id == "Tuple") {
      if (!eat('(')) return failAt("expected '('"), nullptr;
      std::vector<const Type *> elems;
      if (!eat(')')) {
        do {
          const Type *e = type();
          if (!e) return nullptr;
          elems.push_back(e);
        } while (eat(','));
        if (!eat(')')) return failAt("expected ')'"), nullptr;
      }
      t = tc.tuple(elems);
    } else {
      t = tc.scalarByName(id);
      if (!t) return failAt(fmt::format("unknown type '{}'", id)), nullptr;
    }
    ws();
    if (p < s.size() && s[p] == '[') return arraySuffix(t);
    return t;
  }

  // [:, :], [:, ::1], [::1, :]; [] is a 0-d array (kjit.types.Array's
  // name for one).
  const Type *arraySuffix(const Type *dtype) {
    ++p;
    unsigned ndim = 0;
    int contigAt = -1;
    ws();
    if (eat(']')) return tc.array(dtype, 0, Layout::C);
    for (;;) {
      ws();
      if (!eat(':')) return failAt("expected ':' in an array type"), nullptr;
      if (eat(':')) {
        ws();
        if (p < s.size() && s[p] == '1') {
          ++p;
          if (contigAt >= 0) return failAt("only one axis can be contiguous"), nullptr;
          contigAt = int(ndim);
        } else {
          return failAt("expected '1' after '::'"), nullptr;
        }
      }
      ++ndim;
      if (eat(']')) break;
      if (!eat(',')) return failAt("expected ',' or ']'"), nullptr;
    }
    Layout l = Layout::A;
    if (contigAt == int(ndim) - 1)
      l = Layout::C;
    else if (contigAt == 0)
      l = Layout::F;
    else if (contigAt >= 0)
      return failAt("the contiguous axis must be the first or the last"), nullptr;
    if (ndim == 1 && contigAt == 0) l = Layout::C;
    return tc.array(dtype, ndim, l);
  }
};

}  // namespace

bool parseSignature(TypeContext &tc, const std::string &text, Signature &out, std::string &error) {
  SigParser sp(tc, text);
  sp.ws();
  if (sp.p < text.size() && text[sp.p] != '(') {
    out.ret = sp.type();
    if (!out.ret) {
      error = sp.error;
      return false;
    }
  }
  if (!sp.eat('(')) {
    error = fmt::format("expected '(' after the return type in signature \"{}\"", text);
    return false;
  }
  if (!sp.eat(')')) {
    do {
      if (sp.eat(')')) goto closed;  // a trailing comma: "(int64,)"
      {
        const Type *t = sp.type();
        if (!t) {
          error = sp.error;
          return false;
        }
        if (t == tc.voidTy()) {
          error = fmt::format("an argument cannot be void in signature \"{}\"", text);
          return false;
        }
        out.args.push_back(t);
      }
    } while (sp.eat(','));
    if (!sp.eat(')')) {
      sp.failAt("expected ',' or ')'");
      error = sp.error;
      return false;
    }
  }
closed:
  sp.ws();
  if (sp.p != text.size()) {
    sp.failAt("unexpected text after the signature");
    error = sp.error;
    return false;
  }
  return true;
}

const Type *parseType(TypeContext &tc, const std::string &text, std::string &error) {
  SigParser sp(tc, text);
  const Type *t = sp.type();
  sp.ws();
  if (t && sp.p != text.size()) {
    sp.failAt("unexpected text after the type");
    t = nullptr;
  }
  if (!t) error = sp.error;
  return t;
}

}  // namespace kjit
