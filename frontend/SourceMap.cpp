#include "frontend/SourceMap.h"

#include <fmt/format.h>

#include <functional>
#include <tuple>

namespace kjit {

namespace {

using Pos = std::pair<uint32_t, uint32_t>;  // line, column

bool holds(const SourceMapEntry &e, const SourceLoc &l) {
  Pos start{e.genLine, e.genCol}, end{e.genEndLine, e.genEndCol};
  return start <= Pos{l.line, l.col} && Pos{l.endLine ? l.endLine : l.line, l.endCol} <= end;
}

uint64_t width(const SourceMapEntry &e) {
  return (uint64_t(e.genEndLine - e.genLine) << 32) + (e.genEndCol - e.genCol);
}

}  // namespace

SourceLoc SourceMap::map(const SourceLoc &gen, uint32_t userFile) const {
  if (!gen.valid()) return gen;
  const SourceMapEntry *best = nullptr;
  for (const SourceMapEntry &e : entries) {
    if (e.genLine == gen.line && e.genCol == gen.col && e.genEndLine == gen.endLine &&
        e.genEndCol == gen.endCol)
      return SourceLoc{userFile, e.line, e.col, e.endLine, e.endCol};
  }
  // The smallest entry holding the location; an entry that starts where it
  // starts beats one that only holds it.
  for (const SourceMapEntry &e : entries) {
    if (!holds(e, gen)) continue;
    bool sameStart = e.genLine == gen.line && e.genCol == gen.col;
    bool bestSameStart = best && best->genLine == gen.line && best->genCol == gen.col;
    if (!best || (sameStart && !bestSameStart) ||
        (sameStart == bestSameStart && width(e) < width(*best)))
      best = &e;
  }
  if (!best) {
    // A node the text has no entry for (punctuation the parser adds): the
    // nearest entry that starts before it.
    for (const SourceMapEntry &e : entries) {
      if (Pos{e.genLine, e.genCol} <= Pos{gen.line, gen.col} &&
          (!best || Pos{best->genLine, best->genCol} < Pos{e.genLine, e.genCol}))
        best = &e;
    }
  }
  if (!best) return SourceLoc::point(userFile, defLine ? defLine : 1, 1);
  return SourceLoc{userFile, best->line, best->col, best->endLine, best->endCol};
}

std::string SourceMap::fingerprint() const {
  std::string out =
      fmt::format("map {} {} {} {}:{}\n", filename, defLine, error, errorLine, errorCol);
  for (const SourceMapEntry &e : entries)
    out += fmt::format("{},{},{},{}>{},{},{},{};", e.genLine, e.genCol, e.genEndLine, e.genEndCol,
                       e.line, e.col, e.endLine, e.endCol);
  return out;
}

void applySourceMap(const SourceMap &map, uint32_t userFile, ast::Module &module,
                    DiagnosticEngine &diags, size_t firstDiag) {
  auto move = [&](SourceLoc &l) { l = map.map(l, userFile); };
  std::function<void(const ast::Node *)> walk = [&](const ast::Node *cn) {
    auto *n = const_cast<ast::Node *>(cn);  // the arena's nodes, owned by this parse
    move(n->loc);
    if (auto *c = ast::dyn_cast<ast::CallExpr>(n))
      for (ast::Keyword &k : c->keywords) move(k.loc);
    if (auto *a = ast::dyn_cast<ast::AttributeExpr>(n)) move(a->attrLoc);
    if (auto *l = ast::dyn_cast<ast::LambdaExpr>(n))
      for (ast::Param &p : l->params) move(p.loc);
    if (auto *f = ast::dyn_cast<ast::FunctionDef>(n)) {
      move(f->nameLoc);
      for (ast::Param &p : f->params) move(p.loc);
    }
    if (auto *i = ast::dyn_cast<ast::ImportStmt>(n))
      for (ast::ImportAlias &a : i->names) move(a.loc);
    ast::forEachChild(cn, walk);
  };
  for (const ast::Stmt *s : module.body) walk(s);
  module.fileId = userFile;
  diags.relocate(firstDiag, [&](const SourceLoc &l) { return map.map(l, userFile); });
}

}  // namespace kjit
