#include "compiler/Context.h"

#include <algorithm>

#include "frontend/SourceMap.h"

namespace kjit {

Context::Context() : Context(std::make_shared<Session>()) {}

Context::Context(std::shared_ptr<Session> session) : diags(sources), session_(std::move(session)) {}

ast::Module Context::parse(std::string filename, std::string text, uint32_t firstLine,
                           const ParseOptions &opts) {
  uint32_t id = sources.add(std::move(filename), std::move(text), firstLine);
  if (!opts.sourceMap) return parseModule(astArena, sources, id, diags, opts);
  size_t firstDiag = diags.diagnostics().size();
  ast::Module m = parseModule(astArena, sources, id, diags, opts);
  uint32_t user = sources.add(opts.sourceMap->filename, opts.sourceMap->fileText, 1);
  const SourceMap &map = *opts.sourceMap;
  applySourceMap(map, user, m, diags, firstDiag);
  if (!map.error.empty()) {
    uint32_t line = map.errorLine ? map.errorLine : map.defLine;
    diags.error(DiagCategory::Unsupported,
                SourceLoc{user, line, map.errorCol ? map.errorCol : 1, line,
                          std::max(map.errorEndCol, map.errorCol + 1)},
                map.error);
    m.functions.clear();
  }
  return m;
}

}  // namespace kjit
