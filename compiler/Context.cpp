#include "compiler/Context.h"

namespace kjit {

ast::Module Context::parse(std::string filename, std::string text, uint32_t firstLine,
                           const ParseOptions &opts) {
  uint32_t id = sources.add(std::move(filename), std::move(text), firstLine);
  return parseModule(astArena, sources, id, diags, opts);
}

}  // namespace kjit
