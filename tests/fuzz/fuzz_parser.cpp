// fuzz_parser.cpp - libFuzzer target: any byte string through the lexer, the
// parser and the AST printer must give diagnostics, never a crash, a hang or a
// sanitizer report. Build and run: make fuzz (FUZZ_SECONDS=N).
#include <cstddef>
#include <cstdint>
#include <string>

#include "compiler/Context.h"
#include "frontend/ASTPrinter.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  kjit::Context ctx;
  kjit::ast::Module m =
      ctx.parse("fuzz.py", std::string(reinterpret_cast<const char *>(data), size));
  std::string printed = kjit::ast::printModule(m);
  std::string rendered = ctx.diags.render();
  return printed.size() + rendered.size() == 0 ? 0 : 0;
}
